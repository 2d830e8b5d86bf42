// Unit tests of the custom-field value and setup rules (no server): normalizeValue, slugOf,
// freeKey, cleanOptions.
import { describe, expect, it } from 'vitest';
import type { CustomFieldDefinition } from '#db/tables.ts';
import { ApiError } from '#platform/errors.ts';
import { cleanOptions, freeKey, slugOf } from '#crm/custom-fields/rules.ts';
import { normalizeValue } from '#crm/custom-fields/values.ts';

function def(field_type: string, options: string[] = []): CustomFieldDefinition {
  return {
    id: 1,
    firm_id: 1,
    entity_type: 'job',
    key: 'k',
    label: 'K',
    label_key: 'k',
    field_type,
    options: JSON.stringify(options),
    required: 0,
    filterable: 0,
    show_as_flag: 0,
    section: 'job_details',
    position: 1,
    archived_at: null,
    created_at: '2026-01-01T00:00:00.000000',
    updated_at: '2026-01-01T00:00:00.000000',
  };
}

function refused(d: CustomFieldDefinition, value: unknown): ApiError {
  try {
    normalizeValue(d, value);
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error(`${JSON.stringify(value)} was accepted`);
}

describe('normalizeValue', () => {
  it('null and "" clear every type (undefined)', () => {
    for (const type of ['text', 'url', 'number', 'date', 'select', 'checkbox']) {
      expect(normalizeValue(def(type, ['A']), null)).toBeUndefined();
      expect(normalizeValue(def(type, ['A']), '')).toBeUndefined();
    }
  });

  it('text and url: strings up to 500 code points, kept as sent', () => {
    expect(normalizeValue(def('text'), ' hi ')).toBe(' hi ');
    expect(normalizeValue(def('url'), '😀'.repeat(500))).toBe('😀'.repeat(500));
    const err = refused(def('text'), 'x'.repeat(501));
    expect(err.status).toBe(400);
    expect(err.body).toMatchObject({
      code: 'invalid_custom_field',
      field: 'k',
      message: 'K: must be at most 500 characters',
    });
    expect(refused(def('url'), 5).body.message).toBe('K: must be text');
  });

  it('number: finite numbers and numeric strings', () => {
    expect(normalizeValue(def('number'), '-0.5')).toBe(-0.5);
    expect(normalizeValue(def('number'), '.5')).toBe(0.5);
    expect(normalizeValue(def('number'), '+3')).toBe(3);
    for (const bad of ['0x10', 'Infinity', 'NaN', '1 2', false, [1]]) refused(def('number'), bad);
  });

  it('date: real calendar days only', () => {
    expect(normalizeValue(def('date'), '2024-02-29')).toBe('2024-02-29');
    for (const bad of ['2023-02-29', '2024-13-01', '2024-1-01', ' 2024-01-01']) refused(def('date'), bad);
  });

  it('select: any case and surrounding spaces, answered as spelled in the options', () => {
    const d = def('select', ['Board Member', 'Manager']);
    expect(normalizeValue(d, 'board member')).toBe('Board Member');
    expect(normalizeValue(d, '  MANAGER ')).toBe('Manager');
    expect(refused(d, 'Owner').body.message).toBe('K: must be one of Board Member, Manager');
    refused(d, true);
  });

  it('checkbox: booleans and true/false/yes/no words', () => {
    const d = def('checkbox');
    expect([true, false, 'Yes', 'NO', ' true ', 'False'].map((v) => normalizeValue(d, v))).toEqual([
      true,
      false,
      true,
      false,
      true,
      false,
    ]);
    for (const bad of [0, 1, 'on', 'off', 'y']) refused(d, bad);
  });
});

describe('setup rules', () => {
  it('slugOf: lower-case letters and digits joined by single underscores', () => {
    expect(slugOf('Gate Code')).toBe('gate_code');
    expect(slugOf('  # of  lots (total) ')).toBe('of_lots_total');
    expect(slugOf('Ñandú 2')).toBe('nandu_2');
    expect(slugOf('☃')).toBe('field');
  });

  it('freeKey: base, then _2, _3 ...', () => {
    expect(freeKey('a', new Set())).toBe('a');
    expect(freeKey('a', new Set(['a']))).toBe('a_2');
    expect(freeKey('a', new Set(['a', 'a_2', 'a_3']))).toBe('a_4');
  });

  it('cleanOptions: trimmed, blanks and repeats in any case dropped, order kept', () => {
    expect(cleanOptions([' b ', 'A', 'B', '', 'a', 'c'])).toEqual(['b', 'A', 'c']);
    expect(cleanOptions(undefined)).toEqual([]);
  });
});
