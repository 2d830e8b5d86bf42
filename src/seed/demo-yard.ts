// The demo's landscaped entrance, drawn as aerial tiles like the demo's lot (demo-imagery.ts): a
// front yard kept in code (engines/landscape's generator, seed and options fixed here: a lawn with
// trees, island beds, mulch) drawn as 256-px XYZ tiles on request, placed at the Maple Ridge
// entrance. The demo's landscape takeoff is detected from it through the same imagery code and the
// built-in detector as a real tile server's.
import type { LatLng } from '#engines/geometry/index.ts';
import { syntheticYard, type YardScene } from '#engines/landscape/synthetic-yard.ts';
import { drawYardWindow } from '#engines/landscape/synthetic-yard-draw.ts';
import { metersToLatLng } from '#engines/paved/lot-geo.ts';
import type { Imagery } from '#platform/imagery/imagery.ts';
import { tileImagery } from '#platform/imagery/mosaic.ts';
import { drawnTileServer } from './demo-imagery.ts';

/** The Maple Ridge entrance, a few blocks from the walked lot. */
export const DEMO_YARD_ORIGIN = { lat: 39.7846, lng: -89.6449 };

export const demoYardScene: YardScene = syntheticYard(3, { touchingPair: true, rotationDeg: 0 });

const frame = { originLat: DEMO_YARD_ORIGIN.lat, originLng: DEMO_YARD_ORIGIN.lng };

export const demoYardImagery = (scene: YardScene = demoYardScene): Imagery =>
  tileImagery({ standard: drawnTileServer((w) => drawYardWindow(scene, { ...frame, ...w })) });

/** A yard's drawn extent with `marginM` of ground around it, as a ring of [lat, lng], its centre at `origin`. */
export function yardOutline(scene: YardScene, origin: { lat: number; lng: number }, marginM = 3): LatLng[] {
  const [w, s, e, n] = scene.extent;
  const at = (m: [number, number]) => metersToLatLng({ originLat: origin.lat, originLng: origin.lng, zoom: 20 }, m);
  return [
    at([w - marginM, n + marginM]),
    at([e + marginM, n + marginM]),
    at([e + marginM, s - marginM]),
    at([w - marginM, s - marginM]),
  ];
}

/** The demo yard's outline. */
export const demoYardOutline = (): LatLng[] => yardOutline(demoYardScene, DEMO_YARD_ORIGIN);
