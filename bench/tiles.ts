// The imagery baseline of the benches that look at a place (bench/measurement.ts, bench/landscape.ts,
// bench/condition.ts): the tiles a mosaic of a place fetches, fetched (and decoded to raw pixels
// with sharp) and nothing else, as many at a time as the mosaic does. A detect's time over this is what it costs beyond getting
// its pixels.
import sharp from 'sharp';
import { frameOf } from '#platform/imagery/framing.ts';
import type { ImageryPlace } from '#platform/imagery/imagery.ts';
import { TILE_PX } from '#platform/imagery/web-mercator.ts';

/** Tiles the mosaic fetches and decodes at once (platform/imagery/mosaic.ts, PARALLEL_TILES). */
export const PARALLEL_TILES = 6;

/** The tile URLs under the frame the imagery cuts around the place at `zoom` (the window mosaic.ts fetches). */
export function tileUrls(template: string, place: ImageryPlace, zoom: number): string[] {
  const frame = frameOf(place, zoom);
  const urls: string[] = [];
  for (let y = Math.floor(frame.top / TILE_PX); y <= Math.floor((frame.top + frame.height - 1) / TILE_PX); y++)
    for (let x = Math.floor(frame.left / TILE_PX); x <= Math.floor((frame.left + frame.width - 1) / TILE_PX); x++)
      urls.push(template.replace('{z}', String(zoom)).replace('{x}', String(x)).replace('{y}', String(y)));
  return urls;
}

/**
 * Fetches every URL, PARALLEL_TILES at a time, reading each body whole, and with `decode` decodes
 * each tile to raw pixels with sharp.
 */
export async function fetchTiles(urls: string[], decode: boolean): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL_TILES, urls.length) }, async () => {
      while (next < urls.length) {
        const url = urls[next++]!;
        const res = await fetch(url);
        const body = Buffer.from(await res.arrayBuffer());
        if (res.status !== 200 || body.length === 0) throw new Error(`${url}: HTTP ${res.status}`);
        if (decode) await sharp(body).raw().toBuffer();
      }
    }),
  );
}
