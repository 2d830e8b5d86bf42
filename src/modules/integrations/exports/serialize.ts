// Wire shapes of the exports area: the catalog entry of GET /v1/exports and the file export of
// POST /v1/exports (docs/api-decisions.md, Bulk export).
import { Type } from '@sinclair/typebox';
import type { ExportFile, ExportFileStatus } from '#db/tables.ts';
import { Nullable, NullableObject } from '#platform/schemas.ts';
import { zWire } from '#platform/time.ts';
import type { Dataset } from '#src/area.ts';

export const CatalogEntrySchema = Type.Object({
  dataset: Type.String(),
  description: Type.String(),
  changed_since_fields: Type.Array(Type.String()),
  url: Type.String({ description: 'API path of the JSON Lines stream (add .gz for gzip)' }),
});

export function datasetPath(name: string): string {
  return `/v1/exports/${name}.jsonl`;
}

export function catalogEntry(d: Dataset) {
  return {
    dataset: d.name,
    description: d.description,
    changed_since_fields: [...d.changedSinceFields],
    url: datasetPath(d.name),
  };
}

const STATUSES: ExportFileStatus[] = ['pending', 'ready', 'failed', 'expired'];

export const ExportFileSchema = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  status: Type.Union(STATUSES.map((s) => Type.Literal(s))),
  url: Type.String({ description: 'API path to poll (needs the key)' }),
  download_url: Nullable(Type.String({ description: 'keyless link to the zip, until expires_at; null unless ready' })),
  expires_at: Type.String(),
  size_bytes: Nullable(Type.Integer()),
  row_counts: NullableObject(Type.Record(Type.String(), Type.Integer())),
  watermark: Nullable(Type.String({ description: 'send as updated_after to pull what changed since this file' })),
  error: Nullable(Type.String()),
  created_at: Type.String(),
  completed_at: Nullable(Type.String()),
});

export function exportFilePath(id: number): string {
  return `/v1/exports/files/${id}`;
}

/** The status a reader sees: a file past its 24 hours is expired even before the sweep deletes it. */
export function statusAt(file: Pick<ExportFile, 'status' | 'expires_at'>, now: string): ExportFileStatus {
  return (file.status === 'ready' || file.status === 'pending') && file.expires_at <= now ? 'expired' : file.status;
}

export function exportFileObject(file: ExportFile, now: string, downloadUrl: string | null) {
  return {
    id: file.id,
    kind: file.kind,
    status: statusAt(file, now),
    url: exportFilePath(file.id),
    download_url: downloadUrl,
    expires_at: zWire(file.expires_at),
    size_bytes: file.size_bytes === null ? null : Number(file.size_bytes),
    row_counts: file.row_counts === null ? null : (JSON.parse(file.row_counts) as Record<string, number>),
    watermark: zWire(file.watermark),
    error: file.error,
    created_at: zWire(file.created_at),
    completed_at: zWire(file.completed_at),
  };
}
