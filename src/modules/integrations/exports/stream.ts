// A dataset as JSON Lines, read in keyset batches so memory stays flat however large the
// workspace: one batch is read, turned into text and handed on; the next is read only when the
// consumer (a socket, gzip, a zip entry) asks for more, and never once it has gone away.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { Executor } from '#db/dialect.ts';
import type { Dataset, ExportScope } from '#src/area.ts';

/** Rows per query: large enough that a query's cost is spread thin, small enough to hold briefly. */
export const EXPORT_BATCH_SIZE = 1000;

export interface LineOptions {
  batchSize?: number;
  /** Called after each batch is read (the workspace file counts rows and renews its lease here). */
  onBatch?: (rows: number) => void | Promise<void>;
}

/** The dataset's rows as text chunks of whole lines, one chunk per batch, in id order. */
export async function* datasetLines(
  db: Executor,
  dataset: Dataset,
  scope: ExportScope,
  options: LineOptions = {},
): AsyncGenerator<string> {
  const limit = options.batchSize ?? EXPORT_BATCH_SIZE;
  let afterId = 0;
  for (;;) {
    const rows = await dataset.readBatch(db, { ...scope, afterId, limit });
    if (rows.length === 0) return;
    await options.onBatch?.(rows.length);
    let chunk = '';
    for (const row of rows) chunk += JSON.stringify(dataset.toRow(row)) + '\n';
    yield chunk;
    // A short batch is the last one: no query just to learn that.
    if (rows.length < limit) return;
    afterId = rows[rows.length - 1].id;
  }
}

/**
 * The dataset as a byte stream (gzip-compressed when asked). Destroying it (the client went
 * away) ends the generator, so no further batch is read.
 */
export function datasetStream(
  db: Executor,
  dataset: Dataset,
  scope: ExportScope,
  options: { gzip: boolean } & LineOptions,
): Readable {
  const lines = Readable.from(datasetLines(db, dataset, scope, options), { objectMode: false });
  if (!options.gzip) return lines;
  // pipeline destroys both streams when either fails or the reader closes early.
  return pipeline(lines, createGzip(), () => {});
}
