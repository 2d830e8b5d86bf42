import { Type } from '@sinclair/typebox';
import type { CustomFieldDefinition } from '#db/tables.ts';
import { Nullable } from '#platform/schemas.ts';
import { zWire } from '#platform/time.ts';
import { ENTITY_TYPES, FIELD_TYPES } from './rules.ts';

export const CustomFieldSchema = Type.Object({
  id: Type.Integer(),
  entity_type: Type.String({ enum: [...ENTITY_TYPES] }),
  key: Type.String(),
  label: Type.String(),
  field_type: Type.String({ enum: [...FIELD_TYPES] }),
  options: Type.Array(Type.String()),
  required: Type.Boolean(),
  filterable: Type.Boolean(),
  show_as_flag: Type.Boolean(),
  section: Type.String(),
  position: Type.Integer(),
  archived_at: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export function customFieldObject(d: CustomFieldDefinition) {
  return {
    id: d.id,
    entity_type: d.entity_type,
    key: d.key,
    label: d.label,
    field_type: d.field_type,
    options: JSON.parse(d.options) as string[],
    required: d.required === 1,
    filterable: d.filterable === 1,
    show_as_flag: d.show_as_flag === 1,
    section: d.section,
    position: d.position,
    archived_at: zWire(d.archived_at),
    created_at: zWire(d.created_at),
    updated_at: zWire(d.updated_at),
  };
}
