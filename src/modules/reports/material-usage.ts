// The material-usage report (docs/reports.md, "Material usage"): on the jobs won from start to end
// (date basis `decided`), the materials their estimates planned against the material costs entered
// on them, material by material.
//
// - Estimated: the material cost lines of each won job's estimate (the job's estimate), counted as
//   the estimate's totals count them (won-cost-lines.ts: the line in the bid, not optional, the cost
//   line included); quantity and cost are what the estimate's last pricing worked out for each (the
//   `calculation` JSON's cost_lines.<id>.quantity, waste included, and .cost), read in SQL over
//   those jobs' estimates only.
// - Actual: the job costs of type material entered on the same jobs (any date; a credit nets out),
//   their quantity and amount. A cost without a quantity adds to the cost, not the quantity.
// - Matching: a job cost's description is the material's name (entered costs have no catalog link),
//   so a material is a name and a unit, both in any case, blanks trimmed: an estimated "Sealer" in
//   GAL meets an entered "sealer" in gal. What matches nothing shows on its own row (estimated only,
//   or entered only; a cost without a description is "(no description)").
// - Quantity variance = actual - estimated quantity, cost variance = actual - estimated cost, over
//   estimated cost. A user who may not see job costs gets the estimated columns only.
//
// Two GROUP BYs (estimated, entered), merged by material here; no query runs per job.
import { sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { centsToDollars, formatCents } from '#platform/money.ts';
import { can } from '#platform/permissions.ts';
import type { ReportDefinition } from './run.ts';
import type { Column, FullTable, Row } from './run-result.ts';
import { countOf, ratio, sumMoney } from './table-math.ts';
import { wonCostLines, wonJobs } from './won-cost-lines.ts';

const ACTUAL_COLUMNS = new Set([
  'actual_quantity',
  'quantity_variance',
  'actual_cost',
  'cost_variance',
  'variance_pct',
  'cost_entries',
]);
const round4 = (n: number | null) => (n === null ? null : Math.round(n * 10_000) / 10_000);

interface Material {
  material: string;
  unit: string;
  jobs: number;
  estimatedQty: number | null;
  estimatedCents: number | null;
  entries: number;
  actualQty: number | null;
  actualCents: number | null;
}

function figures(m: {
  estimatedQty: number | null;
  estimatedCents: number | null;
  actualQty: number | null;
  actualCents: number | null;
}): Row {
  const variance = m.estimatedCents === null ? null : (m.actualCents ?? 0) - m.estimatedCents;
  return {
    estimated_quantity: round4(m.estimatedQty),
    actual_quantity: round4(m.actualQty),
    quantity_variance: m.estimatedQty === null ? null : round4((m.actualQty ?? 0) - m.estimatedQty),
    estimated_cost: centsToDollars(m.estimatedCents),
    actual_cost: centsToDollars(m.actualCents),
    cost_variance: centsToDollars(variance),
    variance_pct: variance === null || m.estimatedCents === null ? null : ratio(variance, m.estimatedCents),
  };
}

export const materialUsage: ReportDefinition = {
  key: 'material-usage',
  title: 'Material usage',
  section: 'Job cost',
  description:
    'On the jobs won between start and end, the materials their estimates planned against the material costs entered on them: quantity and cost, estimated and actual, by material',
  date_basis: 'decided',
  uses: ['salesperson_ids', 'estimator_ids', 'customer_ids', 'division_ids', 'statuses', 'work_types'],
  async run(ctx: ServiceContext, p) {
    const { db } = ctx.database;
    const dialect = ctx.database.dialect;
    const firmId = ctx.auth.firm.id;
    const seesCosts = can(ctx.auth.user, 'can_see_job_costs');
    const won = await wonCostLines(ctx, p);
    const quantity = won.number('quantity');
    const nameKey = sql<string>`lower(trim(cl.name))`;
    const unitKey = sql<string>`lower(trim(cl.unit))`;
    const costName = sql<string>`coalesce(nullif(trim(job_costs.description), ''), '(no description)')`;
    const costUnit = sql<string>`coalesce(trim(job_costs.unit), '')`;
    const [estimated, entered] = await Promise.all([
      won
        .lines()
        .where(sql.ref('cl.type'), '=', 'material')
        .select([
          nameKey.as('name_key'),
          unitKey.as('unit_key'),
          sql<string>`min(trim(cl.name))`.as('material'),
          sql<string>`min(trim(cl.unit))`.as('unit'),
          sql<number>`count(distinct jobs.id)`.as('jobs'),
          sql<number>`sum(${quantity})`.as('quantity'),
          sql<number>`sum(${won.cents})`.as('cents'),
        ])
        .groupBy([nameKey, unitKey])
        .execute(),
      seesCosts
        ? db
            .selectFrom('job_costs')
            .select([
              sql<string>`lower(${costName})`.as('name_key'),
              sql<string>`lower(${costUnit})`.as('unit_key'),
              sql<string>`min(${costName})`.as('material'),
              sql<string>`min(${costUnit})`.as('unit'),
              sql<number>`count(distinct job_costs.job_id)`.as('jobs'),
              sql<number>`count(*)`.as('entries'),
              sql<number>`sum(job_costs.quantity)`.as('quantity'),
              sql<number>`sum(job_costs.amount_cents)`.as('cents'),
            ])
            .where('job_costs.firm_id', '=', firmId)
            .where('job_costs.cost_type', '=', 'material')
            .where('job_costs.job_id', 'in', wonJobs(won.scope).select('jobs.id'))
            .groupBy([sql`lower(${costName})`, sql`lower(${costUnit})`])
            .execute()
        : Promise.resolve([]),
    ]);
    const byKey = new Map<string, Material>();
    const keyOf = (r: { name_key: unknown; unit_key: unknown }) => `${r.name_key}\u0000${r.unit_key}`;
    for (const r of estimated)
      byKey.set(keyOf(r), {
        material: String(r.material),
        unit: String(r.unit),
        jobs: Number(r.jobs),
        estimatedQty: r.quantity === null ? null : Number(r.quantity),
        estimatedCents: Number(r.cents),
        entries: 0,
        actualQty: null,
        actualCents: null,
      });
    for (const r of entered) {
      const m = byKey.get(keyOf(r));
      const qty = r.quantity === null ? null : Number(r.quantity);
      if (m) {
        m.entries = Number(r.entries);
        m.actualQty = qty;
        m.actualCents = Number(r.cents);
      } else
        byKey.set(keyOf(r), {
          material: String(r.material),
          unit: String(r.unit),
          jobs: Number(r.jobs),
          estimatedQty: null,
          estimatedCents: null,
          entries: Number(r.entries),
          actualQty: qty,
          actualCents: Number(r.cents),
        });
    }
    const materials = [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, m]) => m);
    const shown = (cols: Column[]) => (seesCosts ? cols : cols.filter((c) => !ACTUAL_COLUMNS.has(c.key)));
    const strip = (r: Row): Row =>
      seesCosts ? r : Object.fromEntries(Object.entries(r).filter(([k]) => !ACTUAL_COLUMNS.has(k)));
    const rows: Row[] = materials.map((m) =>
      strip({
        material: m.material,
        unit: m.unit,
        jobs: m.jobs,
        cost_entries: m.entries,
        ...figures(m),
      }),
    );
    const totalOf = (kept: readonly Row[]): Row => {
      const cents = (k: string) => Math.round(sumMoney(kept, k) * 100);
      const costed = kept.filter((r) => r.estimated_cost !== null);
      const estimatedCents = costed.length === 0 ? null : cents('estimated_cost');
      const actualCents = seesCosts ? cents('actual_cost') : null;
      // The variance over the materials that were estimated, so an unplanned material is not
      // counted as an overrun of a plan it never had; its cost is in the actual cost column.
      const variance =
        estimatedCents === null ? null : Math.round(sumMoney(costed, 'actual_cost') * 100) - estimatedCents;
      return strip({
        material: 'Total',
        cost_entries: countOf(kept, 'cost_entries'),
        estimated_cost: centsToDollars(estimatedCents),
        actual_cost: centsToDollars(actualCents),
        cost_variance: centsToDollars(variance),
        variance_pct: variance === null || estimatedCents === null ? null : ratio(variance, estimatedCents),
      });
    };
    const hidden = seesCosts ? null : 'Material costs entered are hidden: the key’s user may not see job costs';
    const table: FullTable = {
      key: 'materials',
      title: 'Materials on won jobs',
      columns: shown([
        { key: 'material', label: 'Material', kind: 'text' },
        { key: 'unit', label: 'Unit', kind: 'text' },
        { key: 'jobs', label: 'Jobs', kind: 'int' },
        { key: 'estimated_quantity', label: 'Estimated quantity', kind: 'number' },
        { key: 'actual_quantity', label: 'Actual quantity', kind: 'number' },
        { key: 'quantity_variance', label: 'Quantity variance', kind: 'number' },
        { key: 'estimated_cost', label: 'Estimated cost', kind: 'money' },
        { key: 'cost_entries', label: 'Cost entries', kind: 'int' },
        { key: 'actual_cost', label: 'Actual cost', kind: 'money' },
        { key: 'cost_variance', label: 'Cost variance', kind: 'money' },
        { key: 'variance_pct', label: 'Variance %', kind: 'pct' },
      ]),
      rows,
      total: totalOf,
      note: [won.scope.note, hidden].filter((n) => n !== null).join('. ') || null,
    };
    const all = totalOf(rows);
    const money = (v: unknown) => (v === null || v === undefined ? '—' : formatCents(Math.round(Number(v) * 100)));
    return {
      summary: [
        { label: 'Materials', value: String(rows.length) },
        { label: 'Estimated cost', value: money(all.estimated_cost) },
        ...(seesCosts
          ? [
              { label: 'Actual cost', value: money(all.actual_cost) },
              { label: 'Cost variance (estimated materials)', value: money(all.cost_variance) },
            ]
          : []),
      ],
      tables: [table],
      truncated: won.scope.truncated,
    };
  },
};
