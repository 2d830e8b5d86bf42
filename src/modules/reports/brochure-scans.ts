// The brochure-scans report (docs/reports.md, "Brochure scans"), for workspaces that hand out
// brochures with a QR code: the leads those scans brought in from start to end (date basis
// `created`: the lead's submitted_at, local dates), by campaign.
//
// - A brochure scan is a lead (not spam) whose campaign fields (leads.utm, JSON of utm_source,
//   utm_medium, utm_campaign …) have utm_medium `qr` or `brochure`, or utm_source `brochure`, or
//   whose source is `brochure` (any case).
// - Campaign: utm_campaign, else "(no campaign)". Contacted: the lead has a first contact;
//   converted: its status is converted (Moving forward); won: its job is in a won stage, at the job's
//   value (JOB_VALUE_CENTS).
// - A user who sees only their own jobs sees the leads assigned to them.
//
// Listed only for a workspace with a brochure scan (appliesTo). One GROUP BY.
import { sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { centsToDollars, formatCents } from '#platform/money.ts';
import type { Dialect } from '#db/dialect.ts';
import { leadsInRange, wonCents, wonCount } from './lead-pipeline.ts';
import type { ReportDefinition } from './run.ts';
import type { FullTable } from './run-result.ts';
import { countOf, formatPct, ratio, sumMoney } from './table-math.ts';

/** Whether the lead in `leads` came from a brochure's QR code. */
export function isBrochureScan(dialect: Dialect) {
  const utm = (key: string) => sql<string>`lower(${dialect.jsonText(sql`leads.utm`, [key])})`;
  return sql<boolean>`(${utm('utm_medium')} in ('qr', 'brochure') or ${utm('utm_source')} = 'brochure' or lower(leads.source) = 'brochure')`;
}

export const brochureScans: ReportDefinition = {
  key: 'brochure-scans',
  title: 'Brochure scans',
  section: 'Sales',
  description:
    'Leads from brochure QR code scans submitted between start and end, by campaign: scans, contacted, converted, and jobs won with their value',
  date_basis: 'created',
  uses: [],
  async appliesTo(ctx) {
    // The firm's leads by the (firm_id, created_at, id) index, newest first: stops at the first scan.
    const hit = await ctx.database.db
      .selectFrom('leads')
      .select('leads.id')
      .where('leads.firm_id', '=', ctx.auth.firm.id)
      .where(isBrochureScan(ctx.database.dialect))
      .limit(1)
      .executeTakeFirst();
    return hit !== undefined;
  },
  async run(ctx: ServiceContext, p) {
    const dialect = ctx.database.dialect;
    const campaign = sql<string>`coalesce(nullif(${dialect.jsonText(sql`leads.utm`, ['utm_campaign'])}, ''), '(no campaign)')`;
    const rows = await leadsInRange(ctx, p)
      .where(isBrochureScan(dialect))
      .select([
        campaign.as('campaign'),
        sql<number>`count(*)`.as('scans'),
        sql<number>`sum(case when leads.first_contacted_at is not null then 1 else 0 end)`.as('contacted'),
        sql<number>`sum(case when leads.status = 'converted' then 1 else 0 end)`.as('converted'),
        wonCount.as('won'),
        wonCents.as('won_cents'),
      ])
      .groupBy(sql.raw('1'))
      .orderBy(sql.raw('2'), 'desc')
      .orderBy(sql.raw('1'))
      .execute();
    const shape = (scans: number, contacted: number, converted: number, won: number, wonValue: number) => ({
      scans,
      contacted,
      converted,
      conversion_rate: ratio(converted, scans),
      won,
      won_value: wonValue,
    });
    const table: FullTable = {
      key: 'campaigns',
      title: 'Brochure scans by campaign',
      columns: [
        { key: 'campaign', label: 'Campaign', kind: 'text' },
        { key: 'scans', label: 'Scans', kind: 'int' },
        { key: 'contacted', label: 'Contacted', kind: 'int' },
        { key: 'converted', label: 'Converted', kind: 'int' },
        { key: 'conversion_rate', label: 'Conversion rate', kind: 'pct' },
        { key: 'won', label: 'Jobs won', kind: 'int' },
        { key: 'won_value', label: 'Won value', kind: 'money' },
      ],
      rows: rows.map((r) => ({
        campaign: String(r.campaign),
        ...shape(
          Number(r.scans),
          Number(r.contacted),
          Number(r.converted),
          Number(r.won),
          centsToDollars(Number(r.won_cents)),
        ),
      })),
      total: (list) => ({
        campaign: 'Total',
        ...shape(
          countOf(list, 'scans'),
          countOf(list, 'contacted'),
          countOf(list, 'converted'),
          countOf(list, 'won'),
          sumMoney(list, 'won_value'),
        ),
      }),
    };
    const all = table.total!(table.rows);
    return {
      summary: [
        { label: 'Scans', value: String(all.scans) },
        { label: 'Contacted', value: String(all.contacted) },
        { label: 'Converted', value: `${all.converted} (${formatPct(all.conversion_rate as number | null)})` },
        { label: 'Jobs won', value: `${all.won} (${formatCents(Math.round(Number(all.won_value) * 100))})` },
      ],
      tables: [table],
    };
  },
};
