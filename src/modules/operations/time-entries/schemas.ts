// Time entries (docs/api-decisions.md, "Operations: time and job costs"): the crew app's clock in
// and out, the office's void, and the labor row every read of time answers with (GET
// /v1/time-entries, GET /v1/jobs/{id}/labor and the time_entries export).
import { type Static, Type } from '@sinclair/typebox';
import { Body, DateString, IdParam, ListOf, Nullable, One, PageQuery, RecordId } from '#platform/schemas.ts';

/** ISO 8601 in UTC with Z (the crew app's phone sends its instants so). */
const Instant = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,6})?)?Z$',
  description: 'ISO 8601 UTC with Z, e.g. 2026-03-02T13:00:00Z',
});
const CostCode = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const Hours = Nullable(Type.Number({ description: 'null while the worker is on the clock' }));

export const LaborRow = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  user: Type.Object({ id: Type.Integer(), name: Type.String() }),
  job_id: Nullable(Type.Integer({ description: 'null for shop time' })),
  work_order_id: Nullable(Type.Integer()),
  cost_code: Nullable(Type.String()),
  clock_in: Type.String(),
  clock_out: Nullable(Type.String({ description: 'null while on the clock' })),
  date: Type.String({ description: "the local date of clock_in in the workspace's time zone" }),
  regular_hours: Hours,
  overtime_hours: Hours,
  doubletime_hours: Hours,
  total_hours: Hours,
  pay_rate: Type.Optional(
    Nullable(Type.Number({ description: 'dollars per hour when the entry was made; only for users who may see pay' })),
  ),
  pay: Type.Optional(
    Nullable(Type.Number({ description: 'dollars, overtime 1.5x and doubletime 2x; only for users who may see pay' })),
  ),
  approved_at: Nullable(Type.String()),
  voided_at: Nullable(Type.String()),
  void_reason: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type LaborRowObject = Static<typeof LaborRow>;

export const CreateTimeEntryBody = Body(
  {
    work_order_id: RecordId({ description: 'the visit worked; fixes the job' }),
    job_id: RecordId({ description: 'job time without a work order; neither id is shop time' }),
    cost_code: CostCode,
    clock_in: Instant,
    clock_out: Instant,
    user_id: RecordId({ description: "the worker; another user than the key's needs an office user" }),
  },
  { required: ['clock_in'] },
);
export type CreateTimeEntryInput = Static<typeof CreateTimeEntryBody>;

export const ClockOutBody = Body({ clock_out: Instant });
export type ClockOutInput = Static<typeof ClockOutBody>;

export const VoidBody = Body({ reason: Type.String({ maxLength: 500 }) });
export type VoidInput = Static<typeof VoidBody>;

export const TimeEntryListQuery = Type.Object(
  {
    user_id: Type.Optional(RecordId()),
    job_id: Type.Optional(RecordId()),
    start_date: Type.Optional(DateString),
    end_date: Type.Optional(DateString),
    updated_after: Type.Optional(Type.String({ description: 'ISO 8601; oldest change first' })),
    ...PageQuery(200),
  },
  { additionalProperties: false },
);
export type TimeEntryListInput = Static<typeof TimeEntryListQuery>;

export const TimeEntryParams = IdParam();
export const OneLaborRow = One(LaborRow);
export const LaborList = ListOf(LaborRow);
export const JobLabor = Type.Object({ data: Type.Array(LaborRow) });
