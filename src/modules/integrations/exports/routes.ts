// /v1/exports (document 3, Bulk data export): the dataset catalog, the JSON Lines streams and
// workspace_data file exports; /v1/export-downloads/{token}, the keyless 24-hour link. Bulk
// exports do not count toward a key's usage (document 1, Limits), so none of these routes is
// rate limited; the work a key can queue is bounded by MAX_PENDING_EXPORTS instead.
import type { FastifyRequest } from 'fastify';
import { type ApiApp, originOf } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { IdParam, One } from '#platform/schemas.ts';
import { datasets } from './catalog.ts';
import {
  CatalogAnswer,
  DatasetFileParams,
  DatasetStreamAnswer,
  DatasetStreamQuery,
  DownloadAnswer,
  DownloadParams,
  ExportRequestBody,
} from './schemas.ts';
import { ExportFileSchema, catalogEntry, exportFileObject, exportFilePath } from './serialize.ts';
import { openDownload, readExport, requestExport } from './file-exports.ts';
import { exportDataset } from './service.ts';

const tags = ['Exports'];
const notCounted = { rateLimit: false } as const;

/** The keyless link handed to browsers and download tools: absolute, on the host the caller used. */
function downloadUrl(request: FastifyRequest, token: string | null): string | null {
  return token === null ? null : `${originOf(request)}/v1/export-downloads/${token}`;
}

export function exportRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/exports',
    {
      config: { permissions: ['read_jobs'], ...notCounted },
      schema: {
        tags,
        summary: 'List the export datasets',
        response: { 200: CatalogAnswer },
      },
    },
    async () => ({ data: datasets().map(catalogEntry) }),
  );

  app.get(
    '/v1/exports/:file',
    {
      config: { permissions: ['read_jobs'], ...notCounted },
      // A HEAD would run the whole export only to discard it.
      exposeHeadRoute: false,
      schema: {
        tags,
        summary: 'Stream a dataset as JSON Lines in id order (<dataset>.jsonl, or <dataset>.jsonl.gz gzip-compressed)',
        params: DatasetFileParams,
        querystring: DatasetStreamQuery,
        response: { 200: DatasetStreamAnswer },
      },
    },
    async (request, reply) => {
      const { file } = request.params;
      const { updated_after } = request.query;
      const started = exportDataset(ctx(request), file, updated_after);
      const fileName = `${started.dataset.name}.jsonl${started.gzip ? '.gz' : ''}`;
      return reply
        .header('content-type', started.gzip ? 'application/gzip' : 'application/x-ndjson')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('x-service-export-dataset', started.dataset.name)
        .header('x-service-export-watermark', started.watermark)
        .header('cache-control', 'private, no-store')
        .send(started.body);
    },
  );

  app.post(
    '/v1/exports',
    {
      config: { permissions: ['read_jobs'], ...notCounted },
      schema: {
        tags,
        summary:
          "Request a file export: workspace_data (a ZIP of every dataset, built in the background) or job_cost_out (a job's costs between two dates as CSV, ready at once); downloadable for 24 hours",
        body: ExportRequestBody,
        response: {
          201: {
            description: 'Created ready (job_cost_out): download_url is the keyless link',
            headers: { Location: { type: 'string', description: 'The file export: /v1/exports/files/<id>' } },
            content: { 'application/json': { schema: One(ExportFileSchema) } },
          },
          202: {
            description: 'Accepted: the file is built in the background',
            headers: { Location: { type: 'string', description: 'The file export to poll: /v1/exports/files/<id>' } },
            content: { 'application/json': { schema: One(ExportFileSchema) } },
          },
        },
      },
    },
    async (request, reply) => {
      const file = await requestExport(ctx(request), request.body);
      if (file.status === 'ready') {
        const read = await readExport(ctx(request), file.id);
        return reply
          .status(201)
          .header('location', exportFilePath(file.id))
          .send({ data: exportFileObject(read.file, read.now, downloadUrl(request, read.token)) });
      }
      return reply
        .status(202)
        .header('location', exportFilePath(file.id))
        .send({ data: exportFileObject(file, file.created_at, null) });
    },
  );

  app.get(
    '/v1/exports/files/:id',
    {
      config: { permissions: ['read_jobs'], ...notCounted },
      schema: {
        tags,
        summary: 'Poll a file export; when ready it carries a fresh keyless download_url',
        params: IdParam(),
        response: { 200: One(ExportFileSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { file, now, token } = await readExport(ctx(request), id);
      return { data: exportFileObject(file, now, downloadUrl(request, token)) };
    },
  );

  app.get(
    '/v1/export-downloads/:token',
    {
      config: { public: true, ...notCounted },
      exposeHeadRoute: false,
      schema: {
        tags,
        summary: 'Download a file export (no key: the link is the credential, for 24 hours)',
        security: [],
        params: DownloadParams,
        response: { 200: DownloadAnswer },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      const { file, size, body } = await openDownload(env.database, env.deps.dataDir, token);
      const csv = file.kind === 'job_cost_out';
      return reply
        .header('content-type', csv ? 'text/csv; charset=utf-8' : 'application/zip')
        .header('content-length', size)
        .header('content-disposition', `attachment; filename="${file.kind}-${file.id}.${csv ? 'csv' : 'zip'}"`)
        .header('cache-control', 'private, no-store')
        .send(body);
    },
  );
}
