import { findLocation } from '#crm/locations/repo.ts';
import type { Executor } from '#db/dialect.ts';
import type { CustomFieldDefinition, CustomFieldEntity } from '#db/tables.ts';
import { now } from '#platform/time.ts';

export function findDefinition(db: Executor, firmId: number, id: number): Promise<CustomFieldDefinition | undefined> {
  return db
    .selectFrom('custom_field_definitions')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findDefinitionByLabel(
  db: Executor,
  firmId: number,
  entity: CustomFieldEntity,
  labelKey: string,
): Promise<CustomFieldDefinition | undefined> {
  return db
    .selectFrom('custom_field_definitions')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('entity_type', '=', entity)
    .where('label_key', '=', labelKey)
    .executeTakeFirst();
}

export function listDefinitions(
  db: Executor,
  firmId: number,
  entity: CustomFieldEntity | undefined,
  includeArchived: boolean,
): Promise<CustomFieldDefinition[]> {
  let qb = db.selectFrom('custom_field_definitions').selectAll().where('firm_id', '=', firmId);
  if (entity) qb = qb.where('entity_type', '=', entity);
  if (!includeArchived) qb = qb.where('archived_at', 'is', null);
  return qb.orderBy('position').orderBy('id').execute();
}

export async function keysOf(db: Executor, firmId: number, entity: CustomFieldEntity): Promise<Set<string>> {
  const rows = await db
    .selectFrom('custom_field_definitions')
    .select('key')
    .where('firm_id', '=', firmId)
    .where('entity_type', '=', entity)
    .execute();
  return new Set(rows.map((r) => r.key));
}

export async function lastPosition(db: Executor, firmId: number, entity: CustomFieldEntity): Promise<number> {
  const row = await db
    .selectFrom('custom_field_definitions')
    .select((eb) => eb.fn.max('position').as('p'))
    .where('firm_id', '=', firmId)
    .where('entity_type', '=', entity)
    .executeTakeFirst();
  return Number(row?.p ?? 0);
}

/**
 * Numbers the entity's fields from 1: live fields first in their order, then archived ones.
 * Rows whose position changes get a new updated_at.
 */
export async function renumber(db: Executor, firmId: number, entity: CustomFieldEntity): Promise<void> {
  const rows = await db
    .selectFrom('custom_field_definitions')
    .select(['id', 'position', 'archived_at'])
    .where('firm_id', '=', firmId)
    .where('entity_type', '=', entity)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const ordered = [...rows.filter((r) => r.archived_at === null), ...rows.filter((r) => r.archived_at !== null)];
  const t = now();
  for (const [i, row] of ordered.entries()) {
    if (row.position === i + 1) continue;
    await db
      .updateTable('custom_field_definitions')
      .set({ position: i + 1, updated_at: t })
      .where('id', '=', row.id)
      .execute();
  }
}

// ---- values on customers, contacts and sites (jobs change through the jobs module) ------------

const RECORD_TABLES = { account: 'client_accounts', contact: 'contacts', location: 'locations' } as const;
export type RecordEntity = keyof typeof RECORD_TABLES;

/** The record's stored values; a merged-away site's old id answers the site it was merged into. */
export async function findRecordValues(
  db: Executor,
  firmId: number,
  entity: RecordEntity,
  id: number,
): Promise<{ id: number; custom_fields: string } | undefined> {
  if (entity === 'location') return findLocation(db, firmId, id);
  return db
    .selectFrom(RECORD_TABLES[entity])
    .select(['id', 'custom_fields'])
    .where('firm_id', '=', firmId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function saveRecordValues(
  db: Executor,
  entity: RecordEntity,
  id: number,
  customFields: string,
): Promise<void> {
  await db
    .updateTable(RECORD_TABLES[entity])
    .set({ custom_fields: customFields, updated_at: now() })
    .where('id', '=', id)
    .execute();
}
