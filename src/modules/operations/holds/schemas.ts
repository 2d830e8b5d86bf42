// Holds (document 2: Hold, Holds endpoints, Hold state table): a work order with is_hold true that
// reserves crew days; it never publishes, is never dispatched and never tells the customer.
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
} from '#platform/schemas.ts';
import { EstimatedDays, LocalTime, OverrideLock, WorkOrder } from '../work-orders/schemas.ts';

const Scope = Type.String({ maxLength: 5000, description: 'its first line becomes the title' });

export const CreateHoldBody = Body(
  {
    scheduled_date: DateString,
    job_id: RecordId({ description: 'the job held for; or send name' }),
    name: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: '\\S',
      description: 'makes a lightweight job in the first pipeline stage, kept out of the schedule queue',
    }),
    scope: Scope,
    address: NullableText(500),
    estimated_days: EstimatedDays,
    start_time: Nullable(LocalTime),
    end_time: Nullable(LocalTime),
    crew_id: Nullable(RecordId()),
    override_lock: OverrideLock,
  },
  { required: ['scheduled_date'] },
);
export type CreateHoldInput = Static<typeof CreateHoldBody>;

export const UpdateHoldBody = Body({
  title: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  scope: Nullable(Scope),
  address: NullableText(500),
  scheduled_date: DateString,
  estimated_days: EstimatedDays,
  start_time: Nullable(LocalTime),
  end_time: Nullable(LocalTime),
  crew_id: Nullable(RecordId()),
  override_lock: OverrideLock,
});
export type UpdateHoldInput = Static<typeof UpdateHoldBody>;

export const LinkHoldBody = Body({ job_id: RecordId() }, { required: ['job_id'] });

export const HoldListQuery = Type.Object(
  {
    start_date: Type.Optional(DateString),
    end_date: Type.Optional(DateString),
    crew_id: Type.Optional(RecordId()),
    job_id: Type.Optional(RecordId()),
    ...PageQuery(200),
  },
  { additionalProperties: false },
);

export const HoldParams = IdParam();
export const HoldList = ListOf(WorkOrder);
export const OneHold = One(WorkOrder);
export const CreatedHold = One(WorkOrder, {
  job_created: Type.Boolean({ description: 'a placeholder job was made from name' }),
  same_day_work_order_ids: Type.Array(Type.Integer(), {
    description: "a heads-up: other work on the hold's crew days (drafts stay drafts while the hold is there)",
  }),
});
export const LinkedHold = One(WorkOrder, {
  merged_placeholder_job: Nullable(
    Type.Object({ id: Type.Integer(), name: Type.String() }, { description: 'the placeholder job merged away' }),
  ),
});
