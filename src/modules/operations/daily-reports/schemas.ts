// Daily reports (document 2, Daily log and daily report): what a crew files from the crew app for a
// work order's day, read and emailed by the office.
import { type Static, Type } from '@sinclair/typebox';
import { Body, DateString, IdParam, ListOf, Nullable, One, PageQuery, RecordId } from '#platform/schemas.ts';

const Person = Type.Object({ id: Type.Integer(), name: Type.String() });

export const DailyReport = Type.Object({
  id: Type.Integer(),
  job_id: Type.Integer(),
  work_order_id: Type.Integer(),
  estimate_service_id: Nullable(Type.Integer()),
  date: Type.String({ description: 'YYYY-MM-DD' }),
  submitted_by: Nullable(Person),
  weather: Nullable(Type.String()),
  work_performed: Nullable(Type.String()),
  delay_notes: Nullable(Type.String()),
  safety_notes: Nullable(Type.String()),
  material_notes: Nullable(Type.String()),
  equipment_notes: Nullable(Type.String()),
  completed_quantity: Nullable(Type.Number()),
  completed_unit: Nullable(Type.String()),
  answers: Type.Record(Type.String(), Type.Unknown(), {
    description: "The workspace's own questions and their answers",
  }),
  photo_count: Type.Integer({ description: 'Photos uploaded with daily_report_id naming this report' }),
  created_at: Type.String(),
});
export type DailyReportObject = Static<typeof DailyReport>;

export const DailyReportListQuery = Type.Object(
  {
    job_id: Type.Optional(RecordId()),
    work_order_id: Type.Optional(RecordId()),
    start_date: Type.Optional(DateString),
    end_date: Type.Optional(DateString),
    ...PageQuery(200),
  },
  { additionalProperties: false },
);
export type DailyReportListInput = Static<typeof DailyReportListQuery>;

export const SendDailyReportBody = Body(
  { to_email: Type.String({ minLength: 3, maxLength: 254, description: 'One email address' }) },
  { required: ['to_email'] },
);

const Note = (description?: string) =>
  Nullable(Type.String({ maxLength: 5000, ...(description ? { description } : {}) }));

/** POST /v1/crew/daily-reports: the crew app's report of a work order's day. */
export const FileDailyReportBody = Body(
  {
    work_order_id: RecordId(),
    date: DateString,
    user_id: RecordId({
      description: 'Office users only: the crew member the report is filed for (default the key creator)',
    }),
    estimate_service_id: Nullable(RecordId({ description: "A line of the job's estimates" })),
    weather: Note(),
    work_performed: Note(),
    delay_notes: Note(),
    safety_notes: Note(),
    material_notes: Note(),
    equipment_notes: Note(),
    completed_quantity: Nullable(Type.Number({ minimum: 0, maximum: 1e12 })),
    completed_unit: Nullable(Type.String({ maxLength: 40 })),
    answers: Type.Record(Type.String({ maxLength: 200 }), Type.Unknown(), {
      maxProperties: 200,
      description: "Answers to the workspace's own questions, by question",
    }),
  },
  { required: ['work_order_id', 'date'] },
);
export type FileDailyReportInput = Static<typeof FileDailyReportBody>;

export const DailyReportParams = IdParam();
export const DailyReportList = ListOf(DailyReport);
export const OneDailyReport = One(DailyReport);
export const SentDailyReport = One(DailyReport, {
  emailed_to: Type.String({ description: 'The address the mail server took the report for' }),
});
