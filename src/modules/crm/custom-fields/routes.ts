// /v1/custom-fields and PATCH /v1/{jobs|client-accounts|contacts|locations}/{id}/custom-fields
// (document 2, Custom fields and Custom field definition).
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import type { CustomFieldEntity } from '#db/tables.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { Body, CustomFieldValuesInput, IdParam, One, TEXT_CEILING } from '#platform/schemas.ts';
import { ENTITY_TYPES, FIELD_TYPES, LABEL_MAX } from './rules.ts';
import { CustomFieldSchema, customFieldObject } from './serialize.ts';
import {
  archiveField, createField, listFields, moveField, restoreField, setRecordValues, updateField,
  type CreateFieldInput, type UpdateFieldInput,
} from './service.ts';
import type { CustomFieldValues } from './values.ts';

const EntityType = Type.String({ enum: [...ENTITY_TYPES] });
const Values = CustomFieldValuesInput('{key: value}; null or "" clears');
const ValuesAnswer = Type.Object({
  data: Type.Object({
    entity_type: EntityType,
    id: Type.Integer(),
    custom_fields: Type.Record(Type.String(), Type.Unknown()),
    changed: Type.Array(Type.String()),
  }),
});

/** The record paths that take values, and the definitions' entity type each uses. */
const VALUE_PATHS: [string, CustomFieldEntity, string][] = [
  ['/v1/jobs/:id/custom-fields', 'job', 'Jobs'],
  ['/v1/client-accounts/:id/custom-fields', 'account', 'Customers'],
  ['/v1/contacts/:id/custom-fields', 'contact', 'Contacts'],
  ['/v1/locations/:id/custom-fields', 'location', 'Sites'],
];

export function customFieldRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get('/v1/custom-fields', {
    config: { permissions: ['read_jobs'] },
    schema: {
      tags: ['Custom fields'], summary: "The workspace's custom fields by entity type, in their order",
      querystring: Type.Object({
        entity_type: Type.Optional(EntityType),
        include_archived: Type.Optional(Type.Boolean({ default: false })),
      }),
      response: { 200: Type.Object({ data: Type.Array(CustomFieldSchema) }) },
    },
  }, async (request) => {
    const q = request.query as { entity_type?: CustomFieldEntity; include_archived?: boolean };
    const rows = await listFields(ctx(request), q.entity_type, q.include_archived === true);
    return { data: rows.map(customFieldObject) };
  });

  app.post('/v1/custom-fields', {
    config: { permissions: ['write_jobs'] },
    schema: {
      tags: ['Custom fields'],
      summary: 'Add a custom field; an existing label (any case) answers that field (200, created false), restored if archived',
      body: Body({
        entity_type: EntityType,
        label: Type.String({ maxLength: TEXT_CEILING, description: `at most ${LABEL_MAX} characters once trimmed` }),
        field_type: Type.String({ enum: [...FIELD_TYPES], default: 'text' }),
        options: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 200 }),
        required: Type.Boolean(),
        filterable: Type.Boolean(),
        show_as_flag: Type.Boolean(),
      }, { required: ['entity_type'] }),
      response: { 200: One(CustomFieldSchema, { created: Type.Boolean() }), 201: One(CustomFieldSchema, { created: Type.Boolean() }) },
    },
  }, async (request, reply) => {
    const { field, created } = await createField(ctx(request), request.body as CreateFieldInput);
    return reply.status(created ? 201 : 200).send({ data: customFieldObject(field), created });
  });

  app.patch('/v1/custom-fields/:id', {
    config: { permissions: ['write_jobs'] },
    schema: {
      tags: ['Custom fields'], summary: 'Edit a custom field (owner key); the key never changes',
      params: IdParam(),
      body: Body({
        label: Type.String({ maxLength: TEXT_CEILING, description: `at most ${LABEL_MAX} characters once trimmed` }),
        required: Type.Boolean(),
        section: Type.String({ maxLength: 100 }),
        show_as_flag: Type.Boolean(),
        filterable: Type.Boolean(),
      }),
      response: { 200: One(CustomFieldSchema) },
    },
  }, async (request) => {
    const { id } = request.params as { id: number };
    return { data: customFieldObject(await updateField(ctx(request), id, request.body as UpdateFieldInput)) };
  });

  app.post('/v1/custom-fields/:id/move', {
    config: { permissions: ['write_jobs'] },
    schema: {
      tags: ['Custom fields'], summary: 'Move a field up or down among its live fields (owner key)',
      params: IdParam(),
      body: Body({ direction: Type.String({ enum: ['up', 'down'] }) }, { required: ['direction'] }),
      response: { 200: One(CustomFieldSchema) },
    },
  }, async (request) => {
    const { id } = request.params as { id: number };
    const { direction } = request.body as { direction: 'up' | 'down' };
    return { data: customFieldObject(await moveField(ctx(request), id, direction)) };
  });

  app.delete('/v1/custom-fields/:id', {
    config: { permissions: ['write_jobs', 'delete_records'] },
    schema: {
      tags: ['Custom fields'], summary: 'Archive a field (owner key); values stay on records, read-only',
      params: IdParam(), response: { 204: Type.Null() },
    },
  }, async (request, reply) => {
    const { id } = request.params as { id: number };
    await archiveField(ctx(request), id);
    return reply.status(204).send();
  });

  app.post('/v1/custom-fields/:id/restore', {
    config: { permissions: ['write_jobs'] },
    schema: {
      tags: ['Custom fields'], summary: 'Restore an archived field at the end of its list (owner key)',
      params: IdParam(), response: { 200: One(CustomFieldSchema) },
    },
  }, async (request) => {
    const { id } = request.params as { id: number };
    return { data: customFieldObject(await restoreField(ctx(request), id)) };
  });

  for (const [path, entity, tag] of VALUE_PATHS) {
    app.patch(path, {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: [tag], summary: `Set custom field values of one ${entity}; one bad value saves nothing`,
        params: IdParam(),
        body: Body({ custom_fields: Values }, { required: ['custom_fields'] }),
        response: { 200: ValuesAnswer },
      },
    }, async (request) => {
      const { id } = request.params as { id: number };
      const { custom_fields } = request.body as { custom_fields: CustomFieldValues };
      return { data: await setRecordValues(ctx(request), entity, id, custom_fields) };
    });
  }
}
