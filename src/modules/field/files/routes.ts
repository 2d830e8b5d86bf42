// /v1/files, /v1/jobs/{job_id}/files, /v1/client-accounts/{account_id}/files (document 3, Photos,
// photo tags, files) and the Company Library's file routes (/v1/library-files, the links of library
// files to jobs: docs/api-decisions.md, Files and the Company Library). The uploads take
// multipart/form-data only (the multipart plugin is registered for their scope); any other body
// is 400 Upload with multipart/form-data.
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { compileTextValidator } from '#platform/ajv.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { ErrorRef } from '#platform/openapi.ts';
import { type ApiApp, originOf } from '#platform/routes.ts';
import { ListOf, One } from '#platform/schemas.ts';
import { uploadWithMultipart } from './errors.ts';
import { FILE_MAX_BYTES } from './kinds.ts';
import { attachLibraryFile, detachLibraryFile } from './library.ts';
import {
  AccountFilesParams,
  AttachLibraryFileBody,
  CustomerFileForm,
  FileListQuery,
  FileParams,
  FileSchema,
  JobFileForm,
  JobFilesParams,
  JobLibraryFileParams,
  LibraryFileForm,
  UpdateFileBody,
} from './schemas.ts';
import {
  DOWNLOAD_LINK_SECONDS,
  deleteFile,
  downloadLink,
  getFile,
  jobFiles,
  listWorkspaceFiles,
  updateFile,
  uploadFile,
  type UploadTarget,
} from './service.ts';
import { sentFile } from './upload.ts';

const TAGS = ['Files'];
const MB = FILE_MAX_BYTES / 1024 / 1024;

/** The OpenAPI body of an upload: the multipart form (read as it streams, so never validated whole). */
const form = (schema: typeof JobFileForm | typeof CustomerFileForm | typeof LibraryFileForm) => ({
  content: { 'multipart/form-data': { schema } },
});

export function fileRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    await scope.register(multipart, {
      limits: { files: 1, fileSize: FILE_MAX_BYTES, fields: 10, fieldSize: 64 * 1024, parts: 12, headerPairs: 200 },
      throwFileSizeLimit: true,
    });
    // Bodies that are neither multipart nor JSON: the spec's 400, not a 415 (JSON reaches the
    // handler, which answers the same 400 once the owner is known to exist).
    scope.addContentTypeParser('*', (_request, _payload, done) => done(uploadWithMultipart(), undefined));
    // The form schemas document the multipart bodies; the parts are read and checked as they
    // stream (upload.ts), so no body is validated whole here. Paths are, as everywhere.
    scope.setValidatorCompiler(({ schema, httpPart }) =>
      httpPart === 'body' ? () => true : compileTextValidator(schema as object),
    );

    scope.post(
      '/v1/jobs/:job_id/files',
      {
        config: { permissions: ['write_jobs'] },
        schema: {
          tags: TAGS,
          summary:
            `Upload one file to a job (multipart/form-data, file part named file, up to ${MB} MB); ` +
            'customer_visible true needs the job linked to a customer whose portal is on (409 Customer portal not ready)',
          params: JobFilesParams,
          body: form(JobFileForm),
          response: { 201: One(FileSchema), 413: ErrorRef, 503: ErrorRef },
        },
      },
      async (request, reply) => {
        const c = ctx(request);
        const target: UploadTarget = { kind: 'job', jobId: request.params.job_id };
        return reply.status(201).send(await uploadFile(c, target, sentFile(c, request, target)));
      },
    );

    scope.post(
      '/v1/client-accounts/:account_id/files',
      {
        config: { permissions: ['write_jobs'] },
        schema: {
          tags: TAGS,
          summary: `Upload one file to a customer (multipart/form-data: file, description; up to ${MB} MB); source customer`,
          params: AccountFilesParams,
          body: form(CustomerFileForm),
          response: { 201: One(FileSchema), 413: ErrorRef, 503: ErrorRef },
        },
      },
      async (request, reply) => {
        const c = ctx(request);
        const target: UploadTarget = { kind: 'customer', accountId: request.params.account_id };
        return reply.status(201).send(await uploadFile(c, target, sentFile(c, request, target)));
      },
    );

    scope.post(
      '/v1/library-files',
      {
        config: { permissions: ['write_jobs'] },
        schema: {
          tags: TAGS,
          summary: `Upload one file to the Company Library (multipart/form-data: file, description, folder_id; up to ${MB} MB)`,
          body: form(LibraryFileForm),
          response: { 201: One(FileSchema), 413: ErrorRef, 503: ErrorRef },
        },
      },
      async (request, reply) => {
        const c = ctx(request);
        const target: UploadTarget = { kind: 'library' };
        return reply.status(201).send(await uploadFile(c, target, sentFile(c, request, target)));
      },
    );
  });

  app.get(
    '/v1/jobs/:job_id/files',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: TAGS,
        summary: "The job's own files newest first, then the Company Library files linked to it (with attachment)",
        params: JobFilesParams,
        response: { 200: Type.Object({ data: Type.Array(FileSchema) }) },
      },
    },
    async (request) => jobFiles(ctx(request), request.params.job_id),
  );

  app.get(
    '/v1/files',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: TAGS,
        summary: 'Files of the workspace, newest first (created_after: oldest first)',
        querystring: FileListQuery,
        response: { 200: ListOf(FileSchema) },
      },
    },
    async (request) => listWorkspaceFiles(ctx(request), request.query),
  );

  app.get(
    '/v1/files/:id',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: TAGS,
        summary: 'One file, with signed_url: a keyless link that works for one hour',
        params: FileParams,
        response: { 200: One(FileSchema), 503: ErrorRef },
      },
    },
    async (request) => getFile(ctx(request), request.params.id, originOf(request)),
  );

  app.get(
    '/v1/files/:id/download',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: TAGS,
        summary: `Download a file: 302 to a keyless link that works for ${DOWNLOAD_LINK_SECONDS / 60} minutes (follow the redirect)`,
        params: FileParams,
        response: {
          302: {
            description: 'The file is at Location',
            headers: { Location: { type: 'string', description: 'A keyless signed link to the file' } },
            type: 'null',
          },
          503: ErrorRef,
        },
      },
    },
    async (request, reply) => {
      const url = await downloadLink(ctx(request), request.params.id, originOf(request));
      return reply.header('cache-control', 'no-store').redirect(url, 302);
    },
  );

  app.patch(
    '/v1/files/:id',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: TAGS,
        summary:
          'Change a file (only the fields sent): description; audience and customer_visible for job files; folder_id for library files',
        params: FileParams,
        body: UpdateFileBody,
        response: { 200: One(FileSchema) },
      },
    },
    async (request) => updateFile(ctx(request), request.params.id, request.body),
  );

  app.delete(
    '/v1/files/:id',
    {
      config: { permissions: ['write_jobs', 'delete_records'] },
      schema: {
        tags: TAGS,
        summary: 'Delete a file and its stored object (irreversible); a library file leaves every job',
        params: FileParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await deleteFile(ctx(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/v1/jobs/:job_id/library-files',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: TAGS,
        summary:
          "Link a Company Library file to a job (it shows in the job's files with attachment); 200 when it was linked already",
        params: JobFilesParams,
        body: AttachLibraryFileBody,
        response: {
          200: One(FileSchema, { created: Type.Boolean() }),
          201: One(FileSchema, { created: Type.Boolean() }),
        },
      },
    },
    async (request, reply) => {
      const result = await attachLibraryFile(ctx(request), request.params.job_id, request.body.file_id);
      return reply.status(result.created ? 201 : 200).send(result);
    },
  );

  app.delete(
    '/v1/jobs/:job_id/library-files/:file_id',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: TAGS,
        summary: 'Unlink a Company Library file from a job (the file stays in the library and on other jobs)',
        params: JobLibraryFileParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await detachLibraryFile(ctx(request), request.params.job_id, request.params.file_id);
      return reply.status(204).send(null);
    },
  );
}
