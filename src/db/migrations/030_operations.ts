// Operations (document 2: Hold, Schedule request, Re-bid, Daily log and report; document 3's
// work_orders, time_entries, allocations and job_costs datasets; docs/api-decisions.md,
// "Operations"). Every table of the area is made here, so its resources land in slices without
// one migration each.
//
// - crews, crew_members: the workspace's crews and who is on them (a crew user sees the jobs
//   their crews work).
// - work_orders: a visit of a crew to a job (is_hold 1: a hold, which reserves crew days and is
//   never published). scheduled_date and estimated_days make its days; skipped_dates (JSON) are
//   days taken off a multi-day visit, which then runs a day longer.
// - work_order_days: one row per calendar day a scheduled work order covers, with its crew and
//   whether it locks that crew day (a hold, or published work). The calendar reads and the
//   crew-day lock checks both walk this index, so their cost follows the days asked for, not
//   the size of the workspace. Rewritten with the work order in the same transaction.
// - allocations: estimate lines given to a work order with the quantity planned there; the
//   completed quantity is read from the daily reports.
// - schedule_requests and notifications (in-app, per user).
// - daily_logs (one per work order and day) and daily_reports (the crew app's); photos gain
//   daily_report_id.
// - time_entries (clock in and out; shop time has no job), job_costs (costs by type and code).
// - rebid_cycles (per workspace: a service comes due every N years), rebid_history (work done on
//   a site for a cycle: hand-added, or from a completed work order) and rebid_states (what the
//   office did with one re-bid: snoozed, not doing, its job).
// - users gain pay_rate_cents (an hourly rate set by the operator).
import type { Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema.alterTable('users').addColumn('pay_rate_cents', 'bigint').execute();

  await db.schema
    .createTable('crews')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('foreman_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('crews_firm_name').on('crews').columns(['firm_id', 'name']).execute();

  await db.schema
    .createTable('crew_members')
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    .addColumn('crew_id', 'integer', (c) => c.notNull().references('crews.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('crew_members_pk', ['crew_id', 'user_id'])
    .execute();
  await db.schema.createIndex('crew_members_user').on('crew_members').columns(['user_id', 'crew_id']).execute();

  await db.schema
    .createTable('work_orders')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    /** unscheduled, scheduled, completed, cancelled. */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('is_hold', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('phase', 'text')
    .addColumn('crew_id', 'integer', (c) => c.references('crews.id').onDelete('set null'))
    .addColumn('estimate_service_id', 'integer', (c) => c.references('estimate_lines.id').onDelete('set null'))
    .addColumn('display_qty', 'double precision')
    .addColumn('display_unit', 'text')
    .addColumn('completed_qty', 'double precision')
    .addColumn('completed_unit', 'text')
    .addColumn('estimated_days', 'double precision', (c) => c.notNull())
    .addColumn('scheduled_date', 'text')
    /** The last day the visit covers (with skipped days); null while unscheduled. */
    .addColumn('end_date', 'text')
    /** JSON array of YYYY-MM-DD days taken off the visit (approved skip requests). */
    .addColumn('skipped_dates', 'text')
    /** Local HH:MM; an end before the start runs past midnight. */
    .addColumn('start_time', 'text')
    .addColumn('end_time', 'text')
    .addColumn('scope', 'text')
    .addColumn('address', 'text')
    .addColumn('dispatch_notes', 'text')
    /** The job was made for this hold (a placeholder job). */
    .addColumn('job_is_placeholder', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('dispatched_at', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('cancelled_at', 'text')
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('work_orders_job').on('work_orders').columns(['job_id', 'id']).execute();
  await db.schema
    .createIndex('work_orders_firm_date')
    .on('work_orders')
    .columns(['firm_id', 'is_hold', 'scheduled_date', 'id'])
    .execute();
  await db.schema
    .createIndex('work_orders_firm_updated')
    .on('work_orders')
    .columns(['firm_id', 'updated_at', 'id'])
    .execute();
  await db.schema.createIndex('work_orders_service').on('work_orders').columns(['estimate_service_id']).execute();

  await db.schema
    .createTable('work_order_days')
    .addColumn('firm_id', 'integer', (c) => c.notNull())
    .addColumn('work_order_id', 'integer', (c) => c.notNull().references('work_orders.id').onDelete('cascade'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('crew_id', 'integer')
    /** 1 when this day blocks the crew day for holds: a hold's day, or published work's. */
    .addColumn('locks', 'integer', (c) => c.notNull())
    .addColumn('is_hold', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('work_order_days_pk', ['work_order_id', 'date'])
    .execute();
  await db.schema
    .createIndex('work_order_days_firm_date')
    .on('work_order_days')
    .columns(['firm_id', 'date', 'work_order_id'])
    .execute();
  await db.schema
    .createIndex('work_order_days_crew_date')
    .on('work_order_days')
    .columns(['firm_id', 'crew_id', 'date'])
    .execute();

  await db.schema
    .createTable('allocations')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    .addColumn('work_order_id', 'integer', (c) => c.notNull().references('work_orders.id').onDelete('cascade'))
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('estimate_service_id', 'integer', (c) => c.references('estimate_lines.id').onDelete('set null'))
    .addColumn('planned_quantity', 'double precision')
    .addColumn('unit', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('allocations_work_order').on('allocations').columns(['work_order_id', 'id']).execute();
  await db.schema.createIndex('allocations_job').on('allocations').columns(['job_id', 'id']).execute();

  await db.schema
    .createTable('schedule_requests')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    /** date, move, skip. */
    .addColumn('kind', 'text', (c) => c.notNull())
    /** pending, approved, declined. */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('work_order_id', 'integer', (c) => c.references('work_orders.id').onDelete('set null'))
    .addColumn('estimate_service_id', 'integer', (c) => c.references('estimate_lines.id').onDelete('set null'))
    .addColumn('requested_date', 'text')
    .addColumn('skip_date', 'text')
    .addColumn('note', 'text')
    .addColumn('requested_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('decided_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('decided_at', 'text')
    .addColumn('decision_note', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('schedule_requests_firm')
    .on('schedule_requests')
    .columns(['firm_id', 'status', 'id'])
    .execute();
  await db.schema.createIndex('schedule_requests_job').on('schedule_requests').columns(['job_id', 'id']).execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('schedule_request_id', 'integer', (c) => c.references('schedule_requests.id').onDelete('cascade'))
    .addColumn('read_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notifications_user').on('notifications').columns(['user_id', 'id']).execute();

  await db.schema
    .createTable('daily_logs')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    .addColumn('work_order_id', 'integer', (c) => c.notNull().references('work_orders.id').onDelete('cascade'))
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('date', 'text', (c) => c.notNull())
    /** draft, submitted, office_approved, payroll_approved. */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('submitted_at', 'text')
    .addColumn('submitted_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('office_approved_at', 'text')
    .addColumn('office_approved_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('payroll_approved_at', 'text')
    .addColumn('payroll_approved_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('returned_at', 'text')
    .addColumn('return_note', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('daily_logs_work_order_date')
    .unique()
    .on('daily_logs')
    .columns(['work_order_id', 'date'])
    .execute();
  await db.schema.createIndex('daily_logs_firm_date').on('daily_logs').columns(['firm_id', 'date', 'id']).execute();
  await db.schema
    .createIndex('daily_logs_firm_updated')
    .on('daily_logs')
    .columns(['firm_id', 'updated_at', 'id'])
    .execute();

  await db.schema
    .createTable('daily_reports')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    .addColumn('daily_log_id', 'integer', (c) => c.notNull().references('daily_logs.id').onDelete('cascade'))
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('work_order_id', 'integer', (c) => c.notNull().references('work_orders.id').onDelete('cascade'))
    .addColumn('estimate_service_id', 'integer', (c) => c.references('estimate_lines.id').onDelete('set null'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('submitted_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('weather', 'text')
    .addColumn('work_performed', 'text')
    .addColumn('delay_notes', 'text')
    .addColumn('safety_notes', 'text')
    .addColumn('material_notes', 'text')
    .addColumn('equipment_notes', 'text')
    .addColumn('completed_quantity', 'double precision')
    .addColumn('completed_unit', 'text')
    /** JSON object of the workspace's own questions and their answers. */
    .addColumn('answers', 'text', (c) => c.notNull())
    .addColumn('last_emailed_at', 'text')
    .addColumn('last_emailed_to', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('daily_reports_log').on('daily_reports').columns(['daily_log_id', 'id']).execute();
  await db.schema
    .createIndex('daily_reports_firm_date')
    .on('daily_reports')
    .columns(['firm_id', 'date', 'id'])
    .execute();
  await db.schema
    .createIndex('daily_reports_work_order')
    .on('daily_reports')
    .columns(['work_order_id', 'id'])
    .execute();

  await db.schema
    .alterTable('photos')
    .addColumn('daily_report_id', 'integer', (c) => c.references('daily_reports.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('photos_daily_report').on('photos').columns(['daily_report_id']).execute();

  await db.schema
    .createTable('time_entries')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** null: shop time. */
    .addColumn('job_id', 'integer', (c) => c.references('jobs.id').onDelete('cascade'))
    .addColumn('work_order_id', 'integer', (c) => c.references('work_orders.id').onDelete('set null'))
    .addColumn('cost_code', 'text')
    /** UTC, stored as every timestamp; clock_out null while the worker is on the clock. */
    .addColumn('clock_in', 'text', (c) => c.notNull())
    .addColumn('clock_out', 'text')
    /** The worker's hourly rate when the entry was made (cents), for job cost. */
    .addColumn('pay_rate_cents', 'bigint')
    .addColumn('approved_at', 'text')
    .addColumn('approved_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('voided_at', 'text')
    .addColumn('voided_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('void_reason', 'text')
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('time_entries_user')
    .on('time_entries')
    .columns(['firm_id', 'user_id', 'clock_in'])
    .execute();
  await db.schema.createIndex('time_entries_job').on('time_entries').columns(['job_id', 'clock_in']).execute();
  await db.schema
    .createIndex('time_entries_work_order')
    .on('time_entries')
    .columns(['work_order_id', 'clock_in'])
    .execute();

  await db.schema
    .createTable('job_costs')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    /** labor, material, trucking, equipment, dump, subcontract, other. */
    .addColumn('cost_type', 'text', (c) => c.notNull())
    .addColumn('cost_code', 'text')
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('quantity', 'double precision')
    .addColumn('unit', 'text')
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('reviewed_at', 'text')
    .addColumn('reconciled_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('job_costs_job').on('job_costs').columns(['job_id', 'date', 'id']).execute();
  await db.schema.createIndex('job_costs_firm').on('job_costs').columns(['firm_id', 'id']).execute();

  await db.schema
    .createTable('rebid_cycles')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    .addColumn('service', 'text', (c) => c.notNull())
    .addColumn('every_years', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rebid_cycles_firm').on('rebid_cycles').columns(['firm_id', 'id']).execute();

  await db.schema
    .createTable('rebid_history')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    .addColumn('location_id', 'integer', (c) => c.notNull().references('locations.id').onDelete('cascade'))
    .addColumn('cycle_id', 'integer', (c) => c.notNull().references('rebid_cycles.id').onDelete('cascade'))
    .addColumn('done_on', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint')
    .addColumn('note', 'text')
    /** manual (hand-added) or work_order (a completed work order). */
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('work_order_id', 'integer', (c) => c.references('work_orders.id').onDelete('cascade'))
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('rebid_history_site')
    .on('rebid_history')
    .columns(['firm_id', 'location_id', 'cycle_id', 'done_on'])
    .execute();

  await db.schema
    .createTable('rebid_states')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    .addColumn('location_id', 'integer', (c) => c.notNull().references('locations.id').onDelete('cascade'))
    .addColumn('cycle_id', 'integer', (c) => c.notNull().references('rebid_cycles.id').onDelete('cascade'))
    /** The last done_on the state was set against: newer work starts the re-bid afresh. */
    .addColumn('for_done_on', 'text', (c) => c.notNull())
    /** open, snoozed, not_doing. */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('snooze_until', 'text')
    .addColumn('not_doing_reason', 'text')
    .addColumn('not_doing_note', 'text')
    .addColumn('rebid_job_id', 'integer', (c) => c.references('jobs.id').onDelete('set null'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('rebid_states_pair')
    .unique()
    .on('rebid_states')
    .columns(['firm_id', 'location_id', 'cycle_id'])
    .execute();
}
