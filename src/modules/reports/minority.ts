// The minority report (docs/reports.md, "Minority participation"): of the subcontract and vendor
// spend on the jobs won from start to end (date basis `decided` unless the request names another;
// the job filters apply), the share going to certified firms: minority- (MBE), women- (WBE),
// disadvantaged- (DBE), small- (SBE) and veteran-owned (VBE) businesses, the way public-works
// contractors report DBE participation.
//
// - Spend: the counted cost lines of the won jobs' estimates (won-cost-lines.ts) that pay a
//   subcontractor (type subcontractor) or a vendor (vendor-utilization.ts's rule). It is the
//   estimated spend: job costs name no firm.
// - A firm is certified by its catalog item: attributes.certifications, an array of the codes
//   (["DBE", "WBE"]). Typed-in subcontractors and dump sites without a catalog item are spend by
//   uncertified firms.
// - A firm holding several certifications counts under each, so the certification rows do not add
//   up to the certified total (the summary's "Any certification" counts each dollar once).
//
// Two queries: one with a conditional sum per certification (and the total), one GROUP BY the
// certified firms.
import { sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { centsToDollars, formatCents } from '#platform/money.ts';
import type { ReportDefinition } from './run.ts';
import type { FullTable } from './run-result.ts';
import { formatPct, ratio, sumMoney } from './table-math.ts';
import { JOB_FILTERS } from './sub-utilization.ts';
import { vendorOf } from './vendor-utilization.ts';
import { wonCostLines } from './won-cost-lines.ts';

export const CERTIFICATIONS = [
  { code: 'MBE', label: 'Minority-owned (MBE)' },
  { code: 'WBE', label: 'Women-owned (WBE)' },
  { code: 'DBE', label: 'Disadvantaged (DBE)' },
  { code: 'SBE', label: 'Small business (SBE)' },
  { code: 'VBE', label: 'Veteran-owned (VBE)' },
] as const;

export const minority: ReportDefinition = {
  key: 'minority',
  title: 'Minority participation',
  section: 'Job cost',
  description:
    'The share of estimated subcontract and vendor spend on the jobs won between start and end that goes to certified firms (MBE, WBE, DBE, SBE, VBE), by certification and by firm',
  date_basis: 'decided',
  uses: JOB_FILTERS,
  async run(ctx: ServiceContext, p) {
    const dialect = ctx.database.dialect;
    const won = await wonCostLines(ctx, p);
    const { cents, scope } = won;
    const attrs = sql`ci.attributes`;
    const has = (code: string) =>
      sql<boolean>`(ci.id is not null and ${dialect.jsonArrayHas(attrs, 'certifications', code)})`;
    const anyCert = sql<boolean>`(${sql.join(
      CERTIFICATIONS.map((c) => has(c.code)),
      sql` or `,
    )})`;
    const paid = () =>
      won.lines().where((eb) => eb.or([eb(sql.ref('cl.type'), '=', 'subcontractor'), vendorOf(dialect).paysVendor]));
    const [[totals], firms] = await Promise.all([
      paid()
        .select([
          sql<number>`coalesce(sum(${cents}), 0)`.as('total'),
          sql<number>`coalesce(sum(case when ${anyCert} then ${cents} else 0 end), 0)`.as('certified'),
          sql<number>`count(distinct case when ${anyCert} then ci.id end)`.as('certified_firms'),
          ...CERTIFICATIONS.flatMap((c) => [
            sql<number>`coalesce(sum(case when ${has(c.code)} then ${cents} else 0 end), 0)`.as(`${c.code}_cents`),
            sql<number>`count(distinct case when ${has(c.code)} then ci.id end)`.as(`${c.code}_firms`),
            sql<number>`count(distinct case when ${has(c.code)} then jobs.id end)`.as(`${c.code}_jobs`),
          ]),
        ])
        .execute(),
      paid()
        .where(anyCert)
        .select([
          'ci.id as firm_id',
          'ci.name as firm',
          'ci.kind as kind',
          'ci.attributes as attributes',
          sql<number>`count(distinct jobs.id)`.as('jobs'),
          sql<number>`sum(${cents})`.as('cents'),
        ])
        .groupBy(['ci.id', 'ci.name', 'ci.kind', 'ci.attributes'])
        .orderBy(sql`sum(${cents})`, 'desc')
        .orderBy('ci.name')
        .execute(),
    ]);
    const t = (totals ?? {}) as Record<string, unknown>;
    const totalCents = Number(t.total ?? 0);
    const certifiedCents = Number(t.certified ?? 0);
    const certTable: FullTable = {
      key: 'certifications',
      title: 'Spend by certification',
      columns: [
        { key: 'certification', label: 'Certification', kind: 'text' },
        { key: 'firms', label: 'Firms', kind: 'int' },
        { key: 'jobs', label: 'Jobs', kind: 'int' },
        { key: 'spend', label: 'Spend', kind: 'money' },
        { key: 'share', label: 'Share of spend', kind: 'pct' },
      ],
      rows: CERTIFICATIONS.map((c) => ({
        certification: c.label,
        firms: Number(t[`${c.code}_firms`] ?? 0),
        jobs: Number(t[`${c.code}_jobs`] ?? 0),
        spend: centsToDollars(Number(t[`${c.code}_cents`] ?? 0)),
        share: ratio(Number(t[`${c.code}_cents`] ?? 0), totalCents),
      })),
      total: null,
      note: 'A firm with several certifications counts under each: the rows do not add up; the summary counts each dollar once',
    };
    const codesOf = (attributes: unknown): string => {
      const list = (JSON.parse(String(attributes)) as { certifications?: unknown }).certifications;
      return Array.isArray(list)
        ? CERTIFICATIONS.filter((c) => list.includes(c.code))
            .map((c) => c.code)
            .join(', ')
        : '';
    };
    const firmTable: FullTable = {
      key: 'firms',
      title: 'Certified firms',
      columns: [
        { key: 'firm', label: 'Firm', kind: 'text' },
        { key: 'kind', label: 'Kind', kind: 'text' },
        { key: 'certifications', label: 'Certifications', kind: 'text' },
        { key: 'jobs', label: 'Jobs', kind: 'int' },
        { key: 'spend', label: 'Spend', kind: 'money' },
        { key: 'share', label: 'Share of spend', kind: 'pct' },
      ],
      rows: firms.map((f) => ({
        firm: String(f.firm),
        kind: String(f.kind),
        certifications: codesOf(f.attributes),
        jobs: Number(f.jobs),
        spend: centsToDollars(Number(f.cents)),
        share: ratio(Number(f.cents), totalCents),
      })),
      total: (rows) => ({
        firm: 'Total',
        kind: null,
        certifications: null,
        jobs: null,
        spend: sumMoney(rows, 'spend'),
        share: ratio(Math.round(sumMoney(rows, 'spend') * 100), totalCents),
      }),
      note: scope.note,
    };
    return {
      summary: [
        { label: 'Subcontract and vendor spend', value: formatCents(totalCents) },
        { label: 'Certified firms', value: String(Number(t.certified_firms ?? 0)) },
        { label: 'Spend with certified firms', value: formatCents(certifiedCents) },
        { label: 'Any certification', value: formatPct(ratio(certifiedCents, totalCents)) },
        ...CERTIFICATIONS.map((c) => ({
          label: c.code,
          value: formatPct(ratio(Number(t[`${c.code}_cents`] ?? 0), totalCents)),
        })),
      ],
      tables: [certTable, firmTable],
      truncated: scope.truncated,
    };
  },
};
