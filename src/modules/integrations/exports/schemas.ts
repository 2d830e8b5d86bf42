// Request and response schemas of /v1/exports (document 3, Bulk data export) and
// /v1/export-downloads/{token}; the service input is their static type.
import { Type, type Static } from '@sinclair/typebox';
import { Body, DateString, RecordId } from '#platform/schemas.ts';
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
    kind: Type.String({ maxLength: 100, description: 'workspace_data (job_cost_out arrives with job costing)' }),
    job_id: RecordId({ description: 'job_cost_out only' }),
    from: DateString,
    to: DateString,
  },
  { required: ['kind'] },
);
export type ExportRequest = Static<typeof ExportRequestBody>;

/** GET /v1/export-downloads/:token: the keyless link. */
export const DownloadParams = Type.Object({ token: Type.String() });
export const DownloadAnswer = {
  description: 'ZIP with one <dataset>.jsonl per dataset',
  headers: {
    'Content-Length': { type: 'integer', description: 'The size of the ZIP in bytes' },
    'Content-Disposition': { type: 'string', description: 'attachment; filename="workspace_data-<id>.zip"' },
    'Cache-Control': { type: 'string', description: 'private, no-store' },
  },
  content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
};
