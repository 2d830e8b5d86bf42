// Custom fields (document 2, Custom fields): the workspace's definitions per entity, their
// owner-only setup (edit, move, archive, restore) and the values on jobs, customers, contacts and sites.
import type { Executor } from '#db/dialect.ts';
import type { CustomFieldDefinition, CustomFieldEntity } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inWorkspaceTransaction } from '#platform/context.ts';
import { badRequest, conflict, forbidden, notFound } from '#platform/errors.ts';
import { assertDeletionAllowed } from '#platform/guards.ts';
import { alreadyArchived } from '#platform/records.ts';
import { nameKey } from '#platform/text.ts';
import { now } from '#platform/time.ts';
import { logJobActivity } from '#crm/job-activity/log.ts';
import { findVisibleJob } from '#crm/jobs/access.ts';
import { jobNotFound, saveJobChanges } from '#crm/jobs/service.ts';
import {
  findDefinition,
  findDefinitionByLabel,
  findRecordValues,
  keysOf,
  lastPosition,
  listDefinitions,
  renumber,
  saveRecordValues,
  type RecordEntity,
} from './repo.ts';
import {
  DEFAULT_SECTION,
  ENTITY_TYPES,
  FILTERABLE_ENTITIES,
  LABEL_MAX,
  SECTIONS,
  cleanOptions,
  freeKey,
  slugOf,
} from './rules.ts';
import type { CreateFieldInput, UpdateFieldInput } from './schemas.ts';
import { applyCustomFieldValues, type CustomFieldValues } from './values.ts';

export const customFieldNotFound = () => notFound('Custom field not found');

/** Custom-field setup needs a key made by a workspace owner (document 1, Roles). */
function requireOwner(ctx: ServiceContext): void {
  if (ctx.auth.user.role !== 'owner') {
    throw forbidden('key creator is not an owner', {
      code: 'not_owner',
      message: 'Custom-field setup needs a key created by a workspace owner',
    });
  }
}

function giveAName() {
  return badRequest('Give the field a name.', { field: 'label' });
}

/** The trimmed label, or the spec's 400 when it is missing, blank or too long. */
function cleanLabel(label: string | undefined): string {
  const text = (label ?? '').trim();
  if (text === '') throw giveAName();
  if (Array.from(text).length > LABEL_MAX)
    throw badRequest(`label must be at most ${LABEL_MAX} characters`, { field: 'label' });
  return text;
}

// ---- reads ---------------------------------------------------------------------------------

export async function listFields(ctx: ServiceContext, entity: CustomFieldEntity | undefined, includeArchived: boolean) {
  const rows = await listDefinitions(ctx.database.db, ctx.auth.firm.id, entity, includeArchived);
  const order = (e: string) => (ENTITY_TYPES as readonly string[]).indexOf(e);
  return rows.sort((a, b) => order(a.entity_type) - order(b.entity_type) || a.position - b.position || a.id - b.id);
}

// ---- create --------------------------------------------------------------------------------

/**
 * Creates a field at the end of its entity's list; a label the entity already has (any case and
 * spacing) answers that field instead, restoring it when archived.
 */
export function createField(
  ctx: ServiceContext,
  input: CreateFieldInput,
): Promise<{ field: CustomFieldDefinition; created: boolean }> {
  const firmId = ctx.auth.firm.id;
  const entity = input.entity_type;
  const label = cleanLabel(input.label);
  const fieldType = input.field_type ?? 'text';
  const options = cleanOptions(input.options);
  if (fieldType === 'select' && options.length === 0)
    throw badRequest('Add at least one dropdown option.', { field: 'options' });
  if (input.show_as_flag === true && entity !== 'job') {
    throw badRequest('show_as_flag can only be set on job fields', { field: 'show_as_flag' });
  }
  if (input.filterable === true && !FILTERABLE_ENTITIES.includes(entity)) {
    throw badRequest('filterable can only be set on job, account and contact fields', { field: 'filterable' });
  }
  return inWorkspaceTransaction(ctx, async (trx) => {
    const existing = await findDefinitionByLabel(trx, firmId, entity, nameKey(label));
    if (existing) {
      return { field: await revive(trx, existing), created: false };
    }
    const t = now();
    const inserted = await trx
      .insertInto('custom_field_definitions')
      .values({
        firm_id: firmId,
        entity_type: entity,
        key: freeKey(slugOf(label), await keysOf(trx, firmId, entity)),
        label,
        label_key: nameKey(label),
        field_type: fieldType,
        options: JSON.stringify(fieldType === 'select' ? options : []),
        required: input.required ? 1 : 0,
        filterable: input.filterable ? 1 : 0,
        show_as_flag: input.show_as_flag ? 1 : 0,
        section: DEFAULT_SECTION[entity],
        position: (await lastPosition(trx, firmId, entity)) + 1,
        archived_at: null,
        created_at: t,
        updated_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await renumber(trx, firmId, entity);
    return { field: (await findDefinition(trx, firmId, inserted.id))!, created: true };
  });
}

// ---- owner-only setup ----------------------------------------------------------------------

export function updateField(ctx: ServiceContext, id: number, input: UpdateFieldInput): Promise<CustomFieldDefinition> {
  requireOwner(ctx);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const field = await findDefinition(trx, firmId, id);
    if (!field) throw customFieldNotFound();
    const entity = field.entity_type;
    const changes: Partial<CustomFieldDefinition> = {};
    if (input.label !== undefined) {
      const label = cleanLabel(input.label);
      const holder = await findDefinitionByLabel(trx, firmId, entity, nameKey(label));
      if (holder && holder.id !== field.id) {
        throw badRequest(`A field named "${holder.label}" already exists.`, {
          field: 'label',
          existing_field_id: holder.id,
          ...(holder.archived_at !== null
            ? { message: `The field "${holder.label}" is archived; restore it instead` }
            : {}),
        });
      }
      if (label !== field.label) Object.assign(changes, { label, label_key: nameKey(label) });
    }
    if (input.section !== undefined && input.section !== field.section) {
      if (!SECTIONS[entity].includes(input.section)) {
        throw badRequest(`section must be one of ${SECTIONS[entity].join(', ')}`, { field: 'section' });
      }
      changes.section = input.section;
    }
    if (input.show_as_flag !== undefined) {
      if (entity !== 'job')
        throw badRequest('show_as_flag can only be changed on job fields', { field: 'show_as_flag' });
      changes.show_as_flag = input.show_as_flag ? 1 : 0;
    }
    if (input.filterable !== undefined) {
      if (entity !== 'job') throw badRequest('filterable can only be changed on job fields', { field: 'filterable' });
      changes.filterable = input.filterable ? 1 : 0;
    }
    if (input.required !== undefined) changes.required = input.required ? 1 : 0;
    const differs = (Object.keys(changes) as (keyof CustomFieldDefinition)[]).some((k) => changes[k] !== field[k]);
    if (!differs) return field;
    await trx
      .updateTable('custom_field_definitions')
      .set({ ...changes, updated_at: now() })
      .where('id', '=', id)
      .execute();
    return (await findDefinition(trx, firmId, id))!;
  });
}

/** Swaps the field with its live neighbour; at either end nothing moves. */
export function moveField(ctx: ServiceContext, id: number, direction: 'up' | 'down'): Promise<CustomFieldDefinition> {
  requireOwner(ctx);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const field = await findDefinition(trx, firmId, id);
    if (!field) throw customFieldNotFound();
    if (field.archived_at !== null) {
      throw conflict('archived', {
        code: 'archived',
        message: `The field "${field.label}" is archived; restore it before moving it`,
      });
    }
    const live = await listDefinitions(trx, firmId, field.entity_type, false);
    const at = live.findIndex((d) => d.id === id);
    const neighbour = live[direction === 'up' ? at - 1 : at + 1];
    if (!neighbour) return field;
    const t = now();
    await trx
      .updateTable('custom_field_definitions')
      .set({ position: neighbour.position, updated_at: t })
      .where('id', '=', field.id)
      .execute();
    await trx
      .updateTable('custom_field_definitions')
      .set({ position: field.position, updated_at: t })
      .where('id', '=', neighbour.id)
      .execute();
    await renumber(trx, firmId, field.entity_type);
    return (await findDefinition(trx, firmId, id))!;
  });
}

/** Archives the field: it leaves forms and lists; values stay on records, read-only. */
export async function archiveField(ctx: ServiceContext, id: number): Promise<void> {
  requireOwner(ctx);
  const firmId = ctx.auth.firm.id;
  await inWorkspaceTransaction(ctx, async (trx) => {
    const field = await findDefinition(trx, firmId, id);
    if (!field) throw customFieldNotFound();
    if (field.archived_at !== null) throw alreadyArchived(customFieldNotFound());
    assertDeletionAllowed(ctx);
    const t = now();
    await trx
      .updateTable('custom_field_definitions')
      .set({ archived_at: t, updated_at: t })
      .where('id', '=', id)
      .execute();
    await renumber(trx, firmId, field.entity_type);
  });
}

/** Brings an archived field back at the end of its entity's live fields. */
export function restoreField(ctx: ServiceContext, id: number): Promise<CustomFieldDefinition> {
  requireOwner(ctx);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const field = await findDefinition(trx, firmId, id);
    if (!field) throw customFieldNotFound();
    return revive(trx, field);
  });
}

/** An archived field live again, at the end of its entity's live fields; a live one as it is. */
async function revive(trx: Executor, field: CustomFieldDefinition): Promise<CustomFieldDefinition> {
  if (field.archived_at === null) return field;
  await trx
    .updateTable('custom_field_definitions')
    .set({
      archived_at: null,
      position: (await lastPosition(trx, field.firm_id, field.entity_type)) + 1,
      updated_at: now(),
    })
    .where('id', '=', field.id)
    .execute();
  await renumber(trx, field.firm_id, field.entity_type);
  return (await findDefinition(trx, field.firm_id, field.id))!;
}

// ---- values on records ---------------------------------------------------------------------

export interface ValuesResult {
  entity_type: CustomFieldEntity;
  id: number;
  custom_fields: CustomFieldValues;
  changed: string[];
}

const RECORD_NOT_FOUND: Record<RecordEntity, () => Error> = {
  account: () => notFound('Client account not found'),
  contact: () => notFound('Contact not found'),
  location: () => notFound('Location not found'),
};

function parseValues(json: string): CustomFieldValues {
  const parsed = JSON.parse(json || '{}') as unknown;
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as CustomFieldValues) : {};
}

/**
 * Sets custom field values on one record: every value is checked before anything is written,
 * so one bad value saves nothing. Job changes land in the job's activity log.
 */
export function setRecordValues(
  ctx: ServiceContext,
  entity: CustomFieldEntity,
  id: number,
  input: CustomFieldValues,
): Promise<ValuesResult> {
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    if (entity === 'job') {
      const job = await findVisibleJob(trx, firmId, id, ctx.auth.user);
      if (!job) throw jobNotFound();
      const before = parseValues(job.custom_fields);
      const { values, changed } = await applyCustomFieldValues(trx, firmId, 'job', before, input);
      if (changed.length > 0) {
        await saveJobChanges(trx, job, { custom_fields: JSON.stringify(values) });
        await logJobActivity(trx, {
          firmId,
          jobId: id,
          userId: ctx.auth.user.id,
          kind: 'custom_fields_changed',
          summary: await changeSummary(trx, firmId, changed),
          data: {
            changed,
            before: Object.fromEntries(changed.map((k) => [k, before[k] ?? null])),
            after: Object.fromEntries(changed.map((k) => [k, values[k] ?? null])),
          },
        });
      }
      return { entity_type: entity, id, custom_fields: values, changed };
    }
    const record = await findRecordValues(trx, firmId, entity, id);
    if (!record) throw RECORD_NOT_FOUND[entity]();
    const { values, changed } = await applyCustomFieldValues(
      trx,
      firmId,
      entity,
      parseValues(record.custom_fields),
      input,
    );
    if (changed.length > 0) await saveRecordValues(trx, entity, record.id, JSON.stringify(values));
    return { entity_type: entity, id: record.id, custom_fields: values, changed };
  });
}

/** "Custom fields changed: Gate code, Lots" in the fields' own labels. */
async function changeSummary(trx: Executor, firmId: number, keys: string[]): Promise<string> {
  const defs = await listDefinitions(trx, firmId, 'job', true);
  const labels = keys.map((k) => defs.find((d) => d.key === k)?.label ?? k);
  return `Custom field${labels.length > 1 ? 's' : ''} changed: ${labels.join(', ')}`;
}
