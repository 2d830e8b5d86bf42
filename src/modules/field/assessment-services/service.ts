// Assessment services: the kinds of finding an assessor pins on a site walk (document 3, Site
// assessments and pins). Every workspace gets the starter set, each linked to the catalog service
// that prices it, so a pin's quantity can reach the job's draft estimate.
import type { Kysely } from 'kysely';
import type { DB } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { nameKey } from '#platform/text.ts';
import { now } from '#platform/time.ts';
import type { MeasurementType } from './schemas.ts';
import { STARTER_ASSESSMENT_SERVICES } from './starter.ts';

/**
 * Adds the starter set to a workspace, linking each to the workspace's catalog service of that
 * name (absent or archived: no link). Used when a workspace is made and by migration 009 for
 * workspaces made before it; a name the workspace has already is left alone.
 */
export async function giveStarterServices(kysely: Kysely<DB>, firmId: number): Promise<void> {
  const wanted = STARTER_ASSESSMENT_SERVICES.flatMap((s) => (s.catalog_service ? [nameKey(s.catalog_service)] : []));
  const catalog = await kysely
    .selectFrom('catalog_services')
    .select(['id', 'name_key'])
    .where('firm_id', '=', firmId)
    .where('name_key', 'in', wanted)
    .where('archived_at', 'is', null)
    .execute();
  const catalogId = new Map(catalog.map((c) => [c.name_key, c.id]));
  const have = new Set(
    (await kysely.selectFrom('assessment_services').select('name_key').where('firm_id', '=', firmId).execute()).map(
      (s) => s.name_key,
    ),
  );
  const at = now();
  const rows = STARTER_ASSESSMENT_SERVICES.filter((s) => !have.has(nameKey(s.name))).map((s, i) => ({
    firm_id: firmId,
    name: s.name,
    name_key: nameKey(s.name),
    service_group: s.group,
    color: s.color,
    measurement_type: s.measurement_type,
    catalog_service_id: s.catalog_service ? (catalogId.get(nameKey(s.catalog_service)) ?? null) : null,
    position: have.size + i + 1,
    created_at: at,
    updated_at: at,
  }));
  if (rows.length) await kysely.insertInto('assessment_services').values(rows).execute();
}

export interface AssessmentServiceRow {
  id: number;
  name: string;
  service_group: string;
  color: string;
  measurement_type: MeasurementType;
  catalog_service_id: number | null;
  catalog_service_name: string | null;
}

/**
 * The workspace's services in their order, with the catalog service each prices. An archived
 * catalog service prices nothing new, so its link reads null until the service is restored.
 */
export function listAssessmentServices(ctx: ServiceContext): Promise<AssessmentServiceRow[]> {
  return ctx.database.db
    .selectFrom('assessment_services as s')
    .leftJoin('catalog_services as c', (join) =>
      join.onRef('c.id', '=', 's.catalog_service_id').on('c.archived_at', 'is', null),
    )
    .select([
      's.id',
      's.name',
      's.service_group',
      's.color',
      's.measurement_type',
      's.catalog_service_id',
      'c.name as catalog_service_name',
    ])
    .where('s.firm_id', '=', ctx.auth.firm.id)
    .orderBy('s.position')
    .orderBy('s.id')
    .execute();
}

export function assessmentServiceObject(s: AssessmentServiceRow) {
  return {
    id: s.id,
    name: s.name,
    group: s.service_group,
    color: s.color,
    measurement_type: s.measurement_type,
    catalog_service:
      s.catalog_service_id !== null && s.catalog_service_name !== null
        ? { id: s.catalog_service_id, name: s.catalog_service_name }
        : null,
  };
}
