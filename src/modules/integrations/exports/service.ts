// Dataset streams (document 3, Bulk data export): which dataset a path names, and its export
// for the caller. File exports (POST /v1/exports) are in file-exports.ts.
import type { Readable } from 'node:stream';
import type { ServiceContext } from '#platform/context.ts';
import { notFound } from '#platform/errors.ts';
import { parseUpdatedAfter } from '#platform/pagination.ts';
import { datasetNamed, datasetNames } from './catalog.ts';
import type { Dataset } from '#src/area.ts';
import { datasetStream } from './stream.ts';
import { watermarkFor } from './watermark.ts';

/** The spec's wording for a path that is not <dataset>.jsonl[.gz] (our base path is /v1, see the message). */
const exportPathNotFound = () =>
  notFound('Use /api/v1/exports/<dataset>.jsonl or .jsonl.gz', {
    message:
      'Export paths are /v1/exports/<dataset>.jsonl or /v1/exports/<dataset>.jsonl.gz; GET /v1/exports lists the datasets',
    code: 'invalid_export_path',
    datasets: datasetNames(),
  });

const FILE_NAME = /^(.+)\.jsonl(\.gz)?$/;

/** The dataset and compression a path segment names (`jobs.jsonl`, `jobs.jsonl.gz`), or the spec's 404s. */
export function datasetOfPath(segment: string): { dataset: Dataset; gzip: boolean } {
  const match = FILE_NAME.exec(segment);
  if (!match) throw exportPathNotFound();
  const dataset = datasetNamed(match[1]);
  if (!dataset) {
    throw notFound('Unknown dataset', {
      message: `There is no dataset named "${match[1]}"; GET /v1/exports lists them`,
      code: 'unknown_dataset',
      datasets: datasetNames(),
    });
  }
  return { dataset, gzip: match[2] !== undefined };
}

export interface DatasetExport {
  dataset: Dataset;
  gzip: boolean;
  /** The X-Service-Export-Watermark header: one minute before this export started. */
  watermark: string;
  body: Readable;
}

/** Starts streaming a dataset for the caller (their workspace, their visibility). */
export function exportDataset(ctx: ServiceContext, segment: string, updatedAfter: string | undefined): DatasetExport {
  const { dataset, gzip } = datasetOfPath(segment);
  const after = parseUpdatedAfter(updatedAfter);
  const watermark = watermarkFor(Date.now());
  const body = datasetStream(
    ctx.database.db,
    dataset,
    { firmId: ctx.auth.firm.id, user: ctx.auth.user, updatedAfter: after },
    { gzip },
  );
  return { dataset, gzip, watermark, body };
}
