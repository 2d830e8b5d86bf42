// GET /v1/reports/{key}'s parameters (document 2, Owner reports; docs/reports.md, "Running a
// report"): the schema every report shares, and what a run reads from it. A report names the
// parameters it uses; one it does not use is refused (400 naming it) rather than ignored, so a
// filter that looks applied always is.
import { type Static, Type } from '@sinclair/typebox';
import type { ServiceContext } from '#platform/context.ts';
import { badRequest } from '#platform/errors.ts';
import { DateString, StringEnum } from '#platform/schemas.ts';
import { todayIn } from '#platform/time-zone.ts';
import { EARLIEST_DATE, LATEST_DATE } from './schemas.ts';

export const ROWS_LIMIT_DEFAULT = 200;
export const ROWS_LIMIT_MAX = 2000;
export const NET_DAYS = [0, 15, 30, 45, 60, 90] as const;

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
    division_ids: Type.Optional(Ids),
    statuses: Type.Optional(Words),
    work_types: Type.Optional(Words),
    outcomes: Type.Optional(Words),
    group_by: Type.Optional(Words),
    period: Type.Optional(StringEnum(['week', 'month'] as const)),
    weeks: Type.Optional(Type.Integer({ description: '4, 8, 12 or 26 (cash forecast)' })),
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

/** What a run reads: the range, the filters as lists, and the table options. */
export interface RunParams {
  start: string;
  end: string;
  customerIds: number[] | null;
  salespersonIds: number[] | null;
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

/**
 * The run's parameters for a report that uses `uses`: a parameter it does not use is 400; start and
 * end default to 1 January of this year and today in the workspace's time zone.
 */
export function runParams(
  ctx: ServiceContext,
  key: string,
  uses: readonly ReportParam[],
  q: ReportQueryInput,
): RunParams {
  const unused = (Object.keys(q) as (keyof ReportQueryInput)[]).filter(
    (p) =>
      q[p] !== undefined &&
      !['start', 'end', 'q', 'columns', 'rows_limit'].includes(p) &&
      !uses.includes(p as ReportParam),
  );
  if (unused.length > 0)
    throw badRequest(`The ${key} report does not use ${unused.join(', ')}`, {
      code: 'invalid_request',
      field: unused[0],
      message: `Leave out ${unused.join(', ')}; the ${key} report takes start, end, q, columns, rows_limit${uses.map((u) => `, ${u}`).join('')}`,
    });
  const today = todayIn(ctx.auth.firm.timezone);
  const end = inReach('end', q.end ?? today);
  const start = inReach('start', q.start ?? `${end.slice(0, 4)}-01-01`);
  if (end < start)
    throw badRequest('end must not be before start', { code: 'invalid_request', field: 'end', start, end });
  const netDays = q.net_days ?? 30;
  if (!(NET_DAYS as readonly number[]).includes(netDays))
    throw badRequest(`net_days must be one of ${NET_DAYS.join(', ')}`, { code: 'invalid_request', field: 'net_days' });
  const words = (text: string | undefined) =>
    text === undefined
      ? null
      : text
          .split(',')
          .map((w) => w.trim())
          .filter((w) => w !== '');
  return {
    start,
    end,
    customerIds: idsOf(q.customer_ids),
    salespersonIds: idsOf(q.salesperson_ids),
    netDays,
    q: q.q === undefined || q.q.trim() === '' ? null : q.q.trim().toLowerCase(),
    columns: words(q.columns),
    rowsLimit: q.rows_limit ?? ROWS_LIMIT_DEFAULT,
  };
}
