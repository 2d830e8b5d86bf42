// /v1/custom-fields and PATCH /v1/{jobs|client-accounts|contacts|locations}/{id}/custom-fields
// (document 2, Custom fields and Custom field definition).
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import type { CustomFieldEntity } from '#db/tables.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { IdParam, One } from '#platform/schemas.ts';
import {
  CreateFieldBody,
  ListFieldsQuery,
  MoveFieldBody,
  UpdateFieldBody,
  ValuesAnswer,
  ValuesBody,
} from './schemas.ts';
import { CustomFieldSchema, customFieldObject } from './serialize.ts';
import {
  archiveField,
  createField,
  listFields,
  moveField,
  restoreField,
  setRecordValues,
  updateField,
} from './service.ts';

/** The record paths that take values, and the definitions' entity type each uses. */
const VALUE_PATHS: [string, CustomFieldEntity, string][] = [
  ['/v1/jobs/:id/custom-fields', 'job', 'Jobs'],
  ['/v1/client-accounts/:id/custom-fields', 'account', 'Customers'],
  ['/v1/contacts/:id/custom-fields', 'contact', 'Contacts'],
  ['/v1/locations/:id/custom-fields', 'location', 'Sites'],
];

export function customFieldRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/custom-fields',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Custom fields'],
        summary: "The workspace's custom fields by entity type, in their order",
        querystring: ListFieldsQuery,
        response: { 200: Type.Object({ data: Type.Array(CustomFieldSchema) }) },
      },
    },
    async (request) => {
      const q = request.query;
      const rows = await listFields(ctx(request), q.entity_type, q.include_archived === true);
      return { data: rows.map(customFieldObject) };
    },
  );

  app.post(
    '/v1/custom-fields',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Custom fields'],
        summary:
          'Add a custom field; an existing label (any case) answers that field (200, created false), restored if archived',
        body: CreateFieldBody,
        response: {
          200: One(CustomFieldSchema, { created: Type.Boolean() }),
          201: One(CustomFieldSchema, { created: Type.Boolean() }),
        },
      },
    },
    async (request, reply) => {
      const { field, created } = await createField(ctx(request), request.body);
      return reply.status(created ? 201 : 200).send({ data: customFieldObject(field), created });
    },
  );

  app.patch(
    '/v1/custom-fields/:id',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Custom fields'],
        summary: 'Edit a custom field (owner key); the key never changes',
        params: IdParam(),
        body: UpdateFieldBody,
        response: { 200: One(CustomFieldSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return { data: customFieldObject(await updateField(ctx(request), id, request.body)) };
    },
  );

  app.post(
    '/v1/custom-fields/:id/move',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Custom fields'],
        summary: 'Move a field up or down among its live fields (owner key)',
        params: IdParam(),
        body: MoveFieldBody,
        response: { 200: One(CustomFieldSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { direction } = request.body;
      return { data: customFieldObject(await moveField(ctx(request), id, direction)) };
    },
  );

  app.delete(
    '/v1/custom-fields/:id',
    {
      config: { permissions: ['write_jobs', 'delete_records'] },
      schema: {
        tags: ['Custom fields'],
        summary: 'Archive a field (owner key); values stay on records, read-only',
        params: IdParam(),
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await archiveField(ctx(request), id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/v1/custom-fields/:id/restore',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Custom fields'],
        summary: 'Restore an archived field at the end of its list (owner key)',
        params: IdParam(),
        response: { 200: One(CustomFieldSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return { data: customFieldObject(await restoreField(ctx(request), id)) };
    },
  );

  for (const [path, entity, tag] of VALUE_PATHS) {
    app.patch(
      path,
      {
        config: { permissions: ['write_jobs'] },
        schema: {
          tags: [tag],
          summary: `Set custom field values of one ${entity}; one bad value saves nothing`,
          params: IdParam(),
          body: ValuesBody,
          response: { 200: ValuesAnswer },
        },
      },
      async (request) => {
        const { id } = request.params;
        const { custom_fields } = request.body;
        return { data: await setRecordValues(ctx(request), entity, id, custom_fields) };
      },
    );
  }
}
