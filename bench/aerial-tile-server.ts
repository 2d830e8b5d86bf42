// The XYZ tile server of bench/condition.ts: node:http on 127.0.0.1 serving 256 px JPEG tiles of
// an asphalt lot drawn once by the detector's synthetic generator. Every tile is cut and encoded at
// start and served from memory, as a tile server or CDN serves pre-rendered tiles, so a request
// costs the bench its fetching and not the drawing (test/condition/aerial-tiles.ts draws each tile
// per request, which suits tests but would make drawing the baseline). The drawn square repeats
// across the world (tile x, y taken modulo its size in tiles), so any place is covered and
// neighbouring tiles join without a seam. Requests are counted, so the bench can check that the
// rating and the baseline fetched the same tiles.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { generateScene, type SceneCategory } from '#engines/distress/synthetic.ts';
import { TILE_PX } from '#platform/imagery/web-mercator.ts';

export interface AerialTileServer {
  /** The XYZ URL template, http://127.0.0.1:<port>/{z}/{x}/{y}.jpg. */
  template: string;
  /** Tile requests answered since start (or the last reset). */
  requests: number;
  /** Bytes of the tiles, smallest and largest. */
  tileBytes: { min: number; max: number };
  close(): Promise<void>;
}

/** Draws a `tiles` × `tiles` square of `category` pavement and serves it as JPEG tiles. */
export async function startAerialTileServer(o: {
  category: SceneCategory;
  seed: number;
  tiles: number;
}): Promise<AerialTileServer> {
  const size = o.tiles * TILE_PX;
  const scene = generateScene(o.category, o.seed, { size });
  const raw = { raw: { width: size, height: size, channels: 3 as const } };
  const pixels = Buffer.from(scene.pixels.data);
  const encoded: Buffer[] = [];
  for (let row = 0; row < o.tiles; row++)
    for (let col = 0; col < o.tiles; col++)
      encoded.push(
        await sharp(pixels, raw)
          .extract({ left: col * TILE_PX, top: row * TILE_PX, width: TILE_PX, height: TILE_PX })
          .jpeg({ quality: 85 })
          .toBuffer(),
      );
  const lengths = encoded.map((b) => b.length);
  const handle = {
    requests: 0,
    tileBytes: { min: Math.min(...lengths), max: Math.max(...lengths) },
  } as AerialTileServer;
  const server = http.createServer((req, res) => {
    handle.requests++;
    const m = /^\/(\d+)\/(\d+)\/(\d+)\.jpg$/.exec(req.url ?? '');
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    const tile = encoded[(Number(m[3]) % o.tiles) * o.tiles + (Number(m[2]) % o.tiles)]!;
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': tile.length }).end(tile);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  handle.template = `http://127.0.0.1:${port}/{z}/{x}/{y}.jpg`;
  handle.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return handle;
}
