// Schedule requests (document 2: Schedule request resource and state table, Schedule requests
// endpoints) and the schedule queue (its shape: docs/api-decisions.md, "Operations: schedule requests").
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
import { WorkOrder } from '../work-orders/schemas.ts';

export const REQUEST_KINDS = ['date', 'move', 'skip'] as const;
export const REQUEST_STATUSES = ['pending', 'approved', 'declined'] as const;

const Person = Nullable(Type.Object({ id: Type.Integer(), name: Type.String() }));

export const ScheduleRequest = Type.Object({
  id: Type.Integer(),
  kind: StringEnum(REQUEST_KINDS),
  status: StringEnum(REQUEST_STATUSES),
  summary: Type.String({ description: 'one plain line' }),
  job_id: Type.Integer(),
  job: Type.Object({ id: Type.Integer(), name: Type.String() }),
  requested_date: Nullable(Type.String()),
  skip_date: Nullable(Type.String()),
  estimate_service_id: Nullable(Type.Integer()),
  service_name: Nullable(Type.String()),
  work_order_id: Nullable(Type.Integer()),
  work_order_title: Nullable(Type.String()),
  note: Nullable(Type.String()),
  requested_by: Person,
  decided_by: Person,
  decided_at: Nullable(Type.String()),
  decision_note: Nullable(Type.String()),
  created_at: Type.String(),
});
export type ScheduleRequestObject = Static<typeof ScheduleRequest>;

export const CreateRequestBody = Body(
  {
    kind: StringEnum(REQUEST_KINDS),
    job_id: RecordId({ description: 'date requests' }),
    requested_date: DateString,
    estimate_service_id: RecordId({ description: 'date requests: one unscheduled line from the schedule queue' }),
    work_order_id: RecordId({ description: 'move and skip requests' }),
    skip_date: DateString,
    note: NullableText(2000),
  },
  { required: ['kind'] },
);
export type CreateRequestInput = Static<typeof CreateRequestBody>;

export const DecisionBody = Body({ note: NullableText(2000) });

export const RequestListQuery = Type.Object(
  {
    status: Type.Optional(StringEnum(REQUEST_STATUSES)),
    kind: Type.Optional(StringEnum(REQUEST_KINDS)),
    job_id: Type.Optional(RecordId()),
    work_order_id: Type.Optional(RecordId()),
    ...PageQuery(200),
  },
  { additionalProperties: false },
);

export const QueueLine = Type.Object({
  job_id: Type.Integer(),
  job_name: Type.String(),
  estimate_id: Type.Integer(),
  estimate_service_id: Type.Integer(),
  service_name: Type.String(),
  service_type: Nullable(Type.String()),
  quantity: Type.Number(),
  unit: Type.String(),
});
export const QueueQuery = Type.Object(
  { job_id: Type.Optional(RecordId()), ...PageQuery(200) },
  { additionalProperties: false },
);

export const RequestParams = IdParam();
export const RequestList = ListOf(ScheduleRequest);
export const OneRequest = One(ScheduleRequest);
export const ApprovedRequest = One(ScheduleRequest, { work_order: WorkOrder });
export const Queue = ListOf(QueueLine);
