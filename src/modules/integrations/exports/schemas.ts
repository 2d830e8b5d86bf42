// Request and response schemas of /v1/exports (document 3, Bulk data export) and
// /v1/export-downloads/{token}; the service input is their static type.
import { Type, type Static } from '@sinclair/typebox';
import { Body, RecordId } from '#platform/schemas.ts';
import { CatalogEntrySchema } from './serialize.ts';

export const CatalogAnswer = Type.Object({ data: Type.Array(CatalogEntrySchema) });

/** GET /v1/exports/:file: a dataset as JSON Lines. */
export const DatasetFileParams = Type.Object({
  file: Type.String({ description: '<dataset>.jsonl or <dataset>.jsonl.gz' }),
});
export const DatasetStreamQuery = Type.Object({
  updated_after: Type.Optional(Type.String({ description: 'ISO 8601; rows where any changed-since field is later' })),
});
/** The stream's body, in OpenAPI's words (not a JSON body, so not serialized through a schema). */
export const DatasetStreamAnswer = {
  description: 'One JSON object per line; an empty dataset is an empty body',
  headers: {
    'Content-Disposition': { type: 'string', description: 'attachment; filename="<dataset>.jsonl[.gz]"' },
    'X-Service-Export-Dataset': { type: 'string', description: 'The dataset streamed' },
    'X-Service-Export-Watermark': {
      type: 'string',
      format: 'date-time',
      description:
        'Save it: send it back as updated_after to get only what changed since (it overlaps the stream a little, so dedupe by id)',
    },
    'Cache-Control': { type: 'string', description: 'private, no-store' },
  },
  content: {
    'application/x-ndjson': { schema: { type: 'string' } },
    'application/gzip': { schema: { type: 'string', format: 'binary' } },
  },
};

/** POST /v1/exports: a workspace_data file export. */
export const ExportRequestBody = Body(
  {
    kind: Type.String({
      maxLength: 100,
      description: "workspace_data (a ZIP of every dataset) or job_cost_out (one job's costs between two dates, CSV)",
    }),
    job_id: RecordId({ description: 'job_cost_out only: the job' }),
    from: Type.String({ format: 'date', description: 'job_cost_out only: the first day (YYYY-MM-DD)' }),
    to: Type.String({ format: 'date', description: 'job_cost_out only: the last day (YYYY-MM-DD, inclusive)' }),
  },
  { required: ['kind'] },
);
export type ExportRequest = Static<typeof ExportRequestBody>;

/** GET /v1/export-downloads/:token: the keyless link. */
export const DownloadParams = Type.Object({ token: Type.String() });
export const DownloadAnswer = {
  description: 'workspace_data: a ZIP with one <dataset>.jsonl per dataset; job_cost_out: CSV of the cost rows',
  headers: {
    'Content-Length': { type: 'integer', description: 'The size of the file in bytes' },
    'Content-Disposition': {
      type: 'string',
      description: 'attachment; filename="workspace_data-<id>.zip" or "job_cost_out-<id>.csv"',
    },
    'Cache-Control': { type: 'string', description: 'private, no-store' },
  },
  content: {
    'application/zip': { schema: { type: 'string', format: 'binary' } },
    'text/csv': { schema: { type: 'string' } },
  },
};
