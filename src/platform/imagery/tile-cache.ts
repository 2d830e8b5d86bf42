// A small on-disk cache of imagery tiles under the data directory, so rating the same lot twice (or
// a takeoff after a rating) fetches nothing. One file a tile at <dir>/<source>-<template hash>/z/x/y.tile
// (a changed GROUNDWORK_*_IMAGERY_URL starts a new folder): a JSON line with when it was fetched and
// its capture date, then the tile's bytes as served. Bounded two ways: a tile older than maxAgeMs
// is fetched again (a new survey shows within a month), and when the folder passes maxBytes the
// least recently used tiles go until it is under 80% of it. Found tiles only: a missing tile is
// asked again next time, so coverage that arrives shows at once. Each process keeps its own index
// of the folder (read once, on first use), so with a server and a worker sharing a data directory
// the bound can be passed by what the other wrote since: an approximate bound, not a quota.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

export interface CachedTile {
  data: Buffer;
  /** YYYY-MM-DD as the server told it, or null. */
  captureDate: string | null;
}

export interface TileCache {
  get(z: number, x: number, y: number): Promise<CachedTile | null>;
  put(z: number, x: number, y: number, tile: CachedTile): Promise<void>;
}

export interface TileCacheOptions {
  /** The cache's folder (<data dir>/imagery-tiles). */
  dir: string;
  /** Which source and template the tiles come from: keys the folder. */
  source: string;
  template: string;
  maxBytes: number;
  maxAgeMs: number;
  now?: () => number;
}

export const DEFAULT_TILE_CACHE_BYTES = 200 * 1024 * 1024;
export const DEFAULT_TILE_MAX_AGE_MS = 30 * 24 * 3600 * 1000;

interface Entry {
  bytes: number;
  usedAt: number;
}

/** A cache that keeps nothing (GROUNDWORK_IMAGERY_CACHE_MB=0). */
export const noTileCache: TileCache = {
  async get() {
    return null;
  },
  async put() {},
};

export function diskTileCache(options: TileCacheOptions): TileCache {
  const now = options.now ?? Date.now;
  const hash = createHash('sha256').update(options.template).digest('hex').slice(0, 12);
  const root = path.join(options.dir, `${options.source}-${hash}`);
  const fileOf = (z: number, x: number, y: number) => path.join(root, String(z), String(x), `${y}.tile`);
  let index: Promise<Map<string, Entry>> | null = null;
  let total = 0;

  /** Every tile file under the folder with its size and last use (the access time we set). */
  async function readIndex(): Promise<Map<string, Entry>> {
    const found = new Map<string, Entry>();
    const files = await fs.readdir(root, { recursive: true }).catch(() => [] as string[]);
    for (const rel of files) {
      if (!rel.endsWith('.tile')) continue;
      const stat = await fs.stat(path.join(root, rel)).catch(() => null);
      if (!stat?.isFile()) continue;
      found.set(path.join(root, rel), { bytes: stat.size, usedAt: stat.atimeMs });
      total += stat.size;
    }
    return found;
  }
  const entries = () => (index ??= readIndex());

  async function forget(file: string, map: Map<string, Entry>): Promise<void> {
    const entry = map.get(file);
    if (entry) total -= entry.bytes;
    map.delete(file);
    await fs.rm(file, { force: true });
  }

  async function trim(map: Map<string, Entry>): Promise<void> {
    if (total <= options.maxBytes) return;
    const oldestFirst = [...map.entries()].sort((a, b) => a[1].usedAt - b[1].usedAt);
    for (const [file] of oldestFirst) {
      if (total <= options.maxBytes * 0.8) break;
      await forget(file, map);
    }
  }

  return {
    async get(z, x, y) {
      const map = await entries();
      const file = fileOf(z, x, y);
      let raw: Buffer;
      try {
        raw = await fs.readFile(file);
      } catch {
        return null;
      }
      const newline = raw.indexOf(0x0a);
      let head: { fetched_at?: unknown; capture_date?: unknown } | null = null;
      try {
        head = newline > 0 ? JSON.parse(raw.subarray(0, newline).toString('utf8')) : null;
      } catch {
        head = null;
      }
      // A file we cannot read (cut short by a crash, another version's) or one too old is fetched again.
      if (!head || typeof head.fetched_at !== 'number' || now() - head.fetched_at > options.maxAgeMs) {
        await forget(file, map);
        return null;
      }
      const usedAt = now();
      // The access time is the "last used" the size bound evicts by, kept in the file so it outlives the process.
      await fs.utimes(file, new Date(usedAt), new Date(head.fetched_at)).catch(() => {});
      // A tile another process wrote since this one read the folder joins the count here.
      if (!map.has(file)) total += raw.length;
      map.set(file, { bytes: raw.length, usedAt });
      const captureDate = typeof head.capture_date === 'string' ? head.capture_date : null;
      return { data: raw.subarray(newline + 1), captureDate };
    },

    async put(z, x, y, tile) {
      const map = await entries();
      const file = fileOf(z, x, y);
      const head = Buffer.from(`${JSON.stringify({ fetched_at: now(), capture_date: tile.captureDate })}\n`);
      const body = Buffer.concat([head, tile.data]);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Written aside and renamed, so a reader never sees half a tile.
      const aside = `${file}.${randomBytes(6).toString('hex')}.part`;
      await fs.writeFile(aside, body);
      await fs.rename(aside, file);
      const before = map.get(file);
      if (before) total -= before.bytes;
      map.set(file, { bytes: body.length, usedAt: now() });
      total += body.length;
      await trim(map);
    },
  };
}
