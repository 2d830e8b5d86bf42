// The value rules of custom fields (document 2, Custom field definition): every value of a
// write is checked against the workspace's definitions before anything is saved.
import type { Executor } from '#db/dialect.ts';
import type { CustomFieldDefinition, CustomFieldEntity } from '#db/tables.ts';
import { badRequest } from '#platform/errors.ts';
import { isDate } from '#platform/time.ts';

export type CustomFieldValues = Record<string, unknown>;

const TEXT_MAX = 500;

export function definitionsOf(
  db: Executor,
  firmId: number,
  entity: CustomFieldEntity,
): Promise<CustomFieldDefinition[]> {
  return db
    .selectFrom('custom_field_definitions')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('entity_type', '=', entity)
    .orderBy('position')
    .execute();
}

function invalid(def: CustomFieldDefinition, why: string) {
  return badRequest(`Invalid value for custom field ${def.key}`, {
    code: 'invalid_custom_field',
    field: def.key,
    message: `${def.label}: ${why}`,
  });
}

/** The stored form of one value, or undefined when it clears the field. Throws invalid_custom_field. */
export function normalizeValue(def: CustomFieldDefinition, value: unknown): unknown {
  if (value === null || value === '') return undefined;
  switch (def.field_type) {
    case 'text':
    case 'url': {
      if (typeof value !== 'string') throw invalid(def, 'must be text');
      if (Array.from(value).length > TEXT_MAX) throw invalid(def, `must be at most ${TEXT_MAX} characters`);
      return value;
    }
    case 'number': {
      const n =
        typeof value === 'number'
          ? value
          : typeof value === 'string' &&
              value.trim() !== '' &&
              /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value.trim())
            ? Number(value.trim())
            : NaN;
      if (!Number.isFinite(n)) throw invalid(def, 'must be a number');
      return n;
    }
    case 'date': {
      if (typeof value !== 'string' || !isDate(value)) throw invalid(def, 'must be a date YYYY-MM-DD');
      return value;
    }
    case 'select': {
      const options = JSON.parse(def.options) as string[];
      const match =
        typeof value === 'string' ? options.find((o) => o.toLowerCase() === value.trim().toLowerCase()) : undefined;
      if (match === undefined) throw invalid(def, `must be one of ${options.join(', ')}`);
      return match;
    }
    case 'checkbox': {
      if (typeof value === 'boolean') return value;
      const word = typeof value === 'string' ? value.trim().toLowerCase() : '';
      if (word === 'true' || word === 'yes') return true;
      if (word === 'false' || word === 'no') return false;
      throw invalid(def, 'must be true, false, yes or no');
    }
    default:
      throw invalid(def, `has an unknown type ${def.field_type}`);
  }
}

/**
 * Applies `input` ({key: value}, null or '' clears) to a record's `current` values. Every key is
 * checked first: unknown keys are one 400 unknown_custom_fields listing them all; a bad value is
 * 400 invalid_custom_field naming it; an archived field is read-only (invalid_custom_field).
 * Returns the new values and the keys whose stored value changed; nothing is written here.
 */
export async function applyCustomFieldValues(
  db: Executor,
  firmId: number,
  entity: CustomFieldEntity,
  current: CustomFieldValues,
  input: CustomFieldValues,
): Promise<{ values: CustomFieldValues; changed: string[] }> {
  const keys = Object.keys(input);
  if (keys.length === 0) return { values: current, changed: [] };
  const defs = new Map((await definitionsOf(db, firmId, entity)).map((d) => [d.key, d]));
  const unknown = keys.filter((k) => !defs.has(k));
  if (unknown.length > 0) {
    throw badRequest(`Unknown custom fields: ${unknown.join(', ')}`, {
      code: 'unknown_custom_fields',
      fields: unknown,
      message: `No ${entity} custom field has the key ${unknown.join(', ')}; GET /v1/custom-fields?entity_type=${entity} lists them`,
    });
  }
  const values: CustomFieldValues = { ...current };
  const changed: string[] = [];
  for (const key of keys) {
    const def = defs.get(key)!;
    const next = normalizeValue(def, input[key]);
    if (def.archived_at !== null && JSON.stringify(next) !== JSON.stringify(current[key])) {
      throw invalid(def, 'the field is archived and its value is read-only');
    }
    if (JSON.stringify(next) === JSON.stringify(current[key])) continue;
    if (next === undefined) delete values[key];
    else values[key] = next;
    changed.push(key);
  }
  return { values, changed };
}
