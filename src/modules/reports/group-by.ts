// group_by (document 2, Owner reports: "up to 3 of work_type, salesperson, estimator, customer,
// division, status, outcome, month, quarter, year, customer_type, property_type, source, zip,
// city"; docs/reports.md, "Grouping"): the SQL expression each key groups the scoped jobs by, and
// the one GROUP BY a grouped table runs. Every job lands in exactly one group of each key (a job
// of several job types groups by its first; a blank value groups as "(none)"), so a grouped
// table's rows always add up to the ungrouped total.
//
// month, quarter and year are local to the workspace's time zone. SQLite cannot convert a zone, so
// the edges are worked out here (each month's first instant in the zone) and the database sorts
// the jobs between them with one CASE: exact across daylight-saving changes on both engines.
import { type RawBuilder, sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { divisionsOf } from '#platform/workspace.ts';
import { storedToLocal } from '#platform/time-zone.ts';
import { bucketOf } from './bucket.ts';
import { CUSTOMER_NAME, type JobScope, startOfDay } from './job-scope.ts';
import { addMonths, type GroupKey } from './run-query.ts';
import type { Column } from './run-result.ts';

export interface GroupColumn {
  key: GroupKey;
  label: string;
  expr: RawBuilder<string>;
}

const LABELS: Record<GroupKey, string> = {
  work_type: 'Work type',
  salesperson: 'Salesperson',
  estimator: 'Estimator',
  customer: 'Customer',
  division: 'Division',
  status: 'Status',
  outcome: 'Outcome',
  month: 'Month',
  quarter: 'Quarter',
  year: 'Year',
  customer_type: 'Customer type',
  property_type: 'Property type',
  source: 'Source',
  zip: 'ZIP',
  city: 'City',
};

const orNone = (expr: RawBuilder<unknown>, none: string) => sql<string>`coalesce(nullif(${expr}, ''), ${none})`;

/** The months, quarters or years (labels) the scope's basis spans, with the instant each starts. */
async function timeBuckets(ctx: ServiceContext, scope: JobScope, key: 'month' | 'quarter' | 'year') {
  const span = await scope
    .jobs()
    .select([sql<string>`min(${scope.basis})`.as('first'), sql<string>`max(${scope.basis})`.as('last')])
    .executeTakeFirst();
  if (!span?.first) return [];
  const tz = ctx.auth.firm.timezone;
  const step = key === 'month' ? 1 : key === 'quarter' ? 3 : 12;
  const bucketStart = (date: string) => {
    const m = Number(date.slice(5, 7)) - 1;
    return `${date.slice(0, 4)}-${String(m - (m % step) + 1).padStart(2, '0')}-01`;
  };
  const label = (first: string) =>
    key === 'month'
      ? first.slice(0, 7)
      : key === 'quarter'
        ? `${first.slice(0, 4)} Q${(Number(first.slice(5, 7)) + 2) / 3}`
        : first.slice(0, 4);
  const last = bucketStart(storedToLocal(String(span.last), tz).date);
  const buckets: { label: string; endsAt: string }[] = [];
  for (let first = bucketStart(storedToLocal(String(span.first), tz).date); first <= last; ) {
    const next = addMonths(first, step);
    buckets.push({ label: label(first), endsAt: startOfDay(ctx, next) });
    first = next;
  }
  return buckets;
}

/** The expressions of `keys` over `scope`'s jobs, in the order asked. */
export async function groupColumns(
  ctx: ServiceContext,
  scope: JobScope,
  keys: readonly GroupKey[],
): Promise<GroupColumn[]> {
  const { dialect } = ctx.database;
  const out: GroupColumn[] = [];
  for (const key of keys) {
    let expr: RawBuilder<string>;
    switch (key) {
      case 'work_type':
        expr = orNone(dialect.firstListItem(sql`jobs.job_type`), '(no work type)');
        break;
      case 'salesperson':
        expr = orNone(sql`salesperson.name`, '(no salesperson)');
        break;
      case 'estimator':
        expr = orNone(sql`estimator.name`, '(no estimator)');
        break;
      case 'customer':
        expr = CUSTOMER_NAME;
        break;
      case 'division': {
        const divisions = divisionsOf(ctx.auth.firm);
        expr =
          divisions.length === 0
            ? sql<string>`'(no division)'`
            : sql<string>`(case ${sql.join(
                divisions.map((d) => sql`when jobs.operations_division = ${d.key} then ${d.name}`),
                sql` `,
              )} else '(no division)' end)`;
        break;
      }
      case 'status':
        expr = sql<string>`stage.label`;
        break;
      case 'outcome':
        expr = sql<string>`stage.type`;
        break;
      case 'month':
      case 'quarter':
      case 'year': {
        const buckets = await timeBuckets(ctx, scope, key);
        const lastLabel = buckets[buckets.length - 1]?.label ?? '';
        expr =
          buckets.length <= 1
            ? sql<string>`cast(${lastLabel} as text)`
            : bucketOf(
                scope.basis,
                buckets.slice(0, -1).map((b) => b.endsAt),
                buckets.map((b) => b.label),
              );
        break;
      }
      case 'customer_type':
        expr = orNone(sql`jobs.customer_type`, '(none)');
        break;
      case 'property_type':
        expr = orNone(sql`jobs.property_type`, '(none)');
        break;
      case 'source':
        expr = orNone(sql`jobs.source`, '(none)');
        break;
      case 'zip':
        expr = orNone(sql`jobs.address_zip`, '(no ZIP)');
        break;
      case 'city':
        expr = orNone(sql`jobs.address_city`, '(no city)');
        break;
    }
    out.push({ key, label: LABELS[key], expr });
  }
  return out;
}

/** The group keys as a table's first columns. */
export const groupTableColumns = (groups: readonly GroupColumn[]): Column[] =>
  groups.map((g) => ({ key: g.key, label: g.label, kind: 'text' as const }));

/**
 * One GROUP BY over the scoped jobs: each group's key values and `measures` (aggregate SQL by
 * name), groups in key order. No group keys: one row over every scoped job.
 */
export async function groupedJobRows(
  scope: JobScope,
  groups: readonly GroupColumn[],
  measures: Record<string, RawBuilder<unknown>>,
): Promise<Record<string, unknown>[]> {
  let qb = scope
    .jobs()
    .select([...groups.map((g) => g.expr.as(g.key)), ...Object.entries(measures).map(([name, expr]) => expr.as(name))]);
  // By position: PostgreSQL numbers the parameters of the select list's and the GROUP BY's copy of
  // an expression apart, and would not see them as one expression.
  groups.forEach((_, i) => {
    qb = qb.groupBy(sql.raw(String(i + 1))).orderBy(sql.raw(String(i + 1)));
  });
  return (await qb.execute()) as Record<string, unknown>[];
}

/**
 * The ungrouped row of `measures` (each a count or a sum) from the grouped rows: the groups
 * partition the jobs, so their measures add up to the whole's, and the database need not read the
 * jobs again for the summary (test/reports/job-report-properties.test.ts holds them equal).
 */
export function summedMeasures(
  rows: readonly Record<string, unknown>[],
  measures: Record<string, RawBuilder<unknown>>,
): Record<string, number> {
  return Object.fromEntries(Object.keys(measures).map((k) => [k, rows.reduce((s, r) => s + Number(r[k] ?? 0), 0)]));
}
