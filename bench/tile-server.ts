// The XYZ tile servers of bench/measurement.ts and bench/landscape.ts: node:http on 127.0.0.1
// serving 256 px JPEG tiles of whatever `draw` paints at a tile's Web Mercator global pixels (a
// synthetic lot, yards repeated over a site). A tile is drawn and encoded on its first request and
// served from memory afterwards, as a tile server or CDN serves pre-rendered tiles: the benches'
// warm-up calls fetch every tile once, so the measured fetches cost fetching and not drawing
// (test/measurement/lot-tiles.ts draws each tile per request, which suits tests but would make
// drawing part of the baseline). Requests are counted, so a bench can check that the API and the
// baseline fetched the same tiles.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { TILE_PX } from '#platform/imagery/web-mercator.ts';

/** The pixels of one tile: TILE_PX × TILE_PX, `channels` bytes each, row by row. */
export interface TilePixels {
  data: Uint8Array;
  channels: 3 | 4;
}

/** Paints the tile at zoom `z`, column `x`, row `y` (its top-left global pixel is x·256, y·256). */
export type DrawTile = (z: number, x: number, y: number) => TilePixels;

export interface TileServer {
  /** The XYZ URL template, http://127.0.0.1:<port>/{z}/{x}/{y}.jpg. */
  template: string;
  /** Tile requests answered since start (or the last reset). */
  requests: number;
  /** Tiles drawn so far, and their smallest and largest size in bytes. */
  drawn(): { tiles: number; min: number; max: number };
  close(): Promise<void>;
}

export async function startTileServer(draw: DrawTile): Promise<TileServer> {
  const tiles = new Map<string, Promise<Buffer>>();
  const sizes: number[] = [];
  const tileAt = (z: number, x: number, y: number): Promise<Buffer> => {
    const key = `${z}/${x}/${y}`;
    let tile = tiles.get(key);
    if (!tile) {
      const pixels = draw(z, x, y);
      tile = sharp(Buffer.from(pixels.data), { raw: { width: TILE_PX, height: TILE_PX, channels: pixels.channels } })
        .jpeg({ quality: 85 })
        .toBuffer()
        .then((b) => {
          sizes.push(b.length);
          return b;
        });
      tiles.set(key, tile);
    }
    return tile;
  };
  const handle = { requests: 0 } as TileServer;
  const server = http.createServer((req, res) => {
    handle.requests++;
    const m = /^\/(\d+)\/(\d+)\/(\d+)\.jpg$/.exec(req.url ?? '');
    if (!m) return void res.writeHead(404).end();
    tileAt(Number(m[1]), Number(m[2]), Number(m[3])).then(
      (tile) => res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': tile.length }).end(tile),
      () => res.writeHead(500).end(),
    );
  });
  // Idle connections kept a minute, as a CDN keeps them: with Node's default 5 s, a connection the
  // imagery client pooled while a detector held the event loop for seconds could be closed under it
  // just as it is reused (ECONNRESET, a failed mosaic that no real server would cause).
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  handle.template = `http://127.0.0.1:${port}/{z}/{x}/{y}.jpg`;
  handle.drawn = () => ({ tiles: sizes.length, min: Math.min(...sizes), max: Math.max(...sizes) });
  handle.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return handle;
}
