// What a finished detect run changes on its takeoff (document 3's detect rules), worked out from
// what the windows found and the takeoff's items as read. Pure.
// - Areas are kept inside the outline and inside the window that found them, then merged across
//   windows; pieces under MIN_PIECE_M2 are dropped (a sliver left by a cut is not an area).
// - replace_existing removes the model-found items of the classes this run detects; items drawn
//   by hand stay.
// - New areas never cover road or parking already on the takeoff; when adding (replace_existing
//   false) they are clipped to every area already there.
// - An object within SKIP_WITHIN_M of one already counted (on the takeoff or earlier in this run)
//   is skipped.
import {
  cutOut,
  distanceM,
  keepInside,
  type LatLng,
  pointInPolygon,
  polygonAreaM2,
  type PolygonRings,
  type Ring,
  rounded,
  squareFeet,
  unionOf,
} from '#engines/geometry/index.ts';
import type { LandscapeItem } from '#db/tables.ts';
import { PAVED_CLASSES } from './classes.ts';
import { DEFAULT_PHASE } from './items.ts';
import { boxOf, type BoxOf } from './outline.ts';
import type { DetectRequest } from './runs.ts';
import type { NewItem } from './save.ts';
import type { Found } from './see.ts';

export const MIN_PIECE_M2 = 1;
export const SKIP_WITHIN_M = 1;

export interface WindowFound {
  core: BoxOf;
  found: Found;
}

export interface DetectChange {
  add: NewItem[];
  remove: number[];
  skipped_objects: number;
  clipped_sqft: number;
}

const ringOfBox = (b: BoxOf): Ring => [
  [b.north, b.west],
  [b.north, b.east],
  [b.south, b.east],
  [b.south, b.west],
];

const inBox = ([lat, lng]: LatLng, b: BoxOf) => lat <= b.north && lat > b.south && lng >= b.west && lng < b.east;

const boxesMeet = (a: BoxOf, b: BoxOf) =>
  a.west <= b.east && b.west <= a.east && a.south <= b.north && b.south <= a.north;

/** The areas and objects the windows found, inside the outlines, merged across windows. */
export function foundInside(outlines: Ring[], windows: WindowFound[], req: DetectRequest): Found {
  const byClass = new Map<string, PolygonRings[]>();
  const objects: Found['objects'] = [];
  const wanted = new Set(req.area_classes);
  for (const w of windows) {
    const within = outlines.flatMap((o) => keepInside([o], [[ringOfBox(w.core)]]));
    if (within.length === 0) continue;
    // A convex piece of the outline holds an area whose outline's corners all lie in it: the area
    // is kept whole without clipping it (most areas of a run; a clip costs about a millisecond).
    const convex = within.filter((p) => p.length === 1 && isConvex(p[0]!)).map((p) => p[0]!);
    if (req.include_areas)
      for (const a of w.found.areas) {
        if (!wanted.has(a.class)) continue;
        const whole = convex.some((ring) => a.rings[0]!.every((pt) => pointInPolygon(pt, [ring])));
        const pieces = whole ? [a.rings] : keepInside(a.rings, within);
        byClass.set(a.class, [...(byClass.get(a.class) ?? []), ...pieces]);
      }
    if (req.include_objects)
      for (const o of w.found.objects)
        if (inBox(o.point, w.core) && outlines.some((ring) => pointInPolygon(o.point, [ring]))) objects.push(o);
  }
  const areas: Found['areas'] = [];
  for (const [cls, polys] of byClass)
    for (const rings of windows.length > 1 ? unionOf(polys) : polys) areas.push({ class: cls, rings });
  return { areas, objects };
}

/** Whether a ring turns one way only (every corner's cross product of one sign). */
function isConvex(ring: Ring): boolean {
  let sign = 0;
  for (let i = 0; i < ring.length; i++) {
    const [a, b, c] = [ring[i]!, ring[(i + 1) % ring.length]!, ring[(i + 2) % ring.length]!];
    const cross = (b[1] - a[1]) * (c[0] - b[0]) - (b[0] - a[0]) * (c[1] - b[1]);
    if (cross === 0) continue;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return true;
}

function areaItem(cls: string, rings: Ring[], runId: number): NewItem {
  return {
    kind: 'area',
    class: cls,
    phase: DEFAULT_PHASE,
    rings: JSON.stringify(rings),
    lat: null,
    lng: null,
    area_sqft: rounded(squareFeet(polygonAreaM2(rings)), 2),
    source: 'detected',
    run_id: runId,
  };
}

export function detectChange(found: Found, items: LandscapeItem[], req: DetectRequest, runId: number): DetectChange {
  const replaced = (i: LandscapeItem) =>
    req.replace_existing &&
    i.source === 'detected' &&
    ((i.kind === 'area' && req.include_areas && req.area_classes.includes(i.class)) ||
      (i.kind === 'object' && req.include_objects));
  const remove = items.filter(replaced).map((i) => i.id);
  const kept = items.filter((i) => !replaced(i));

  const cutters = kept
    .filter((i) => i.kind === 'area' && i.rings && (PAVED_CLASSES.has(i.class) || !req.replace_existing))
    .map((i) => {
      const rings = JSON.parse(i.rings!) as Ring[];
      return { rings, box: boxOf(rings[0]) };
    });

  const add: NewItem[] = [];
  let clippedM2 = 0;
  for (const a of found.areas) {
    const box = boxOf(a.rings[0]);
    const near = cutters.filter((c) => boxesMeet(c.box, box)).map((c) => c.rings);
    const before = polygonAreaM2(a.rings);
    const pieces = cutOut(a.rings, near);
    let after = 0;
    for (const rings of pieces) {
      const m2 = polygonAreaM2(rings);
      if (m2 < MIN_PIECE_M2) continue;
      after += m2;
      add.push(areaItem(a.class, rings, runId));
    }
    clippedM2 += Math.max(0, before - after);
  }

  const counted = new PointGrid(SKIP_WITHIN_M);
  for (const i of kept) if (i.kind === 'object') counted.add([i.lat!, i.lng!]);
  let skipped = 0;
  for (const o of found.objects) {
    if (counted.anyWithin(o.point, SKIP_WITHIN_M)) {
      skipped++;
      continue;
    }
    counted.add(o.point);
    add.push({
      kind: 'object',
      class: o.class,
      phase: DEFAULT_PHASE,
      rings: null,
      lat: o.point[0],
      lng: o.point[1],
      area_sqft: null,
      source: 'detected',
      run_id: runId,
    });
  }
  return { add, remove, skipped_objects: skipped, clipped_sqft: rounded(squareFeet(clippedM2), 2) };
}

/** Points bucketed by cells of `cellM` meters, so "is one within a meter" looks at 9 cells, not every point. */
class PointGrid {
  private readonly cells = new Map<string, LatLng[]>();
  private readonly dLat: number;
  private dLng = 0;

  constructor(cellM: number) {
    this.dLat = cellM / 111_000;
  }

  private cell(lat: number, lng: number, di = 0, dj = 0): string {
    // Longitude cells narrow toward the poles: one width for the grid, set at the first point's
    // latitude (a site spans a fraction of a degree), never below a cell's height.
    if (this.dLng === 0) this.dLng = this.dLat / Math.max(0.01, Math.cos((lat * Math.PI) / 180));
    return `${Math.floor(lat / this.dLat) + di}:${Math.floor(lng / this.dLng) + dj}`;
  }

  add(p: LatLng): void {
    const k = this.cell(p[0], p[1]);
    const list = this.cells.get(k);
    if (list) list.push(p);
    else this.cells.set(k, [p]);
  }

  anyWithin(p: LatLng, m: number): boolean {
    for (let di = -1; di <= 1; di++)
      for (let dj = -1; dj <= 1; dj++)
        for (const q of this.cells.get(this.cell(p[0], p[1], di, dj)) ?? []) if (distanceM(p, q) <= m) return true;
    return false;
  }
}
