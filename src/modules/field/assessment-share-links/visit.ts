// The customer's side of an assessment report link (its page is src/pages/assessment-report.ts):
// which link a token opens, and what the report shows. Only what is meant for the customer:
// external pins (a pin marked internal is left out everywhere, counts included) and, on them,
// external photos. A scoped link shows only its services' pins; a link showing every service also
// shows the pins with no service ("Other findings"). The report is the assessment as it is now
// (an open one says it is in progress), not a frozen copy.
import type { Executor } from '#db/dialect.ts';
import { pinLabel } from '#field/assessment-pins/label.ts';
import { pinRows, type PinRow } from '#field/assessment-pins/repo.ts';
import { storedOneOf } from '#platform/schemas.ts';
import { linkTokenHash } from '#platform/link-tokens.ts';
import { deadLinkVisit, type RetiredReason } from '#platform/customer-links.ts';
import { SEVERITIES, SIZES, type Severity } from '#field/assessment-pins/schemas.ts';
import { rollUp, type ServiceRollup, type SeverityCounts } from '#field/site-assessments/rollup.ts';
import { findLiveLinkByHash, scopeOf, type AssessmentShareLink } from './repo.ts';
import { LINK_KIND } from './service.ts';

/** What the customer pages call the pins with no service. */
export const OTHER_FINDINGS_LABEL = 'Other findings';

/** A photo as a customer page shows it (the page signs its links). */
export interface ReportPhoto {
  id: number;
  storage_key: string;
  thumbnail_key: string | null;
  content_type: string;
  is_video: boolean;
  title: string | null;
  caption: string | null;
}

export interface ReportPin {
  id: number;
  label: string;
  severity: Severity;
  size: (typeof SIZES)[number];
  measurement: {
    type: string;
    value: number | null;
    unit: string | null;
    length_ft: number | null;
    width_ft: number | null;
    depth_in: number | null;
    /** The slab's area of a volume measurement. */
    area_sqft: number | null;
  };
  notes: string | null;
  photos: ReportPhoto[];
}

export type ReportGroup = Omit<ServiceRollup, 'pin_ids' | 'photo_count'> & { pins: ReportPin[] };

export interface AssessmentReport {
  firmName: string;
  timezone: string;
  title: string;
  status: 'open' | 'completed';
  completedAt: string | null;
  startedAt: string;
  siteName: string | null;
  address: string | null;
  /** The services a scoped link shows, in the workspace's order; null for every service. */
  scope: { id: number; name: string }[] | null;
  groups: ReportGroup[];
  severityTotals: SeverityCounts;
}

export type ReportVisit =
  | { state: 'unknown' }
  | { state: 'gone'; why: RetiredReason }
  | { state: 'open'; report: AssessmentReport };

/** The link `token` opens: live (its report), revoked (410), or never one (404). */
export async function visitAssessmentReport(db: Executor, token: string): Promise<ReportVisit> {
  const hash = linkTokenHash(token);
  if (hash === null) return { state: 'unknown' };
  const link = await findLiveLinkByHash(db, hash);
  if (link) {
    const report = await reportOf(db, link);
    if (report) return { state: 'open', report };
  }
  return deadLinkVisit(db, LINK_KIND, token);
}

/** The external photos on each pin, in the order they were added. */
export async function externalPinPhotos(db: Executor, pinIds: number[]): Promise<Map<number, ReportPhoto[]>> {
  const out = new Map<number, ReportPhoto[]>();
  if (pinIds.length === 0) return out;
  const rows = await db
    .selectFrom('assessment_pin_photos as l')
    .innerJoin('photos as p', 'p.id', 'l.photo_id')
    .select([
      'l.pin_id',
      'p.id',
      'p.storage_key',
      'p.thumbnail_key',
      'p.content_type',
      'p.is_video',
      'p.title',
      'p.caption',
    ])
    .where('l.pin_id', 'in', pinIds)
    .where('p.visibility', '=', 'external')
    .orderBy('l.pin_id')
    .orderBy('l.position')
    .orderBy('p.id')
    .execute();
  for (const { pin_id, is_video, ...photo } of rows) {
    const list = out.get(pin_id) ?? [];
    list.push({ ...photo, is_video: is_video === 1 });
    out.set(pin_id, list);
  }
  return out;
}

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

function reportPin(p: PinRow, photos: ReportPhoto[]): ReportPin {
  const data = JSON.parse(p.measurement_data) as Record<string, unknown>;
  return {
    id: p.id,
    label: pinLabel(p),
    severity: storedOneOf(SEVERITIES, p.severity),
    size: storedOneOf(SIZES, p.size),
    measurement: {
      type: p.measurement_type,
      value: num(p.measurement_value),
      unit: p.measurement_unit,
      length_ft: num(p.length_ft),
      width_ft: num(p.width_ft),
      depth_in: num(p.depth_in),
      area_sqft: p.measurement_type === 'volume' && typeof data.area_sqft === 'number' ? data.area_sqft : null,
    },
    notes: p.notes,
    photos,
  };
}

/** The external pins of assessments (those of `serviceIds` only, when given), in the order made. */
export function externalPins(
  db: Executor,
  firmId: number,
  assessmentIds: number[],
  serviceIds: number[] | null,
): Promise<PinRow[]> {
  if (assessmentIds.length === 0) return Promise.resolve([]);
  let qb = pinRows(db, firmId).where('p.assessment_id', 'in', assessmentIds).where('p.visibility', '=', 'external');
  if (serviceIds !== null) qb = qb.where('p.service_type_id', 'in', serviceIds);
  return qb.orderBy('p.id').execute();
}

/** A roll-up group as the customer pages name it. */
export const customerLabel = (group: Pick<ServiceRollup, 'service_type_id' | 'label'>) =>
  group.service_type_id === null ? OTHER_FINDINGS_LABEL : group.label;

async function reportOf(db: Executor, link: AssessmentShareLink): Promise<AssessmentReport | null> {
  const a = await db
    .selectFrom('site_assessments as a')
    .innerJoin('jobs as j', 'j.id', 'a.job_id')
    .innerJoin('firms as f', 'f.id', 'a.firm_id')
    .leftJoin('locations as l', 'l.id', 'a.location_id')
    .select([
      'a.id',
      'a.title',
      'a.status',
      'a.completed_at',
      'a.created_at',
      'j.address as job_address',
      'l.name as site_name',
      'l.address as site_address',
      'f.name as firm_name',
      'f.timezone',
    ])
    .where('a.id', '=', link.assessment_id)
    .where('a.firm_id', '=', link.firm_id)
    .executeTakeFirst();
  if (!a) return null;
  const scopeIds = scopeOf(link);
  const scope =
    scopeIds === null
      ? null
      : await db
          .selectFrom('assessment_services')
          .select(['id', 'name', 'color', 'position'])
          .where('firm_id', '=', link.firm_id)
          .where('id', 'in', scopeIds)
          .orderBy('position')
          .orderBy('id')
          .execute();
  const pins = await externalPins(db, link.firm_id, [a.id], scopeIds);
  const photos = await externalPinPhotos(
    db,
    pins.map((p) => p.id),
  );
  const { services, severity_totals } = rollUp(pins);
  const pinById = new Map(pins.map((p) => [p.id, p]));
  const groups: ReportGroup[] = services.map(({ pin_ids, photo_count: _photos, ...group }) => ({
    ...group,
    label: customerLabel(group),
    pins: pin_ids.map((id) => reportPin(pinById.get(id)!, photos.get(id) ?? [])),
  }));
  // A scoped link names each of its services, also one with nothing found.
  if (scope) {
    for (const s of scope) {
      if (groups.some((g) => g.service_type_id === s.id)) continue;
      groups.push({
        service_type_id: s.id,
        label: s.name,
        color: s.color,
        pin_count: 0,
        quantities: [],
        severities: { low: 0, medium: 0, high: 0 },
        pins: [],
      });
    }
    const order = new Map(scope.map((s, i) => [s.id, i]));
    groups.sort((x, y) => order.get(x.service_type_id!)! - order.get(y.service_type_id!)!);
  }
  return {
    firmName: a.firm_name,
    timezone: a.timezone,
    title: a.title,
    status: a.status === 'completed' ? 'completed' : 'open',
    completedAt: a.completed_at,
    startedAt: a.created_at,
    siteName: a.site_name,
    address: a.site_address ?? a.job_address,
    scope: scope?.map((s) => ({ id: s.id, name: s.name })) ?? null,
    groups,
    severityTotals: severity_totals,
  };
}
