// The customer's side of a capital plan link (its page is src/pages/capital-plan.ts): which link a
// token opens, and the plan it shows (docs/api-decisions.md, Assessment and capital plan links).
//
// A site's plan is its completed assessments, newest first: those started at the site (their
// location_id, also a site merged into it) and those of the site's jobs that were started before
// the job had a site. Open assessments are the field's work in progress and are left out. Only
// external pins count. Each assessment shows its findings per service (pin counts, quantities per
// unit, severities) and its severity totals; the summary shows each service's quantities per year
// so an owner can budget. A year shows, per service, the latest completed assessment of that year
// that found it: a second walk of the same lot re-surveys the same cracks, so summing the walks of
// one year would count them twice. No prices: a plan is what the site needs, not a quote.
import type { Executor } from '#db/dialect.ts';
import { linkTokenHash } from '#platform/link-tokens.ts';
import { storedToLocal } from '#platform/time-zone.ts';
import { settingsOf } from '#platform/workspace.ts';
import { deadLinkVisit, type RetiredReason } from '#platform/customer-links.ts';
import { customerLabel, externalPins } from '#field/assessment-share-links/visit.ts';
import type { MeasurementUnit } from '#field/assessment-pins/measurement.ts';
import { rollUp, type SeverityCounts } from '#field/site-assessments/rollup.ts';
import { findEnabledLinkByHash, type PlanShareLink } from './repo.ts';
import { LINK_KIND } from './service.ts';

export interface PlanFinding {
  service_type_id: number | null;
  label: string;
  color: string;
  pin_count: number;
  quantities: { unit: MeasurementUnit; value: number }[];
  severities: SeverityCounts;
}

export interface PlanAssessment {
  id: number;
  title: string;
  /** The day it was completed, in the workspace's time zone (YYYY-MM-DD). */
  date: string;
  findings: PlanFinding[];
  severityTotals: SeverityCounts;
  pinCount: number;
}

/** One service's row of the summary: per year (newest first), the latest assessment that found it. */
export interface PlanSummaryRow {
  service_type_id: number | null;
  label: string;
  color: string;
  years: Map<number, { assessmentId: number; pin_count: number; quantities: PlanFinding['quantities'] }>;
}

export interface CapitalPlan {
  firmName: string;
  siteName: string;
  address: string;
  customerName: string | null;
  assessments: PlanAssessment[];
  /** The years with a completed assessment, newest first. */
  years: number[];
  summary: PlanSummaryRow[];
}

export type PlanVisit =
  | { state: 'unknown' }
  | { state: 'gone'; why: RetiredReason }
  | { state: 'open'; plan: CapitalPlan };

/**
 * The link `token` opens: on (its plan), stopped (410: turned off, rotated or replaced; also while
 * the workspace has capital planning off, as if turned off), or never one (404).
 */
export async function visitCapitalPlan(db: Executor, token: string): Promise<PlanVisit> {
  const hash = linkTokenHash(token);
  if (hash === null) return { state: 'unknown' };
  const link = await findEnabledLinkByHash(db, hash);
  if (link) {
    const firm = await db
      .selectFrom('firms')
      .select(['name', 'timezone', 'settings'])
      .where('id', '=', link.firm_id)
      .executeTakeFirst();
    if (firm && !settingsOf(firm).capital_planning_enabled) return { state: 'gone', why: 'disabled' };
    const plan = firm && (await planOf(db, link, firm));
    if (plan) return { state: 'open', plan };
  }
  return deadLinkVisit(db, LINK_KIND, token);
}

/** The site's id and the ids of the sites merged into it (merges point straight at the survivor). */
async function siteIds(db: Executor, firmId: number, locationId: number): Promise<number[]> {
  const merged = await db
    .selectFrom('locations')
    .select('id')
    .where('firm_id', '=', firmId)
    .where('merged_into_id', '=', locationId)
    .execute();
  return [locationId, ...merged.map((m) => m.id)];
}

async function planOf(
  db: Executor,
  link: PlanShareLink,
  firm: { name: string; timezone: string },
): Promise<CapitalPlan | null> {
  const site = await db
    .selectFrom('locations as l')
    .leftJoin('client_accounts as c', 'c.id', 'l.client_account_id')
    .select(['l.id', 'l.name', 'l.address', 'c.name as customer_name'])
    .where('l.id', '=', link.location_id)
    .where('l.firm_id', '=', link.firm_id)
    .executeTakeFirst();
  if (!site) return null;
  const ids = await siteIds(db, link.firm_id, site.id);
  const rows = await db
    .selectFrom('site_assessments as a')
    .innerJoin('jobs as j', 'j.id', 'a.job_id')
    .select(['a.id', 'a.title', 'a.completed_at'])
    .where('a.firm_id', '=', link.firm_id)
    .where('a.status', '=', 'completed')
    .where((eb) =>
      eb.or([
        eb('a.location_id', 'in', ids),
        eb.and([eb('a.location_id', 'is', null), eb('j.location_id', 'in', ids)]),
      ]),
    )
    .orderBy('a.completed_at', 'desc')
    .orderBy('a.id', 'desc')
    .execute();
  const pins = await externalPins(
    db,
    link.firm_id,
    rows.map((r) => r.id),
    null,
  );
  const byAssessment = new Map<number, typeof pins>();
  const position = new Map<number | null, number>();
  for (const p of pins) {
    byAssessment.set(p.assessment_id!, [...(byAssessment.get(p.assessment_id!) ?? []), p]);
    if (p.service_name !== null) position.set(p.service_type_id, p.service_position ?? 0);
  }
  const assessments: PlanAssessment[] = rows.map((r) => {
    const own = byAssessment.get(r.id) ?? [];
    const { services, severity_totals } = rollUp(own);
    return {
      id: r.id,
      title: r.title,
      date: storedToLocal(r.completed_at ?? '', firm.timezone).date,
      findings: services.map((s) => ({
        service_type_id: s.service_type_id,
        label: customerLabel(s),
        color: s.color,
        pin_count: s.pin_count,
        quantities: s.quantities,
        severities: s.severities,
      })),
      severityTotals: severity_totals,
      pinCount: own.length,
    };
  });
  const years = [...new Set(assessments.map((a) => Number(a.date.slice(0, 4))))];
  const summary = new Map<number | null, PlanSummaryRow>();
  // Newest first, so the first assessment of a year that found a service is that year's latest.
  for (const a of assessments) {
    const year = Number(a.date.slice(0, 4));
    for (const f of a.findings) {
      let row = summary.get(f.service_type_id);
      if (!row) {
        row = { service_type_id: f.service_type_id, label: f.label, color: f.color, years: new Map() };
        summary.set(f.service_type_id, row);
      }
      if (!row.years.has(year))
        row.years.set(year, { assessmentId: a.id, pin_count: f.pin_count, quantities: f.quantities });
    }
  }
  const order = (key: number | null) => (key === null ? Number.MAX_SAFE_INTEGER : (position.get(key) ?? 0));
  return {
    firmName: firm.name,
    siteName: site.name,
    address: site.address,
    customerName: site.customer_name,
    assessments,
    years,
    summary: [...summary.values()].sort(
      (x, y) =>
        order(x.service_type_id) - order(y.service_type_id) || (x.service_type_id ?? 0) - (y.service_type_id ?? 0),
    ),
  };
}
