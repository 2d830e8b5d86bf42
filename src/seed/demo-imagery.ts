// The demo's aerial imagery, which works offline (GUIDE: "the demo works offline from a bundled,
// generated tile set"): a parking lot scene kept in code (engines/paved's generator, seed and
// options fixed here) drawn as 256-px XYZ tiles on request, placed at the walked job's site in
// Springfield, Illinois. It is the demo's own tile server: the demo's measurement is made from it
// through the same imagery code (mosaic, crop, detector) as a real tile server's. Nothing else
// reads it; a real deployment names its tile server with GROUNDWORK_IMAGERY_URL.
import sharp from 'sharp';
import { metersToLatLng } from '#engines/paved/lot-geo.ts';
import { drawLotWindow } from '#engines/paved/synthetic-lot-draw.ts';
import { type LotScene, syntheticLot } from '#engines/paved/synthetic-lot.ts';
import type { RawPixels } from '#engines/paved/types.ts';
import type { Imagery } from '#platform/imagery/imagery.ts';
import { tileImagery } from '#platform/imagery/mosaic.ts';
import type { TileServer } from '#platform/imagery/xyz-tiles.ts';

/** The walked job's site (its assessment pins sit here). */
export const DEMO_LOT_ORIGIN = { lat: 39.7817, lng: -89.6501 };

/** An asphalt lot with a store building in it and trees along its edge. */
export const demoLotScene: LotScene = syntheticLot(21, {
  surface: 'asphalt',
  building: true,
  trees: 3,
  rotationDeg: 0,
});

const frame = { originLat: DEMO_LOT_ORIGIN.lat, originLng: DEMO_LOT_ORIGIN.lng };

/** The window of a tile: its global pixels at its zoom. */
export interface TileWindow {
  zoom: number;
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A tile server whose PNG tiles `draw` paints from their global pixels alone, so they join without a seam. */
export function drawnTileServer(draw: (window: TileWindow) => RawPixels): TileServer {
  return {
    async tile(z, x, y) {
      const pixels = draw({ zoom: z, left: x * 256, top: y * 256, width: 256, height: 256 });
      const data = await sharp(Buffer.from(pixels.data), {
        raw: { width: pixels.width, height: pixels.height, channels: pixels.channels },
      })
        .png()
        .toBuffer();
      return { data, captureDate: null };
    },
  };
}

/** Tiles of the lot scene. */
export const demoTileServer = (scene: LotScene = demoLotScene): TileServer =>
  drawnTileServer((w) => drawLotWindow(scene, { ...frame, ...w }));

export const demoImagery = (scene: LotScene = demoLotScene): Imagery =>
  tileImagery({ standard: demoTileServer(scene) });

/** Bounds around the scene's lot, with `marginM` of ground on every side. */
export function demoLotBounds(scene: LotScene = demoLotScene, marginM = 12) {
  const xs = scene.lot.map((p) => p[0]);
  const ys = scene.lot.map((p) => p[1]);
  const [south, west] = metersToLatLng({ ...frame, zoom: 20 }, [Math.min(...xs) - marginM, Math.min(...ys) - marginM]);
  const [north, east] = metersToLatLng({ ...frame, zoom: 20 }, [Math.max(...xs) + marginM, Math.max(...ys) + marginM]);
  return { north, south, east, west };
}

/** A point of the scene (meters east and north of its centre) as [lat, lng]. */
export const demoLatLng = (m: [number, number]) => metersToLatLng({ ...frame, zoom: 20 }, m);
