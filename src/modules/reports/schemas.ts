// Owner reports (document 2, "Report" and "Owner reports"; docs/reports.md): the list of reports a
// key can run, and the two reports built so far, labor hours and month-end job cost.
import { type Static, Type } from '@sinclair/typebox';
import { COST_TYPES } from '#db/tables/operations.ts';
import { DateString, Nullable, StringEnum } from '#platform/schemas.ts';

/** The dates a report runs over (a year 0 or 10000 has no instant our timestamps can hold). */
export const EARLIEST_DATE = '1900-01-01';
export const LATEST_DATE = '9998-12-31';

export const DATE_BASES = ['bid', 'decided', 'created', 'all'] as const;

export const ReportEntry = Type.Object({
  key: Type.String(),
  title: Type.String(),
  section: Type.String(),
  description: Type.String(),
  date_basis: StringEnum(DATE_BASES),
});
export type ReportEntryObject = Static<typeof ReportEntry>;
export const ReportCatalogue = Type.Object({ data: Type.Array(ReportEntry) });

// ---- labor hours ---------------------------------------------------------------------------

/** At most this many days from start to end, both included (document 1, Limits). */
export const LABOR_RANGE_DAYS = 93;

export const LaborHoursQuery = Type.Object(
  {
    start: Type.Optional(DateString),
    end: Type.Optional(DateString),
    approved_only: Type.Optional(
      Type.Boolean({ default: true, description: 'only time approved for payroll (default true)' }),
    ),
  },
  { additionalProperties: false },
);
export type LaborHoursInput = Static<typeof LaborHoursQuery>;

const Hours = (description?: string) => Type.Number(description ? { description } : {});
const Pay = Type.Optional(
  Nullable(
    Type.Number({
      description:
        'dollars at each entry’s snapshot rate, overtime 1.5x and doubletime 2x; only when includes_pay; null when an entry has no rate',
    }),
  ),
);

export const LaborLine = Type.Object({
  date: Type.String({ description: "YYYY-MM-DD: the local date of clock_in in the workspace's time zone" }),
  job_id: Nullable(Type.Integer({ description: 'null for shop time' })),
  cost_code: Nullable(Type.String()),
  regular_hours: Hours(),
  overtime_hours: Hours(),
  doubletime_hours: Hours(),
  total_hours: Hours(),
  pay: Pay,
});
export type LaborLineObject = Static<typeof LaborLine>;

const HourTotals = {
  regular_hours: Hours(),
  overtime_hours: Hours(),
  doubletime_hours: Hours(),
  total_hours: Hours(),
  pay: Pay,
};

export const LaborPerson = Type.Object({
  user_id: Type.Integer(),
  name: Type.String(),
  ...HourTotals,
  lines: Type.Array(LaborLine),
});
export type LaborPersonObject = Static<typeof LaborPerson>;

export const LaborHoursReport = Type.Object({
  data: Type.Object({
    start: DateString,
    end: DateString,
    approved_only: Type.Boolean(),
    includes_pay: Type.Boolean({ description: 'pay per line only when the user may see pay (can_see_pay)' }),
    people: Type.Array(LaborPerson),
    totals: Type.Object({ people: Type.Integer(), ...HourTotals }),
  }),
});
export type LaborHoursObject = Static<typeof LaborHoursReport>['data'];

// ---- month-end job cost --------------------------------------------------------------------

export const MonthEndQuery = Type.Object(
  {
    month: Type.Optional(
      Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM; default last month' }),
    ),
  },
  { additionalProperties: false },
);
export type MonthEndInput = Static<typeof MonthEndQuery>;

/** The report's direct-cost columns, in document 2's order. */
export const MONTH_END_COST_TYPES = COST_TYPES;

const Money = (description?: string) => Type.Number({ description: description ?? 'dollars' });
const Pct = Nullable(Type.Number({ description: 'a fraction (0.25 is 25%); null when revenue is 0' }));

export const MonthEndJob = Type.Object({
  job_id: Type.Integer(),
  job_number: Type.Integer(),
  job_name: Type.String(),
  customer: Nullable(Type.String()),
  customer_number: Nullable(Type.Integer({ description: 'the customer (client account) id' })),
  contract: Nullable(Money('dollars: the latest accepted proposal plus approved change orders; null without one')),
  revenue: Money(),
  direct_costs: Type.Object(
    Object.fromEntries(MONTH_END_COST_TYPES.map((k) => [k, Money()])) as Record<
      (typeof MONTH_END_COST_TYPES)[number],
      ReturnType<typeof Type.Number>
    >,
  ),
  direct_cost: Money(),
  gross_profit: Money(),
  gross_profit_pct: Pct,
  revenue_to_date: Money(),
  cost_to_date: Money(),
  gross_profit_to_date: Money(),
  gross_profit_pct_to_date: Pct,
});
export type MonthEndJobObject = Static<typeof MonthEndJob>;

export const MonthEndReport = Type.Object({
  data: Type.Object({
    month: Type.String(),
    start: DateString,
    end: DateString,
    cost_types: Type.Array(Type.Object({ key: StringEnum(MONTH_END_COST_TYPES), label: Type.String() })),
    jobs: Type.Array(MonthEndJob),
    totals: Type.Object({
      jobs: Type.Integer(),
      contract: Money(),
      revenue: Money(),
      direct_cost: Money(),
      gross_profit: Money(),
      gross_profit_pct: Pct,
    }),
    truncated: Type.Boolean({ description: 'more than 200 jobs qualified; the first 200 by job number are shown' }),
  }),
});
export type MonthEndObject = Static<typeof MonthEndReport>['data'];
