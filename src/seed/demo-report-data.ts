// What the demo needs for the resource and lead reports (docs/reports.md): a certified supplier on
// the won jobs' estimates (the minority report), a subcontractor with its certifications in the
// catalog, a lead waiting on the Leads pipeline (lead-pipeline) and one from a brochure's QR code
// (brochure-scans), and the bids due on the open jobs not yet sent a proposal (bid-schedule). Leads
// go through intake; what only the app sets (the pipeline flag, stage and value) is placed on the row.
import type { ServiceContext } from '#platform/context.ts';
import { nameKey } from '#platform/text.ts';
import { addDays, now } from '#platform/time.ts';
import { todayIn } from '#platform/time-zone.ts';
import { createLead } from '#crm/index.ts';

export async function demoReportData(ctx: ServiceContext): Promise<void> {
  const { db } = ctx.database;
  const firmId = ctx.auth.firm.id;
  // The asphalt plant is a minority-owned business: its mix is on the won paving estimates.
  await db
    .updateTable('catalog_items')
    .set({ attributes: JSON.stringify({ certifications: ['MBE'] }) })
    .where('firm_id', '=', firmId)
    .where('name', '=', 'HMA surface mix (9.5 mm)')
    .execute();
  // Bids due on the open jobs no proposal has gone to yet, a week and two weeks from today.
  const open = await db
    .selectFrom('jobs')
    .innerJoin('job_stages as stage', (j) =>
      j.onRef('stage.firm_id', '=', 'jobs.firm_id').onRef('stage.key', '=', 'jobs.status'),
    )
    .select('jobs.id')
    .where('jobs.firm_id', '=', firmId)
    .where('stage.type', '=', 'open')
    .where('jobs.bid_at', 'is', null)
    .orderBy('jobs.id')
    .limit(2)
    .execute();
  const today = todayIn(ctx.auth.firm.timezone);
  for (const [i, job] of open.entries())
    await db
      .updateTable('jobs')
      .set({ bid_due_date: addDays(today, 7 * (i + 1)) })
      .where('id', '=', job.id)
      .execute();
  const at = now();
  await db
    .insertInto('catalog_items')
    .values({
      firm_id: firmId,
      kind: 'subcontractor',
      name: 'Brightline Striping Co.',
      name_key: nameKey('Brightline Striping Co.'),
      unit: 'LF',
      unit_cost_cents: 35,
      attributes: JSON.stringify({ certifications: ['DBE', 'WBE'] }),
      created_at: at,
      updated_at: at,
    })
    .execute();
  await createLead(ctx, {
    name: 'Dana Ortiz',
    email: 'dana@ortizrentals.example',
    address: '55 Cleveland Ave, Columbus, OH 43215',
    services: ['Sealcoating'],
    source: 'Brochure',
    utm: { utm_source: 'brochure', utm_medium: 'qr', utm_campaign: 'spring-mailer' },
    notify: false,
  });
  const waiting = await createLead(ctx, {
    name: 'Lakeview Apartments',
    email: 'manager@lakeviewapts.example',
    services: ['Asphalt Paving'],
    notify: false,
  });
  await db
    .updateTable('leads')
    .set({ on_leads_pipeline: 1, pipeline_stage_id: 1, estimated_value_cents: 1_850_000 })
    .where('id', '=', waiting.id)
    .execute();
}
