// Work orders (document 3's work_orders row; document 2, Hold: "the work order object of the
// scheduling area" plus locked_days and job_is_placeholder; docs/api-decisions.md, "Operations:
// work orders"). Holds are work orders with is_hold true and share this object.
import { type Static, Type } from '@sinclair/typebox';
import {
  Body,
  DateString,
  IdParam,
  ListOf,
  Nullable,
  NullableText,
  One,
  PageQuery,
  RecordId,
  StringEnum,
} from '#platform/schemas.ts';

export const WORK_ORDER_STATUSES = ['unscheduled', 'scheduled', 'completed', 'cancelled'] as const;

export const LocalTime = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'local HH:MM' });
export const EstimatedDays = Type.Number({ minimum: 0.5, maximum: 365, description: 'working days, 0.5 to 365' });
const Title = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const Quantity = Type.Number({ minimum: 0, maximum: 1e12 });
const Unit = Type.String({ maxLength: 40 });
export const OverrideLock = Type.Boolean({
  description: "owners only: place the work even where a hold or locked work holds the crew's day",
});

export const WorkOrder = Type.Object({
  id: Type.Integer(),
  job_id: Type.Integer(),
  title: Type.String(),
  status: StringEnum(WORK_ORDER_STATUSES),
  phase: Nullable(Type.String()),
  crew_id: Nullable(Type.Integer()),
  display_qty: Nullable(Type.Number()),
  display_unit: Nullable(Type.String()),
  completed_qty: Nullable(Type.Number()),
  completed_unit: Nullable(Type.String()),
  estimated_days: Type.Number(),
  scheduled_date: Nullable(Type.String({ description: 'YYYY-MM-DD' })),
  end_date: Nullable(Type.String({ description: 'the last day the visit covers' })),
  start_time: Nullable(Type.String()),
  end_time: Nullable(Type.String({ description: 'before start_time: the shift runs past midnight' })),
  is_hold: Type.Boolean(),
  published: Type.Boolean({ description: 'crews see it; a draft until the schedule is published' }),
  locked_days: Type.Array(Type.String(), { description: 'crew days this blocks (holds and published work)' }),
  skipped_dates: Type.Array(Type.String()),
  estimate_service_id: Nullable(Type.Integer()),
  scope: Nullable(Type.String()),
  address: Nullable(Type.String()),
  dispatch_notes: Nullable(Type.String()),
  job_is_placeholder: Type.Boolean(),
  dispatched_at: Nullable(Type.String()),
  completed_at: Nullable(Type.String()),
  cancelled_at: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type WorkOrderObject = Static<typeof WorkOrder>;

export const CreateWorkOrderBody = Body(
  {
    job_id: RecordId(),
    title: Title,
    crew_id: Nullable(RecordId()),
    scheduled_date: Nullable(DateString),
    estimated_days: EstimatedDays,
    start_time: Nullable(LocalTime),
    end_time: Nullable(LocalTime),
    estimate_service_id: Nullable(RecordId({ description: "a line of the job's estimates; makes its allocation" })),
    phase: NullableText(100),
    display_qty: Nullable(Quantity),
    display_unit: Nullable(Unit),
    dispatch_notes: NullableText(5000),
    address: NullableText(500),
    override_lock: OverrideLock,
  },
  { required: ['job_id', 'title'] },
);
export type CreateWorkOrderInput = Static<typeof CreateWorkOrderBody>;

export const UpdateWorkOrderBody = Body({
  title: Title,
  crew_id: Nullable(RecordId()),
  scheduled_date: Nullable(DateString),
  estimated_days: EstimatedDays,
  start_time: Nullable(LocalTime),
  end_time: Nullable(LocalTime),
  estimate_service_id: Nullable(RecordId()),
  phase: NullableText(100),
  display_qty: Nullable(Quantity),
  display_unit: Nullable(Unit),
  dispatch_notes: NullableText(5000),
  address: NullableText(500),
  override_lock: OverrideLock,
});
export type UpdateWorkOrderInput = Static<typeof UpdateWorkOrderBody>;

export const CompleteBody = Body({
  completed_qty: Quantity,
  completed_unit: Unit,
});
export type CompleteInput = Static<typeof CompleteBody>;

export const PublishBody = Body(
  { start_date: DateString, end_date: DateString },
  { required: ['start_date', 'end_date'] },
);

export const PublishResult = Type.Object({
  data: Type.Object({
    start_date: Type.String(),
    end_date: Type.String(),
    published: Type.Integer({ description: 'drafts published' }),
    work_order_ids: Type.Array(Type.Integer()),
    held_back: Type.Array(Type.Object({ work_order_id: Type.Integer(), locks: Type.Array(Type.Unknown()) }), {
      description: 'drafts on a held crew day: they stay drafts until the hold moves',
    }),
  }),
});

export const WorkOrderListQuery = Type.Object(
  {
    include_holds: Type.Optional(Type.Boolean({ default: false })),
    start_date: Type.Optional(DateString),
    end_date: Type.Optional(DateString),
    crew_id: Type.Optional(RecordId()),
    job_id: Type.Optional(RecordId()),
    status: Type.Optional(StringEnum(WORK_ORDER_STATUSES)),
    updated_after: Type.Optional(Type.String({ description: 'ISO 8601; oldest updated first' })),
    ...PageQuery(200),
  },
  { additionalProperties: false },
);

export const WorkOrderParams = IdParam();
export const WorkOrderList = ListOf(WorkOrder);
export const OneWorkOrder = One(WorkOrder);
