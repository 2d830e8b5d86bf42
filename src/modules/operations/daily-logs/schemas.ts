// Daily logs (document 2, Daily log and daily report; the Daily log state table): one per work
// order and day, carrying the office's notes and the sign-off of the day.
import { type Static, Type } from '@sinclair/typebox';
import {
  Body,
  DateString,
  IdParam,
  ListOf,
  Nullable,
  One,
  PageQuery,
  RecordId,
  StringEnum,
} from '#platform/schemas.ts';
import { DailyReport } from '../daily-reports/schemas.ts';

export const DAILY_LOG_STATUSES = ['draft', 'submitted', 'office_approved', 'payroll_approved'] as const;

const Person = Nullable(Type.Object({ id: Type.Integer(), name: Type.String() }));
const At = Nullable(Type.String({ description: 'UTC, Z, to the second' }));

const logFields = {
  id: Type.Integer(),
  work_order_id: Type.Integer(),
  job_id: Type.Integer(),
  date: Type.String({ description: 'YYYY-MM-DD' }),
  status: StringEnum(DAILY_LOG_STATUSES),
  notes: Nullable(Type.String()),
  submitted_at: At,
  submitted_by: Person,
  office_approved_at: At,
  office_approved_by: Person,
  payroll_approved_at: At,
  payroll_approved_by: Person,
  returned_at: At,
  return_note: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
};

/** A log in lists (no reports). */
export const DailyLog = Type.Object(logFields);
export type DailyLogObject = Static<typeof DailyLog>;

/** A log read alone, or answered by a write: with its reports. */
export const DailyLogWithReports = Type.Object({
  ...logFields,
  daily_reports: Type.Array(DailyReport, { description: 'Single reads only' }),
});
export type DailyLogWithReportsObject = Static<typeof DailyLogWithReports>;

export const DailyLogListQuery = Type.Object(
  {
    start_date: Type.Optional(DateString),
    end_date: Type.Optional(DateString),
    job_id: Type.Optional(RecordId()),
    work_order_id: Type.Optional(RecordId()),
    status: Type.Optional(StringEnum(DAILY_LOG_STATUSES)),
    updated_after: Type.Optional(Type.String({ maxLength: 64, description: 'ISO 8601; oldest updated first' })),
    ...PageQuery(200),
  },
  { additionalProperties: false },
);
export type DailyLogListInput = Static<typeof DailyLogListQuery>;

export const SaveDailyLogBody = Body(
  {
    work_order_id: RecordId(),
    date: DateString,
    notes: Type.String({ maxLength: 10_000, description: "Replaces the day's notes" }),
  },
  { required: ['work_order_id', 'date', 'notes'] },
);
export type SaveDailyLogInput = Static<typeof SaveDailyLogBody>;

export const SendBackBody = Body(
  { note: Type.String({ minLength: 1, maxLength: 5000, pattern: '\\S', description: 'Why the day goes back' }) },
  { required: ['note'] },
);

/** POST /v1/crew/daily-logs/submit. */
export const SubmitDailyLogBody = Body(
  {
    work_order_id: RecordId(),
    date: DateString,
    user_id: RecordId({ description: 'Office users only: the crew member who submits (default the key creator)' }),
  },
  { required: ['work_order_id', 'date'] },
);
export type SubmitDailyLogInput = Static<typeof SubmitDailyLogBody>;

export const DailyLogParams = IdParam();
export const DailyLogList = ListOf(DailyLog);
export const OneDailyLog = One(DailyLogWithReports);
