// The XYZ tile server of bench/measurement.ts: node:http on 127.0.0.1 serving 256 px JPEG tiles of
// a synthetic parking lot (engines/paved's generator) centred on `origin`, grass all around it. A
// tile is drawn and encoded on its first request and served from memory afterwards, as a tile
// server or CDN serves pre-rendered tiles: the bench's warm-up calls fetch every tile once, so the
// measured fetches cost fetching and not drawing (test/measurement/lot-tiles.ts draws each tile per
// request, which suits tests but would make drawing part of the baseline). Requests are counted,
// so the bench can check that a detect and the baseline fetched the same tiles.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { drawLotWindow } from '#engines/paved/synthetic-lot-draw.ts';
import type { LotScene } from '#engines/paved/synthetic-lot.ts';
import { TILE_PX } from '#platform/imagery/web-mercator.ts';

export interface LotTileServer {
  /** The XYZ URL template, http://127.0.0.1:<port>/{z}/{x}/{y}.jpg. */
  template: string;
  /** Tile requests answered since start (or the last reset). */
  requests: number;
  /** Tiles drawn so far, and their smallest and largest size in bytes. */
  drawn(): { tiles: number; min: number; max: number };
  close(): Promise<void>;
}

export async function startLotTileServer(
  scene: LotScene,
  origin: { lat: number; lng: number },
): Promise<LotTileServer> {
  const tiles = new Map<string, Promise<Buffer>>();
  const sizes: number[] = [];
  const tileAt = (z: number, x: number, y: number): Promise<Buffer> => {
    const key = `${z}/${x}/${y}`;
    let tile = tiles.get(key);
    if (!tile) {
      const pixels = drawLotWindow(scene, {
        originLat: origin.lat,
        originLng: origin.lng,
        zoom: z,
        left: x * TILE_PX,
        top: y * TILE_PX,
        width: TILE_PX,
        height: TILE_PX,
      });
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
  const handle = { requests: 0 } as LotTileServer;
  const server = http.createServer((req, res) => {
    handle.requests++;
    const m = /^\/(\d+)\/(\d+)\/(\d+)\.jpg$/.exec(req.url ?? '');
    if (!m) return void res.writeHead(404).end();
    tileAt(Number(m[1]), Number(m[2]), Number(m[3])).then(
      (tile) => res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': tile.length }).end(tile),
      () => res.writeHead(500).end(),
    );
  });
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
