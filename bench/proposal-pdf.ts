// Proposal PDF benchmark (docs/performance.md, "Proposal PDF"): what GET /v1/proposals/{id}/pdf
// spends outside the database on a large proposal, 100 lines and 10 photos: reading the photos
// from storage and re-encoding them for the page (pdfPhotoBytes), then laying out and writing the
// PDF (renderProposalPdf). The target: under 500 ms for the two together.
//
//   npm run bench:proposal-pdf                 30 timed runs after 3 warm-up runs
//   npm run bench:proposal-pdf -- --runs=50    more runs
//   npm run bench:proposal-pdf -- --quick      10 timed runs after 1 warm-up run
//   npm run bench:proposal-pdf -- --smoke      seconds, for CI (bench/mode.ts): 2 timed runs
//
// The photos are 3000×2000 JPEGs (6 megapixels, a phone photo's size and roughly its file size:
// smooth gradients with fine texture, so they neither compress to nothing nor to noise), drawn
// once and put in the local storage adapter in a temp directory, as the route reads them. The
// two parts are timed on their own as well, so a regression shows where it is.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { systemClock } from '#platform/clock.ts';
import { LocalStorage } from '#platform/storage/local.ts';
import type { PhotoFile } from '#estimating/proposals/load.ts';
import { renderProposalPdf } from '#estimating/proposals/pdf.ts';
import { pdfPhotoBytes } from '#estimating/proposals/pdf-photos.ts';
import { documentOf, line } from '#test/estimating/proposals/fixture.ts';
import { fmt, loadNow, ms, revision } from './load.ts';
import { MODE_LABEL, sized } from './mode.ts';

const RUNS = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice(7) ?? sized(30, 10, 2));
const WARMUP = sized(3, 1, 1);
const LINES = 100;
const PHOTOS = 10;
const TARGET_MS = 500;

/** A 3000×2000 photo-like JPEG: a lit gradient with texture (deterministic per seed). */
async function photo(seed: number): Promise<Buffer> {
  const width = 3000;
  const height = 2000;
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed * 2654435761;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      state = (state * 1103515245 + 12345) >>> 0;
      const grain = ((state >>> 16) & 31) - 16;
      const i = (y * width + x) * 3;
      const light = (x / width) * 80 + (y / height) * 60;
      pixels[i] = Math.max(0, Math.min(255, 70 + light + grain + seed * 7));
      pixels[i + 1] = Math.max(0, Math.min(255, 75 + light * 0.9 + grain));
      pixels[i + 2] = Math.max(0, Math.min(255, 80 + light * 0.7 + grain - seed * 3));
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 88 })
    .toBuffer();
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-bench-pdf-'));
  try {
    const storage = new LocalStorage({ dataDir, clock: systemClock });
    const files = new Map<number, PhotoFile>();
    let storedBytes = 0;
    for (let id = 1; id <= PHOTOS; id++) {
      const bytes = await photo(id);
      storedBytes += bytes.length;
      const key = `firms/1/photos/bench-${id}.jpg`;
      await storage.put(key, bytes, { contentType: 'image/jpeg' });
      files.set(id, { id, storage_key: key, thumbnail_key: null, content_type: 'image/jpeg' });
    }
    const document = documentOf({
      lines: Array.from({ length: LINES }, (_, i) => line(i + 1, { optional: i >= LINES - 5 })),
      taxRate: 0.0825,
      photos: [...files.keys()].map((id) => ({
        id,
        title: `Site photo ${id}`,
        caption: 'Cracking along the drive lane, to be routed and filled before sealcoat.',
        taken_on: '2026-10-14',
      })),
      sections: (s) => {
        s.deposit_percent = 25;
        s.photo_layout = 'grid';
      },
    });

    const photosMs: number[] = [];
    const renderMs: number[] = [];
    const totalMs: number[] = [];
    let pages = 0;
    let pdfBytes = 0;
    for (let run = 0; run < WARMUP + RUNS; run++) {
      const start = performance.now();
      const bytes = await pdfPhotoBytes(storage, files);
      const middle = performance.now();
      const pdf = await renderProposalPdf({ document, photos: bytes, signature: null });
      const end = performance.now();
      if (bytes.size !== PHOTOS) throw new Error(`only ${bytes.size} of ${PHOTOS} photos were read`);
      if (run < WARMUP) continue;
      photosMs.push(middle - start);
      renderMs.push(end - middle);
      totalMs.push(end - start);
      pdfBytes = pdf.length;
      pages = (pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;
    }
    const row = (name: string, times: number[]) => {
      const sorted = [...times].sort((a, b) => a - b);
      return `| ${name} | ${ms(percentile(sorted, 50))} | ${ms(percentile(sorted, 95))} | ${ms(sorted[sorted.length - 1])} |`;
    };
    const p50 = [...totalMs].sort((a, b) => a - b)[Math.ceil(totalMs.length / 2) - 1];
    const p95 = percentile(
      [...totalMs].sort((a, b) => a - b),
      95,
    );
    console.log(
      [
        `Proposal PDF benchmark${MODE_LABEL}, ${new Date().toISOString().slice(0, 10)}, ${revision()}`,
        `${LINES} lines (5 optional), ${PHOTOS} photos of 3000×2000 (${fmt(storedBytes / PHOTOS / 1024)} KiB each, local storage); ` +
          `${RUNS} runs after ${WARMUP} warm-up; ${os.cpus().length} cores, load ${loadNow()}`,
        `Output: ${pages} pages, ${fmt(pdfBytes / 1024)} KiB`,
        '',
        '| Step | p50 ms | p95 ms | max ms |',
        '|---|---:|---:|---:|',
        row('pdfPhotoBytes (read, decode, resize, JPEG)', photosMs),
        row('renderProposalPdf (layout and write)', renderMs),
        row('both', totalMs),
        '',
        `p50 ${ms(p50)} ms, p95 ${ms(p95)} ms; target < ${TARGET_MS} ms: ${p95 < TARGET_MS ? 'met' : 'NOT met'} (at p95).`,
      ].join('\n'),
    );
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
