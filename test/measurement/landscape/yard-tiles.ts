// A real XYZ tile server drawing a synthetic yard for the landscape tests: node:http on 127.0.0.1;
// `/yard/{z}/{x}/{y}.png` draws the scene (engines/landscape's generator, whose truth is known) with
// its centre at ORIGIN. Every tile is drawn from its global pixels alone, so stitched tiles are the
// scene itself.
import type { LatLng } from '#engines/geometry/index.ts';
import type { YardScene } from '#engines/landscape/synthetic-yard.ts';
import { drawYardWindow } from '#engines/landscape/synthetic-yard-draw.ts';
import { yardOutline } from '#seed/demo-yard.ts';
import { startDrawnTileServer } from '#test/helpers/drawn-tiles.ts';

export const YARD_ORIGIN = { lat: 40.01, lng: -83.02 };

export interface YardTiles {
  template: string;
  close(): Promise<void>;
}

export async function startYardTiles(scene: YardScene): Promise<YardTiles> {
  const server = await startDrawnTileServer((prefix, z, x, y) =>
    prefix !== 'yard'
      ? 404
      : drawYardWindow(scene, {
          originLat: YARD_ORIGIN.lat,
          originLng: YARD_ORIGIN.lng,
          zoom: z,
          left: x * 256,
          top: y * 256,
          width: 256,
          height: 256,
        }),
  );
  return { template: `${server.base}/yard/{z}/{x}/{y}.png`, close: server.close };
}

/** The yard's drawn extent with `marginM` around it, as a ring of [lat, lng]. */
export const yardOutlineOf = (scene: YardScene, marginM = 3): LatLng[] => yardOutline(scene, YARD_ORIGIN, marginM);
