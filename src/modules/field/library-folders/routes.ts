// /v1/library-folders: the Company Library's folders (document 3 shows library files with a
// folder {id, name}; the endpoints are ours: docs/api-decisions.md, Files and the Company Library).
import { Type } from '@sinclair/typebox';
import { contextFor, type Env } from '#platform/context.ts';
import type { ApiApp } from '#platform/routes.ts';
import { One } from '#platform/schemas.ts';
import {
  CreateLibraryFolderBody,
  LibraryFolderParams,
  LibraryFolderSchema,
  UpdateLibraryFolderBody,
} from './schemas.ts';
import { createLibraryFolder, deleteLibraryFolder, listLibraryFolders, updateLibraryFolder } from './service.ts';

const TAGS = ['Files'];

export function libraryFolderRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/library-folders',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: TAGS,
        summary: "The Company Library's folders, A to Z, with how many files each holds",
        response: { 200: Type.Object({ data: Type.Array(LibraryFolderSchema) }) },
      },
    },
    async (request) => listLibraryFolders(ctx(request)),
  );

  app.post(
    '/v1/library-folders',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: TAGS,
        summary: 'Create a Company Library folder; a taken name (any case) is 409 with the existing folder',
        body: CreateLibraryFolderBody,
        response: { 201: One(LibraryFolderSchema) },
      },
    },
    async (request, reply) => reply.status(201).send(await createLibraryFolder(ctx(request), request.body)),
  );

  app.patch(
    '/v1/library-folders/:id',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: TAGS,
        summary: 'Rename a Company Library folder',
        params: LibraryFolderParams,
        body: UpdateLibraryFolderBody,
        response: { 200: One(LibraryFolderSchema) },
      },
    },
    async (request) => updateLibraryFolder(ctx(request), request.params.id, request.body),
  );

  app.delete(
    '/v1/library-folders/:id',
    {
      config: { permissions: ['write_jobs', 'delete_records'] },
      schema: {
        tags: TAGS,
        summary: 'Delete an empty Company Library folder (409 Library folder not empty while it holds files)',
        params: LibraryFolderParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await deleteLibraryFolder(ctx(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
}
