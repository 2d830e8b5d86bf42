// The workspace_data file: a ZIP with one <dataset>.jsonl per dataset of the catalog, each
// streamed through the same keyset reader as GET /v1/exports/<dataset>.jsonl, one entry after
// another (yazl opens an entry's stream only when it reaches it), so memory stays flat.
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import type { Executor } from '#db/dialect.ts';
import { datasets } from './catalog.ts';
import type { ExportScope } from '#src/area.ts';
import { datasetLines } from './stream.ts';

export interface ZipOptions {
  /** The entries' modification time (the build's clock). */
  mtime: Date;
  /** Called after every batch of every dataset: the builder renews its lease here. */
  onBatch?: () => Promise<void>;
}

/** Writes the zip to `file` (flushed to disk before returning) and answers the rows per dataset. */
export async function writeWorkspaceZip(
  db: Executor,
  scope: ExportScope,
  file: string,
  options: ZipOptions,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const zip = new yazl.ZipFile();
  const out = fs.createWriteStream(file);
  const written = new Promise<void>((resolve, reject) => {
    // yazl reports a failing entry stream only if told; the zip's error ends the build.
    zip.on('error', reject);
    pipeline(zip.outputStream, out).then(resolve, reject);
  });
  for (const dataset of datasets()) {
    counts[dataset.name] = 0;
    zip.addReadStreamLazy(`${dataset.name}.jsonl`, { mtime: options.mtime }, (open) => {
      const lines = Readable.from(
        datasetLines(db, dataset, scope, {
          onBatch: async (rows) => {
            counts[dataset.name] += rows;
            await options.onBatch?.();
          },
        }),
        { objectMode: false },
      );
      lines.on('error', (err) => zip.emit('error', err));
      open(null, lines);
    });
  }
  zip.end();
  try {
    await written;
  } catch (err) {
    (zip.outputStream as Readable).destroy();
    out.destroy();
    throw err;
  }
  const handle = await fs.promises.open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  return counts;
}
