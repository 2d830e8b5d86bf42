// A real XYZ tile server drawing synthetic parking lots for the measurement tests: node:http on
// 127.0.0.1; `/lot/{z}/{x}/{y}.png` draws the scene (engines/paved's generator, whose truth is
// known) placed with its centre at ORIGIN; `/missing/…` answers 404 (no coverage), `/broken/…`
// 500. Every tile is drawn from its global pixels alone, so stitched tiles are the scene itself.
import type { LatLng } from '#engines/geometry/index.ts';
import { metersToLatLng } from '#engines/paved/lot-geo.ts';
import { drawLotWindow } from '#engines/paved/synthetic-lot-draw.ts';
import type { LotScene } from '#engines/paved/synthetic-lot.ts';
import { startDrawnTileServer } from '#test/helpers/drawn-tiles.ts';

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
  const handle = { mode: 'lot', scene } as LotTiles;
  const server = await startDrawnTileServer((prefix, z, x, y) => {
    const kind = prefix === 'lot' ? handle.mode : prefix;
    if (kind === 'missing') return 404;
    if (kind === 'broken') return 500;
    if (kind !== 'lot') return 404;
    return drawLotWindow(handle.scene, {
      originLat: ORIGIN.lat,
      originLng: ORIGIN.lng,
      zoom: z,
      left: x * 256,
      top: y * 256,
      width: 256,
      height: 256,
    });
  });
  Object.defineProperty(handle, 'requests', { get: () => server.requests, set: (n: number) => (server.requests = n) });
  handle.template = (kind) => `${server.base}/${kind}/{z}/{x}/{y}.png`;
  handle.close = server.close;
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
