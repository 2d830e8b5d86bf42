// GET /v1/reports/{key}'s parameters (document 2, Owner reports; docs/reports.md, "Running a
// report"): the schema every report shares, and what a run reads from it. A report names the
// parameters it uses; one it does not use is refused (400 naming it) rather than ignored, so a
// filter that looks applied always is.
import { type Static, Type } from '@sinclair/typebox';
import type { ServiceContext } from '#platform/context.ts';
import { badRequest } from '#platform/errors.ts';
import { DateString, StringEnum } from '#platform/schemas.ts';
import { addDays } from '#platform/time.ts';
import { todayIn } from '#platform/time-zone.ts';
import { divisionsOf, jobTypesOf } from '#platform/workspace.ts';
import { weekStartOf } from '#engines/payroll/index.ts';
import { listStages } from '#crm/index.ts';
import { EARLIEST_DATE, LATEST_DATE } from './schemas.ts';

export const ROWS_LIMIT_DEFAULT = 200;
export const ROWS_LIMIT_MAX = 2000;
export const NET_DAYS = [0, 15, 30, 45, 60, 90] as const;
export const FORECAST_WEEKS = [4, 8, 12, 26] as const;
export const OUTCOMES = ['won', 'lost', 'open', 'excluded'] as const;
export type Outcome = (typeof OUTCOMES)[number];
export const GROUP_KEYS = [
  'work_type',
  'salesperson',
  'estimator',
  'customer',
  'division',
  'status',
  'outcome',
  'month',
  'quarter',
  'year',
  'customer_type',
  'property_type',
  'source',
  'zip',
  'city',
] as const;
export type GroupKey = (typeof GROUP_KEYS)[number];
export type DateBasis = 'bid' | 'decided' | 'created';

const Ids = Type.String({ pattern: '^\\d+(,\\d+)*$', description: 'comma-separated ids' });
const Words = Type.String({ minLength: 1, maxLength: 2000, description: 'comma-separated values' });

export const ReportParams = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 64, description: 'a report key from GET /v1/reports' }),
});

export const ReportQuery = Type.Object(
  {
    start: Type.Optional(DateString),
    end: Type.Optional(DateString),
    date_basis: Type.Optional(StringEnum(['bid', 'decided', 'created'] as const)),
    salesperson_ids: Type.Optional(Ids),
    estimator_ids: Type.Optional(Ids),
    customer_ids: Type.Optional(Ids),
    division_ids: Type.Optional(
      Type.String({
        pattern: '^[^,]+(,[^,]+)*$',
        maxLength: 2000,
        description: "comma-separated division keys (the workspace's divisions are keyed, not numbered)",
      }),
    ),
    statuses: Type.Optional(Words),
    work_types: Type.Optional(Words),
    outcomes: Type.Optional(Words),
    group_by: Type.Optional(Words),
    period: Type.Optional(StringEnum(['week', 'month'] as const)),
    weeks: Type.Optional(Type.Integer({ description: '4, 8, 12 or 26; default 12 (cash forecast)' })),
    net_days: Type.Optional(Type.Integer({ description: '0, 15, 30, 45, 60 or 90; default 30 (receivables)' })),
    q: Type.Optional(Type.String({ maxLength: 200, description: 'rows whose text holds this, any case' })),
    view: Type.Optional(Type.String({ maxLength: 40 })),
    columns: Type.Optional(Words),
    rows_limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ROWS_LIMIT_MAX, default: ROWS_LIMIT_DEFAULT })),
  },
  { additionalProperties: false },
);
export type ReportQueryInput = Static<typeof ReportQuery>;

/** The download's parameters: the run's, and the table to answer alone. */
export const ReportFileQuery = Type.Object(
  {
    ...ReportQuery.properties,
    table: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'one table as CSV; without it, every table (a ZIP when several)',
      }),
    ),
  },
  { additionalProperties: false },
);

/** The parameters a report may use beyond those every report takes (start, end, q, columns, rows_limit). */
export type ReportParam = Exclude<keyof ReportQueryInput, 'start' | 'end' | 'q' | 'columns' | 'rows_limit'>;

/**
 * The dates a report covers: `range` is start to end as given; `week` is the week holding `end`
 * (the workspace's week_start), `period` the week or month holding it by `period` (document 2:
 * "kpi, weekly-sales, week-glance cover the whole week or month containing end"). A report that
 * covers a period takes no `start`.
 */
export type ReportSpan = 'range' | 'week' | 'period';

/** What a run reads: the range, the filters as lists, and the table options. */
export interface RunParams {
  start: string;
  end: string;
  /** The date basis a job report filters by: the request's, else the report's own. */
  dateBasis: DateBasis | null;
  customerIds: number[] | null;
  salespersonIds: number[] | null;
  estimatorIds: number[] | null;
  divisionKeys: string[] | null;
  statuses: string[] | null;
  workTypes: string[] | null;
  outcomes: Outcome[] | null;
  groupBy: GroupKey[];
  period: 'week' | 'month';
  weeks: number;
  view: string | null;
  netDays: number;
  q: string | null;
  columns: string[] | null;
  rowsLimit: number;
}

const idsOf = (text: string | undefined) => (text === undefined ? null : [...new Set(text.split(',').map(Number))]);

function inReach(field: 'start' | 'end', date: string): string {
  if (date < EARLIEST_DATE || date > LATEST_DATE)
    throw badRequest(`${field} must be between ${EARLIEST_DATE} and ${LATEST_DATE}`, {
      code: 'invalid_request',
      field,
    });
  return date;
}

/** What runParams needs to know of the report. */
export interface ReportShape {
  key: string;
  uses: readonly ReportParam[];
  /** The report's own date basis (the list's), used when the request names none. */
  date_basis: DateBasis | 'all';
  span?: ReportSpan;
  /** The views it offers, the first the default (completed-work). */
  views?: readonly string[];
}

const words = (text: string | undefined) =>
  text === undefined
    ? null
    : [
        ...new Set(
          text
            .split(',')
            .map((w) => w.trim())
            .filter((w) => w !== ''),
        ),
      ];

function oneOf<T extends string | number>(field: string, value: T, allowed: readonly T[]): T {
  if (!allowed.includes(value))
    throw badRequest(`${field} must be one of ${allowed.join(', ')}`, { code: 'invalid_request', field });
  return value;
}

/** Values checked against what the workspace has; any other is 400 naming it and the choices. */
function known(field: string, given: string[] | null, allowed: readonly string[], caseless = false): string[] | null {
  if (given === null) return null;
  const byKey = new Map(allowed.map((a) => [caseless ? a.toLowerCase() : a, a]));
  const unknown = given.filter((g) => !byKey.has(caseless ? g.toLowerCase() : g));
  if (unknown.length > 0)
    throw badRequest(`Unknown ${field}: ${unknown.join(', ')}`, {
      code: 'invalid_request',
      field,
      message: `${field} are ${allowed.join(', ') || '(none in this workspace)'}`,
    });
  return given.map((g) => byKey.get(caseless ? g.toLowerCase() : g)!);
}

/** The first and last day of the week or month holding `date`. */
export function periodOf(date: string, period: 'week' | 'month', weekStart: 'monday' | 'sunday') {
  if (period === 'month') {
    const first = `${date.slice(0, 7)}-01`;
    return { start: first, end: addDays(addMonths(first, 1), -1) };
  }
  const start = weekStartOf(date, weekStart);
  return { start, end: addDays(start, 6) };
}

/** The first day of the month `n` months after the month starting `first`. */
export function addMonths(first: string, n: number): string {
  const months = Number(first.slice(0, 4)) * 12 + Number(first.slice(5, 7)) - 1 + n;
  return `${String(Math.floor(months / 12)).padStart(4, '0')}-${String((months % 12) + 1).padStart(2, '0')}-01`;
}

/**
 * The run's parameters for `report`: a parameter it does not use is 400; start and end default to
 * 1 January of this year and today in the workspace's time zone (a report covering a period takes
 * the week or month holding `end`); filters naming what the workspace does not have are 400.
 */
export async function runParams(ctx: ServiceContext, report: ReportShape, q: ReportQueryInput): Promise<RunParams> {
  const { key, uses } = report;
  const span = report.span ?? 'range';
  const shared =
    span === 'range' ? ['start', 'end', 'q', 'columns', 'rows_limit'] : ['end', 'q', 'columns', 'rows_limit'];
  const unused = (Object.keys(q) as (keyof ReportQueryInput)[]).filter(
    (p) => q[p] !== undefined && !shared.includes(p) && !uses.includes(p as ReportParam),
  );
  if (unused.length > 0)
    throw badRequest(`The ${key} report does not use ${unused.join(', ')}`, {
      code: 'invalid_request',
      field: unused[0],
      message:
        span === 'range'
          ? `Leave out ${unused.join(', ')}; the ${key} report takes start, end, q, columns, rows_limit${uses.map((u) => `, ${u}`).join('')}`
          : `Leave out ${unused.join(', ')}; the ${key} report covers the whole ${span === 'week' ? 'week' : 'week or month (period)'} holding end and takes end, q, columns, rows_limit${uses.map((u) => `, ${u}`).join('')}`,
    });
  const today = todayIn(ctx.auth.firm.timezone);
  const period = q.period ?? (span === 'week' ? 'week' : 'month');
  let end = inReach('end', q.end ?? today);
  let start: string;
  if (span === 'range') start = inReach('start', q.start ?? `${end.slice(0, 4)}-01-01`);
  else ({ start, end } = periodOf(end, period, ctx.auth.settings.week_start));
  if (end < start)
    throw badRequest('end must not be before start', { code: 'invalid_request', field: 'end', start, end });
  const netDays = oneOf('net_days', q.net_days ?? 30, NET_DAYS);
  const weeks = oneOf('weeks', q.weeks ?? 12, FORECAST_WEEKS);
  const groupBy = words(q.group_by) ?? [];
  known('group_by', groupBy, GROUP_KEYS);
  if (groupBy.length > 3)
    throw badRequest('group_by takes at most 3 keys', { code: 'invalid_request', field: 'group_by' });
  const views = report.views ?? [];
  const view = q.view === undefined ? (views[0] ?? null) : oneOf('view', q.view, views);
  const statuses = words(q.statuses);
  const stages = statuses === null ? [] : await listStages(ctx.database.db, ctx.auth.firm.id);
  return {
    start,
    end,
    dateBasis: q.date_basis ?? (report.date_basis === 'all' ? null : report.date_basis),
    customerIds: idsOf(q.customer_ids),
    salespersonIds: idsOf(q.salesperson_ids),
    estimatorIds: idsOf(q.estimator_ids),
    divisionKeys: known(
      'division_ids',
      words(q.division_ids),
      divisionsOf(ctx.auth.firm).map((d) => d.key),
    ),
    statuses: known(
      'statuses',
      statuses,
      stages.map((s) => s.key),
    ),
    workTypes: known('work_types', words(q.work_types), jobTypesOf(ctx.auth.firm), true),
    outcomes: known('outcomes', words(q.outcomes), OUTCOMES) as Outcome[] | null,
    groupBy: groupBy as GroupKey[],
    period,
    weeks,
    view,
    netDays,
    q: q.q === undefined || q.q.trim() === '' ? null : q.q.trim().toLowerCase(),
    columns: words(q.columns),
    rowsLimit: q.rows_limit ?? ROWS_LIMIT_DEFAULT,
  };
}
