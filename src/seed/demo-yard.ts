// The demo's landscaped entrance, drawn as aerial tiles like the demo's lot (demo-imagery.ts): a
// front yard kept in code (engines/landscape's generator, seed and options fixed here: a lawn with
// trees, island beds, mulch) drawn as 256-px XYZ tiles on request, placed at the Maple Ridge
// entrance. The demo's landscape takeoff is detected from it through the same imagery code and the
// built-in detector as a real tile server's.
import sharp from 'sharp';
import type { LatLng } from '#engines/geometry/index.ts';
import { syntheticYard, type YardScene } from '#engines/landscape/synthetic-yard.ts';
import { drawYardWindow } from '#engines/landscape/synthetic-yard-draw.ts';
import { metersToLatLng } from '#engines/paved/lot-geo.ts';
import type { Imagery } from '#platform/imagery/imagery.ts';
import { tileImagery } from '#platform/imagery/mosaic.ts';

/** The Maple Ridge entrance, a few blocks from the walked lot. */
export const DEMO_YARD_ORIGIN = { lat: 39.7846, lng: -89.6449 };

export const demoYardScene: YardScene = syntheticYard(3, { touchingPair: true, rotationDeg: 0 });

const frame = { originLat: DEMO_YARD_ORIGIN.lat, originLng: DEMO_YARD_ORIGIN.lng };

export const demoYardImagery = (scene: YardScene = demoYardScene): Imagery =>
  tileImagery({
    standard: {
      async tile(z, x, y) {
        const pixels = drawYardWindow(scene, {
          ...frame,
          zoom: z,
          left: x * 256,
          top: y * 256,
          width: 256,
          height: 256,
        });
        const data = await sharp(Buffer.from(pixels.data), {
          raw: { width: 256, height: 256, channels: pixels.channels },
        })
          .png()
          .toBuffer();
        return { data, captureDate: null };
      },
    },
  });

/** The yard's drawn extent with `marginM` of ground around it, as a ring of [lat, lng]. */
export function demoYardOutline(scene: YardScene = demoYardScene, marginM = 3): LatLng[] {
  const [w, s, e, n] = scene.extent;
  const at = (m: [number, number]) => metersToLatLng({ ...frame, zoom: 20 }, m);
  return [
    at([w - marginM, n + marginM]),
    at([e + marginM, n + marginM]),
    at([e + marginM, s - marginM]),
    at([w - marginM, s - marginM]),
  ];
}
