// Notes and logged interactions: POST/GET /v1/jobs/{job_id}/notes, /v1/contacts/{contact_id}/notes,
// /v1/client-accounts/{account_id}/notes, and /v1/notes/{id} (read, update, delete).
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { IdParam, ListOf, One, RecordId } from '#platform/schemas.ts';
import type { NoteParentColumn } from './repo.ts';
import { CreateNoteBody, ListNotesQuery, UpdateNoteBody } from './schemas.ts';
import { NoteSchema } from './serialize.ts';
import { createNote, deleteNote, getNote, listNotesOf, updateNote } from './service.ts';

const PARENTS: { path: string; param: string; column: NoteParentColumn; tag: string; label: string }[] = [
  { path: '/v1/jobs/:job_id/notes', param: 'job_id', column: 'job_id', tag: 'Jobs', label: 'a job' },
  {
    path: '/v1/contacts/:contact_id/notes',
    param: 'contact_id',
    column: 'contact_id',
    tag: 'Contacts',
    label: 'a person',
  },
  {
    path: '/v1/client-accounts/:account_id/notes',
    param: 'account_id',
    column: 'client_account_id',
    tag: 'Customers',
    label: 'a customer',
  },
];

export function noteRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  for (const parent of PARENTS) {
    app.post(
      parent.path,
      {
        config: { permissions: ['write_jobs'] },
        schema: {
          tags: [parent.tag, 'Notes'],
          summary: `Add a note (or log a call, email or meeting) on ${parent.label}`,
          params: Type.Object({ [parent.param]: RecordId() }),
          body: CreateNoteBody,
          response: { 201: One(NoteSchema) },
        },
      },
      async (request, reply) => {
        const id = request.params[parent.param];
        const note = await createNote(ctx(request), { column: parent.column, id }, request.body);
        return reply.status(201).send({ data: note });
      },
    );

    app.get(
      parent.path,
      {
        config: { permissions: ['read_jobs'] },
        schema: {
          tags: [parent.tag, 'Notes'],
          summary: `Notes on ${parent.label}, newest first`,
          params: Type.Object({ [parent.param]: RecordId() }),
          querystring: ListNotesQuery,
          response: { 200: ListOf(NoteSchema) },
        },
      },
      async (request) => {
        const id = request.params[parent.param];
        const q = request.query;
        const page = pageOf(q);
        const { data, total } = await listNotesOf(
          ctx(request),
          { column: parent.column, id },
          { type: q.type, pinned: q.pinned },
          page,
        );
        return listEnvelope(data, total, page);
      },
    );
  }

  app.get(
    '/v1/notes/:id',
    {
      config: { permissions: ['read_jobs'] },
      schema: { tags: ['Notes'], summary: 'Read a note', params: IdParam(), response: { 200: One(NoteSchema) } },
    },
    async (request) => {
      const { id } = request.params;
      return { data: await getNote(ctx(request), id) };
    },
  );

  app.patch(
    '/v1/notes/:id',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Notes'],
        summary: 'Change a note: content, type, occurred_at, pinned',
        params: IdParam(),
        body: UpdateNoteBody,
        response: { 200: One(NoteSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return { data: await updateNote(ctx(request), id, request.body) };
    },
  );

  app.delete(
    '/v1/notes/:id',
    {
      config: { permissions: ['write_jobs', 'delete_records'] },
      schema: {
        tags: ['Notes'],
        summary: 'Delete a note, permanently',
        params: IdParam(),
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await deleteNote(ctx(request), id);
      return reply.status(204).send(null);
    },
  );
}
