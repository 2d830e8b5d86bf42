// The vendor-utilization report (docs/reports.md, "Vendor utilization"): what the jobs won from
// start to end (date basis `decided` unless the request names another; the job filters apply) were
// estimated to spend with each vendor.
//
// A vendor is a catalog item of kind material, truck, dump_site or equipment that a counted cost line
// of a won job's estimate uses (won-cost-lines.ts: the estimate's last pricing, alternates, suppressed
// and optional lines left out); a dump-fee line with no such item but a dump site typed on it
// (estimate_cost_lines.dump_site, JSON {vendor_id, name}) counts for that site by its name. Spend is
// estimated (the cost lines' cost): job costs name no vendor. Vendors with the same name and kind
// are one row.
//
// Two queries: vendors (GROUP BY vendor and kind) and kinds (GROUP BY kind).
import { sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { centsToDollars, formatCents } from '#platform/money.ts';
import type { ReportDefinition } from './run.ts';
import type { FullTable } from './run-result.ts';
import { countOf, ratio, sumMoney } from './table-math.ts';
import { JOB_FILTERS } from './sub-utilization.ts';
import { type WonCostLines, wonCostLines } from './won-cost-lines.ts';
import type { Dialect } from '#db/dialect.ts';

export const VENDOR_KINDS = ['material', 'truck', 'dump_site', 'equipment'] as const;
const KIND_LABEL: Record<string, string> = {
  material: 'Material',
  truck: 'Trucking',
  dump_site: 'Dump site',
  equipment: 'Equipment',
};

/** The vendor a counted cost line pays, its kind, and the condition that it pays one. */
export function vendorOf(dialect: Dialect) {
  const isItem = sql<boolean>`ci.kind in (${sql.join(VENDOR_KINDS.map((k) => sql`${k}`))})`;
  const siteName = sql<string>`nullif(${dialect.jsonText(sql`cl.dump_site`, ['name'])}, '')`;
  return {
    name: sql<string>`(case when ${isItem} then ci.name else ${siteName} end)`,
    kind: sql<string>`(case when ${isItem} then ci.kind else 'dump_site' end)`,
    paysVendor: sql<boolean>`(${isItem} or (cl.dump_site is not null and ${siteName} is not null))`,
  };
}

export const vendorLines = (w: WonCostLines, dialect: Dialect) => w.lines().where(vendorOf(dialect).paysVendor);

export const vendorUtilization: ReportDefinition = {
  key: 'vendor-utilization',
  title: 'Vendor utilization',
  section: 'Job cost',
  description:
    'Estimated spend with each vendor (material, trucking, dump site and equipment catalog items, and dump sites named on dump-fee lines) on the jobs won between start and end',
  date_basis: 'decided',
  uses: JOB_FILTERS,
  async run(ctx: ServiceContext, p) {
    const dialect = ctx.database.dialect;
    const won = await wonCostLines(ctx, p);
    const { cents, scope } = won;
    const v = vendorOf(dialect);
    const [vendors, kinds] = await Promise.all([
      vendorLines(won, dialect)
        .select([
          v.name.as('vendor'),
          v.kind.as('kind'),
          sql<number>`count(distinct jobs.id)`.as('jobs'),
          sql<number>`count(*)`.as('lines'),
          sql<number>`sum(${cents})`.as('cents'),
        ])
        .groupBy([sql.raw('1'), sql.raw('2')])
        .orderBy(sql.raw('5'), 'desc')
        .orderBy(sql.raw('1'))
        .orderBy(sql.raw('2'))
        .execute(),
      vendorLines(won, dialect)
        .select([
          v.kind.as('kind'),
          sql<number>`count(distinct ${v.name})`.as('vendors'),
          sql<number>`count(distinct jobs.id)`.as('jobs'),
          sql<number>`sum(${cents})`.as('cents'),
        ])
        .groupBy(sql.raw('1'))
        .orderBy(sql.raw('1'))
        .execute(),
    ]);
    const totalCents = vendors.reduce((s, r) => s + Number(r.cents), 0);
    const vendorTable: FullTable = {
      key: 'vendors',
      title: 'Estimated spend by vendor',
      columns: [
        { key: 'vendor', label: 'Vendor', kind: 'text' },
        { key: 'kind', label: 'Kind', kind: 'text' },
        { key: 'jobs', label: 'Jobs', kind: 'int' },
        { key: 'cost_lines', label: 'Cost lines', kind: 'int' },
        { key: 'estimated_spend', label: 'Estimated spend', kind: 'money' },
        { key: 'share', label: 'Share of spend', kind: 'pct' },
      ],
      rows: vendors.map((r) => ({
        vendor: String(r.vendor),
        kind: KIND_LABEL[String(r.kind)] ?? String(r.kind),
        jobs: Number(r.jobs),
        cost_lines: Number(r.lines),
        estimated_spend: centsToDollars(Number(r.cents)),
        share: ratio(Number(r.cents), totalCents),
      })),
      total: (rows) => ({
        vendor: 'Total',
        kind: null,
        jobs: null,
        cost_lines: countOf(rows, 'cost_lines'),
        estimated_spend: sumMoney(rows, 'estimated_spend'),
        share: ratio(Math.round(sumMoney(rows, 'estimated_spend') * 100), totalCents),
      }),
      note: scope.note ?? 'Jobs are not totalled: a job buys from several vendors',
    };
    const kindTable: FullTable = {
      key: 'kinds',
      title: 'Estimated spend by kind',
      columns: [
        { key: 'kind', label: 'Kind', kind: 'text' },
        { key: 'vendors', label: 'Vendors', kind: 'int' },
        { key: 'jobs', label: 'Jobs', kind: 'int' },
        { key: 'estimated_spend', label: 'Estimated spend', kind: 'money' },
        { key: 'share', label: 'Share of spend', kind: 'pct' },
      ],
      rows: kinds.map((r) => ({
        kind: KIND_LABEL[String(r.kind)] ?? String(r.kind),
        vendors: Number(r.vendors),
        jobs: Number(r.jobs),
        estimated_spend: centsToDollars(Number(r.cents)),
        share: ratio(Number(r.cents), totalCents),
      })),
      total: (rows) => ({
        kind: 'Total',
        vendors: countOf(rows, 'vendors'),
        jobs: null,
        estimated_spend: sumMoney(rows, 'estimated_spend'),
        share: ratio(Math.round(sumMoney(rows, 'estimated_spend') * 100), totalCents),
      }),
      note: scope.note,
    };
    return {
      summary: [
        { label: 'Vendors', value: String(vendors.length) },
        { label: 'Estimated vendor spend', value: formatCents(totalCents) },
        ...kindTable.rows.map((k) => ({
          label: `${k.kind}`,
          value: formatCents(Math.round(Number(k.estimated_spend) * 100)),
        })),
      ],
      tables: [vendorTable, kindTable],
      truncated: scope.truncated,
    };
  },
};
