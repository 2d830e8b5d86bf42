// The operations area's tables (030_operations): crews, work orders and their days, allocations,
// schedule requests, notifications, daily logs and reports, time entries, job costs and re-bids.
import type { Generated } from 'kysely';
import type { Flag } from './shared.ts';

export interface CrewTable {
  id: Generated<number>;
  firm_id: number;
  name: string;
  /** #rrggbb, lower case. */
  color: string;
  active: Flag;
  foreman_user_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface CrewMemberTable {
  firm_id: number;
  crew_id: number;
  user_id: number;
  created_at: string;
}

export type WorkOrderStatus = 'unscheduled' | 'scheduled' | 'completed' | 'cancelled';

export interface WorkOrderTable {
  id: Generated<number>;
  firm_id: number;
  job_id: number;
  title: string;
  status: WorkOrderStatus;
  is_hold: Flag;
  published: Flag;
  phase: string | null;
  crew_id: number | null;
  estimate_service_id: number | null;
  display_qty: number | null;
  display_unit: string | null;
  completed_qty: number | null;
  completed_unit: string | null;
  estimated_days: number;
  scheduled_date: string | null;
  /** The last day covered (skipped days included); null while unscheduled. */
  end_date: string | null;
  /** JSON array of YYYY-MM-DD. */
  skipped_dates: string | null;
  start_time: string | null;
  end_time: string | null;
  scope: string | null;
  address: string | null;
  dispatch_notes: string | null;
  job_is_placeholder: Flag;
  dispatched_at: string | null;
  completed_at: string | null;
  cancelled_at: string | null;
  created_by_user_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface WorkOrderDayTable {
  firm_id: number;
  work_order_id: number;
  date: string;
  crew_id: number | null;
  /** 1 when the day blocks the crew day: a hold's, or published work's. */
  locks: Flag;
  is_hold: Flag;
}

export interface AllocationTable {
  id: Generated<number>;
  firm_id: number;
  work_order_id: number;
  job_id: number;
  estimate_service_id: number | null;
  planned_quantity: number | null;
  unit: string | null;
  created_at: string;
  updated_at: string;
}

export interface ScheduleRequestTable {
  id: Generated<number>;
  firm_id: number;
  kind: 'date' | 'move' | 'skip';
  status: 'pending' | 'approved' | 'declined';
  job_id: number;
  work_order_id: number | null;
  estimate_service_id: number | null;
  requested_date: string | null;
  skip_date: string | null;
  note: string | null;
  requested_by_user_id: number | null;
  decided_by_user_id: number | null;
  decided_at: string | null;
  decision_note: string | null;
  created_at: string;
  updated_at: string;
}

export interface NotificationTable {
  id: Generated<number>;
  firm_id: number;
  user_id: number;
  kind: string;
  title: string;
  body: string;
  schedule_request_id: number | null;
  read_at: string | null;
  created_at: string;
}

export type DailyLogStatus = 'draft' | 'submitted' | 'office_approved' | 'payroll_approved';

export interface DailyLogTable {
  id: Generated<number>;
  firm_id: number;
  work_order_id: number;
  job_id: number;
  date: string;
  status: DailyLogStatus;
  notes: string | null;
  submitted_at: string | null;
  submitted_by_user_id: number | null;
  office_approved_at: string | null;
  office_approved_by_user_id: number | null;
  payroll_approved_at: string | null;
  payroll_approved_by_user_id: number | null;
  returned_at: string | null;
  return_note: string | null;
  created_at: string;
  updated_at: string;
}

export interface DailyReportTable {
  id: Generated<number>;
  firm_id: number;
  daily_log_id: number;
  job_id: number;
  work_order_id: number;
  estimate_service_id: number | null;
  date: string;
  submitted_by_user_id: number | null;
  weather: string | null;
  work_performed: string | null;
  delay_notes: string | null;
  safety_notes: string | null;
  material_notes: string | null;
  equipment_notes: string | null;
  completed_quantity: number | null;
  completed_unit: string | null;
  /** JSON object. */
  answers: string;
  last_emailed_at: string | null;
  last_emailed_to: string | null;
  created_at: string;
  updated_at: string;
}

export interface TimeEntryTable {
  id: Generated<number>;
  firm_id: number;
  user_id: number;
  /** null: shop time. */
  job_id: number | null;
  work_order_id: number | null;
  cost_code: string | null;
  clock_in: string;
  clock_out: string | null;
  pay_rate_cents: number | null;
  approved_at: string | null;
  approved_by_user_id: number | null;
  voided_at: string | null;
  voided_by_user_id: number | null;
  void_reason: string | null;
  created_by_user_id: number | null;
  created_at: string;
  updated_at: string;
}

export const COST_TYPES = ['labor', 'material', 'trucking', 'equipment', 'dump', 'subcontract', 'other'] as const;
export type CostType = (typeof COST_TYPES)[number];

export interface JobCostTable {
  id: Generated<number>;
  firm_id: number;
  job_id: number;
  cost_type: CostType;
  cost_code: string | null;
  amount_cents: number;
  date: string;
  description: string | null;
  quantity: number | null;
  unit: string | null;
  created_by_user_id: number | null;
  reviewed_at: string | null;
  reconciled_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface RebidCycleTable {
  id: Generated<number>;
  firm_id: number;
  service: string;
  every_years: number;
  created_at: string;
  updated_at: string;
}

export interface RebidHistoryTable {
  id: Generated<number>;
  firm_id: number;
  location_id: number;
  cycle_id: number;
  done_on: string;
  amount_cents: number | null;
  note: string | null;
  source: 'manual' | 'work_order';
  work_order_id: number | null;
  created_by_user_id: number | null;
  created_at: string;
}

export interface RebidStateTable {
  id: Generated<number>;
  firm_id: number;
  location_id: number;
  cycle_id: number;
  for_done_on: string;
  status: 'open' | 'snoozed' | 'not_doing';
  snooze_until: string | null;
  not_doing_reason: string | null;
  not_doing_note: string | null;
  rebid_job_id: number | null;
  updated_at: string;
}

/** The operations tables, composed into DB (db/tables.ts). */
export interface OperationsTables {
  crews: CrewTable;
  crew_members: CrewMemberTable;
  work_orders: WorkOrderTable;
  work_order_days: WorkOrderDayTable;
  allocations: AllocationTable;
  schedule_requests: ScheduleRequestTable;
  notifications: NotificationTable;
  daily_logs: DailyLogTable;
  daily_reports: DailyReportTable;
  time_entries: TimeEntryTable;
  job_costs: JobCostTable;
  rebid_cycles: RebidCycleTable;
  rebid_history: RebidHistoryTable;
  rebid_states: RebidStateTable;
}
