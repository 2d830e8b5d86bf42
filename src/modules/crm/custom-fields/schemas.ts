// Request and response schemas of custom field definitions and record values (document 2, Custom
// fields and Custom field definition); the service's inputs are their static types.
import { Type, type Static } from '@sinclair/typebox';
import { Body, CustomFieldValuesInput, StringEnum, TEXT_CEILING } from '#platform/schemas.ts';
import { ENTITY_TYPES, FIELD_TYPES, LABEL_MAX } from './rules.ts';

export const EntityType = StringEnum(ENTITY_TYPES);

export const ListFieldsQuery = Type.Object({
  entity_type: Type.Optional(EntityType),
  include_archived: Type.Optional(Type.Boolean({ default: false })),
});

export const CreateFieldBody = Body(
  {
    entity_type: EntityType,
    label: Type.String({ maxLength: TEXT_CEILING, description: `at most ${LABEL_MAX} characters once trimmed` }),
    field_type: StringEnum(FIELD_TYPES, { default: 'text' }),
    options: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 200 }),
    required: Type.Boolean(),
    filterable: Type.Boolean(),
    show_as_flag: Type.Boolean(),
  },
  { required: ['entity_type'] },
);
export type CreateFieldInput = Static<typeof CreateFieldBody>;

export const UpdateFieldBody = Body({
  label: Type.String({ maxLength: TEXT_CEILING, description: `at most ${LABEL_MAX} characters once trimmed` }),
  required: Type.Boolean(),
  section: Type.String({ maxLength: 100 }),
  show_as_flag: Type.Boolean(),
  filterable: Type.Boolean(),
});
export type UpdateFieldInput = Static<typeof UpdateFieldBody>;

export const MoveFieldBody = Body({ direction: StringEnum(['up', 'down']) }, { required: ['direction'] });

export const ValuesBody = Body(
  {
    custom_fields: CustomFieldValuesInput('{key: value}; null or "" clears'),
  },
  { required: ['custom_fields'] },
);

export const ValuesAnswer = Type.Object({
  data: Type.Object({
    entity_type: EntityType,
    id: Type.Integer(),
    custom_fields: Type.Record(Type.String(), Type.Unknown()),
    changed: Type.Array(Type.String()),
  }),
});
