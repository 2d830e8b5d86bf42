// A real XYZ tile server drawing synthetic parking lots for the measurement tests: node:http on
// 127.0.0.1; `/lot/{z}/{x}/{y}.png` draws the scene (engines/paved's generator, whose truth is
// known) placed with its centre at ORIGIN; `/missing/…` answers 404 (no coverage), `/broken/…`
// 500. Every tile is drawn from its global pixels alone, so stitched tiles are the scene itself.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import type { LatLng } from '#engines/geometry/index.ts';
import { metersToLatLng } from '#engines/paved/lot-geo.ts';
import { drawLotWindow } from '#engines/paved/synthetic-lot-draw.ts';
import type { LotScene } from '#engines/paved/synthetic-lot.ts';

export const ORIGIN = { lat: 39.96, lng: -83.0 };

export interface LotTiles {
  template(kind: 'lot' | 'missing' | 'broken'): string;
  requests: number;
  /** What `/lot/…` serves now: the scene, or (one app trying each failure in turn) 404s or 500s. */
  mode: 'lot' | 'missing' | 'broken';
  /** The scene `/lot/…` draws (a test may swap it, and put it back). */
  scene: LotScene;
  close(): Promise<void>;
}

export async function startLotTiles(scene: LotScene): Promise<LotTiles> {
  const handle = { requests: 0, mode: 'lot', scene } as LotTiles;
  const server = http.createServer((req, res) => {
    handle.requests++;
    const m = /^\/(lot|missing|broken)\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(req.url ?? '');
    const kind = m?.[1] === 'lot' ? handle.mode : m?.[1];
    if (!m || kind === 'missing') return void res.writeHead(404).end();
    if (kind === 'broken') return void res.writeHead(500).end();
    const [z, x, y] = [Number(m[2]), Number(m[3]), Number(m[4])];
    const pixels = drawLotWindow(handle.scene, {
      originLat: ORIGIN.lat,
      originLng: ORIGIN.lng,
      zoom: z,
      left: x * 256,
      top: y * 256,
      width: 256,
      height: 256,
    });
    sharp(Buffer.from(pixels.data), { raw: { width: 256, height: 256, channels: pixels.channels } })
      .png()
      .toBuffer()
      .then(
        (png) => res.writeHead(200, { 'content-type': 'image/png' }).end(png),
        () => res.writeHead(500).end(),
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  handle.template = (kind) => `http://127.0.0.1:${port}/${kind}/{z}/{x}/{y}.png`;
  handle.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return handle;
}

/** The scene's [lat, lng] for a point in its meters. */
export const latLngOf = (m: [number, number]): LatLng =>
  metersToLatLng({ originLat: ORIGIN.lat, originLng: ORIGIN.lng, zoom: 20 }, m);

/** Bounds around the scene's lot with `marginM` of ground on every side. */
export function boundsAround(scene: LotScene, marginM = 15) {
  const xs = scene.lot.map((p) => p[0]);
  const ys = scene.lot.map((p) => p[1]);
  const [south, west] = latLngOf([Math.min(...xs) - marginM, Math.min(...ys) - marginM]);
  const [north, east] = latLngOf([Math.max(...xs) + marginM, Math.max(...ys) + marginM]);
  return { north, south, east, west };
}
