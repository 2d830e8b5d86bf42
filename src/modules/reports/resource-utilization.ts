// The resource-utilization report (docs/reports.md, "Resource utilization"): how busy each crew was
// from start to end. Per crew (active crews, and any crew with work in the range):
//
// - working days: Monday to Friday from start to end (the workspace has no working-days setting;
//   the same for every crew). Work scheduled on a weekend still counts as a day scheduled, so a
//   crew working Saturdays can pass 100%.
// - days scheduled: the distinct calendar dates in the range the crew has a work-order day on
//   (work_order_days.crew_id; holds left out, cancelled work orders left out); utilization is
//   days scheduled / working days.
// - work orders: the distinct work orders behind those days; crew-days completed: the days
//   whose work order is completed.
// - hours: closed, not void time entries whose clock_in falls in the range (local dates), on a
//   work order assigned to the crew, by a member of the crew or its foreman; elapsed real time.
//
// Job visibility applies to the work counted; division_ids keeps work on jobs of those divisions.
// One query: the crews with two derived GROUP BYs (days, hours) joined by crew id.
import { sql } from 'kysely';
import { visibleTo } from '#crm/index.ts';
import type { ServiceContext } from '#platform/context.ts';
import { addDays, daysBetween } from '#platform/time.ts';
import { countedTime } from './counted-time.ts';
import { startOfDay } from './job-scope.ts';
import type { ReportDefinition } from './run.ts';
import type { FullTable, Row } from './run-result.ts';
import { countOf, formatPct, ratio } from './table-math.ts';

/** Monday to Friday from start to end, both included. */
export function weekdaysBetween(start: string, end: string): number {
  const days = daysBetween(start, end) + 1;
  const weeks = Math.floor(days / 7);
  let n = weeks * 5;
  // The days left over after whole weeks: 0 Sunday ... 6 Saturday.
  const first = new Date(`${addDays(start, weeks * 7)}T00:00:00Z`).getUTCDay();
  for (let i = 0; i < days % 7; i++) {
    const d = (first + i) % 7;
    if (d !== 0 && d !== 6) n++;
  }
  return n;
}

const hoursOf = (seconds: number) => Math.round(seconds / 36) / 100;

export const resourceUtilization: ReportDefinition = {
  key: 'resource-utilization',
  title: 'Resource utilization',
  section: 'Operations',
  description:
    'Each crew’s working days (Monday to Friday) between start and end, the days it was scheduled, its utilization, work orders, hours worked and crew-days completed; idle crews included',
  date_basis: 'all',
  uses: ['division_ids'],
  async run(ctx: ServiceContext, p) {
    const { db, dialect } = ctx.database;
    const firmId = ctx.auth.firm.id;
    const user = ctx.auth.user;
    const from = startOfDay(ctx, p.start);
    const until = startOfDay(ctx, addDays(p.end, 1));
    // division_ids: work on jobs of those divisions.
    const inDivisions = p.divisionKeys
      ? sql<boolean>`jobs.operations_division in (${sql.join(p.divisionKeys.map((k) => sql`${k}`))})`
      : sql<boolean>`1 = 1`;

    const days = visibleTo(
      db
        .selectFrom('work_order_days as wod')
        .innerJoin('work_orders as wo', 'wo.id', 'wod.work_order_id')
        .innerJoin('jobs', 'jobs.id', 'wo.job_id')
        .where('wod.firm_id', '=', firmId)
        .where('wod.date', '>=', p.start)
        .where('wod.date', '<=', p.end)
        .where('wod.is_hold', '=', 0)
        .where('wod.crew_id', 'is not', null)
        .where('wo.status', '!=', 'cancelled')
        .where(inDivisions),
      user,
    )
      .select([
        'wod.crew_id as crew_id',
        sql<number>`count(distinct wod.date)`.as('days'),
        sql<number>`count(distinct wod.work_order_id)`.as('work_orders'),
        sql<number>`count(distinct case when wo.status = 'completed' then wod.date end)`.as('completed_days'),
      ])
      .groupBy('wod.crew_id');

    const seconds = sql<number>`(${dialect.millisBetween(sql`time_entries.clock_in`, sql`time_entries.clock_out`)} / 1000.0)`;
    const hours = visibleTo(
      db
        .selectFrom('time_entries')
        .innerJoin('work_orders as wo', 'wo.id', 'time_entries.work_order_id')
        .innerJoin('crews as tc', 'tc.id', 'wo.crew_id')
        .innerJoin('jobs', 'jobs.id', 'wo.job_id')
        .where('time_entries.firm_id', '=', firmId)
        .where(countedTime)
        .where('time_entries.clock_in', '>=', from)
        .where('time_entries.clock_in', '<', until)
        .where((eb) =>
          eb.or([
            eb('time_entries.user_id', '=', eb.ref('tc.foreman_user_id')),
            eb.exists(
              eb
                .selectFrom('crew_members as cm')
                .select('cm.user_id')
                .whereRef('cm.crew_id', '=', 'wo.crew_id')
                .whereRef('cm.user_id', '=', 'time_entries.user_id'),
            ),
          ]),
        )
        .where(inDivisions),
      user,
    )
      .select(['wo.crew_id as crew_id', sql<number>`sum(round(${seconds}))`.as('seconds')])
      .groupBy('wo.crew_id');

    const rows = await db
      .selectFrom('crews')
      .leftJoin(days.as('d'), 'd.crew_id', 'crews.id')
      .leftJoin(hours.as('h'), 'h.crew_id', 'crews.id')
      .where('crews.firm_id', '=', firmId)
      .where((eb) =>
        eb.or([eb('crews.active', '=', 1), eb('d.crew_id', 'is not', null), eb('h.crew_id', 'is not', null)]),
      )
      .select([
        'crews.id',
        'crews.name',
        'crews.active',
        sql<number>`coalesce(d.days, 0)`.as('days'),
        sql<number>`coalesce(d.work_orders, 0)`.as('work_orders'),
        sql<number>`coalesce(d.completed_days, 0)`.as('completed_days'),
        sql<number>`coalesce(h.seconds, 0)`.as('seconds'),
      ])
      .orderBy('crews.name')
      .orderBy('crews.id')
      .execute();

    const working = weekdaysBetween(p.start, p.end);
    const crewRows: Row[] = rows.map((r) => {
      const scheduled = Number(r.days);
      return {
        crew: String(r.name),
        active: Number(r.active) === 1 ? 'yes' : 'no',
        working_days: working,
        days_scheduled: scheduled,
        utilization: ratio(scheduled, working),
        work_orders: Number(r.work_orders),
        hours: hoursOf(Number(r.seconds)),
        crew_days_completed: Number(r.completed_days),
      };
    });
    const totalOf = (list: Row[]): Row => {
      const scheduled = countOf(list, 'days_scheduled');
      const available = countOf(list, 'working_days');
      return {
        crew: 'Total',
        active: null,
        working_days: available,
        days_scheduled: scheduled,
        utilization: ratio(scheduled, available),
        work_orders: countOf(list, 'work_orders'),
        hours: Math.round(list.reduce((s, r) => s + Math.round(Number(r.hours) * 100), 0)) / 100,
        crew_days_completed: countOf(list, 'crew_days_completed'),
      };
    };
    const table: FullTable = {
      key: 'crews',
      title: 'Crew utilization',
      columns: [
        { key: 'crew', label: 'Crew', kind: 'text' },
        { key: 'active', label: 'Active', kind: 'text' },
        { key: 'working_days', label: 'Working days', kind: 'int' },
        { key: 'days_scheduled', label: 'Days scheduled', kind: 'int' },
        { key: 'utilization', label: 'Utilization', kind: 'pct' },
        { key: 'work_orders', label: 'Work orders', kind: 'int' },
        { key: 'hours', label: 'Hours worked', kind: 'number' },
        { key: 'crew_days_completed', label: 'Crew-days completed', kind: 'int' },
      ],
      rows: crewRows,
      total: totalOf,
      note: 'Working days are Monday to Friday; weekend work counts as days scheduled, so utilization can pass 100%',
    };
    const all = totalOf(crewRows);
    return {
      summary: [
        { label: 'Crews', value: String(crewRows.length) },
        { label: 'Working days', value: String(working) },
        { label: 'Crew-days scheduled', value: String(all.days_scheduled) },
        { label: 'Utilization', value: formatPct(all.utilization as number | null) },
        { label: 'Idle crews', value: String(crewRows.filter((r) => r.days_scheduled === 0).length) },
        { label: 'Hours worked', value: String(all.hours) },
      ],
      tables: [table],
    };
  },
};
