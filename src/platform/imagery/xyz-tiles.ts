// One XYZ tile server: a URL template such as https://tiles.example/{z}/{x}/{y}.png (Web Mercator,
// 256 px PNG or JPEG tiles, y from the north; a WMTS RESTful template's {TileMatrix}, {TileCol} and
// {TileRow} too), each tile fetched through platform/outbound-fetch.ts and kept in the tile cache.
// A tile is "missing" when the server answers 404, 410 or 204 or sends an empty body: the place is
// not covered there. Any other failure (no connection, a timeout, 5xx, 401/403 from a bad key, a
// redirect to a private address, a body that is no image by its first bytes: sniff.ts) is
// ImageryUnreachable.
import { FetchFailed, fetchPublic, TIMED_OUT } from '../outbound-fetch.ts';
import { ImageryUnreachable } from './imagery.ts';
import { sniff, SNIFF_BYTES } from './sniff.ts';
import { noTileCache, type TileCache } from './tile-cache.ts';

/** A tile as served (PNG or JPEG bytes) with its capture date, or null when the server has none there. */
export type FetchedTile = { data: Buffer; captureDate: string | null } | null;

export interface TileServer {
  tile(z: number, x: number, y: number): Promise<FetchedTile>;
}

export interface XyzTileOptions {
  /** Allow loopback, private addresses and plain http (tests; a tile server on the operator's network). */
  allowPrivate: boolean;
  cache?: TileCache;
}

// A 256 px JPEG or PNG tile is tens of kilobytes; a megabyte or more is not a tile.
export const MAX_TILE_BYTES = 2 * 1024 * 1024;
const MISSING_STATUSES = new Set([204, 404, 410]);

/**
 * WMTS RESTful templates name the same three numbers {TileMatrix}, {TileCol} and {TileRow}; with a
 * Web Mercator matrix set (GoogleMapsCompatible) they are z, x and y, so either spelling is taken.
 */
export function xyzTemplate(template: string): string {
  return template.replaceAll('{TileMatrix}', '{z}').replaceAll('{TileCol}', '{x}').replaceAll('{TileRow}', '{y}');
}

/** GROUNDWORK_*_IMAGERY_URL's check: an http(s) URL with {z}, {x} and {y}; a message naming what is wrong, else null. */
export function templateProblem(raw: string): string | null {
  const template = xyzTemplate(raw);
  let url: URL;
  try {
    url = new URL(template.replace(/\{[xyz]\}/g, '0'));
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http:// or https:// URL';
  const missing = ['{z}', '{x}', '{y}'].filter((part) => !template.includes(part));
  return missing.length > 0 ? `must contain ${missing.join(', ')} (like https://tiles.example/{z}/{x}/{y}.png)` : null;
}

/**
 * X-Capture-Date (YYYY-MM-DD) when the server sends a real date, else the Last-Modified date (UTC),
 * else null.
 */
export function captureDateOf(headers: Record<string, string | string[] | undefined>): string | null {
  const first = (name: string) => {
    const value = headers[name];
    return (Array.isArray(value) ? value[0] : value)?.trim();
  };
  const stated = first('x-capture-date');
  if (stated && /^\d{4}-\d{2}-\d{2}$/.test(stated)) {
    const at = new Date(`${stated}T00:00:00Z`);
    if (!Number.isNaN(at.getTime()) && at.toISOString().startsWith(stated)) return stated;
  }
  const modified = first('last-modified');
  if (modified) {
    const at = new Date(modified);
    if (!Number.isNaN(at.getTime())) return at.toISOString().slice(0, 10);
  }
  return null;
}

async function readCapped(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop by a throw closes the stream (the iterator's return), so no explicit destroy.
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_TILE_BYTES) throw new ImageryUnreachable(`a tile is larger than ${MAX_TILE_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function xyzTileServer(raw: string, options: XyzTileOptions): TileServer {
  const template = xyzTemplate(raw);
  const problem = templateProblem(template);
  if (problem) throw new Error(`The imagery URL template ${problem}, got "${raw}"`);
  const cache = options.cache ?? noTileCache;
  const urlOf = (z: number, x: number, y: number) =>
    template.replaceAll('{z}', String(z)).replaceAll('{x}', String(x)).replaceAll('{y}', String(y));

  async function fetchTile(z: number, x: number, y: number): Promise<FetchedTile> {
    let fetched: Awaited<ReturnType<typeof fetchPublic>>;
    const open = () =>
      fetchPublic(urlOf(z, x, y), { allowPrivate: options.allowPrivate, userAgent: 'Groundwork/1.0 (imagery tiles)' });
    try {
      try {
        fetched = await open();
      } catch (err) {
        // A kept-alive connection the server closed meanwhile (a worker busy detecting for seconds
        // between windows reuses one) fails with no answer: asked once more on a fresh connection.
        // A timeout is not asked again (it would double the wait).
        if (!(err instanceof FetchFailed) || err.status !== null || err.message === TIMED_OUT) throw err;
        fetched = await open();
      }
    } catch (err) {
      if (err instanceof FetchFailed) {
        if (err.status !== null && MISSING_STATUSES.has(err.status)) return null;
        throw new ImageryUnreachable(err.message);
      }
      throw err;
    }
    let data: Buffer;
    try {
      data = await readCapped(fetched.body);
    } catch (err) {
      if (err instanceof ImageryUnreachable) throw err;
      throw new ImageryUnreachable(`a tile was cut off: ${(err as Error).message}`);
    }
    // 204 and an empty 200 alike: the server has nothing there.
    if (fetched.status === 204 || data.length === 0) return null;
    // An error page or a proxy's HTML served as 200 is the server failing, not a tile, and must not
    // reach the cache (it would stand for the tile for a month).
    if (sniff(data.subarray(0, SNIFF_BYTES))?.kind !== 'image')
      throw new ImageryUnreachable(`z${z}/${x}/${y} is not an image`);
    return { data, captureDate: captureDateOf(fetched.headers) };
  }

  return {
    async tile(z, x, y) {
      const hit = await cache.get(z, x, y);
      if (hit) return hit;
      const tile = await fetchTile(z, x, y);
      // A cache that cannot be written (a full disk) costs a refetch next time, not this answer.
      if (tile) await cache.put(z, x, y, tile).catch(() => {});
      return tile;
    },
  };
}
