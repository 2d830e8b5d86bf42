// Which area a shape sits in (document 3: "A count or line without phase takes the phase of the
// area it sits in"; a hole "takes the phase of the area it cuts"): the smallest area, not a hole,
// whose outline holds the shape's anchor point (a hole: every point of its outline). Areas are
// found by their bounding box first, so a lookup costs a box test per area and a ring test for
// the few around the point.
import { anchorOf, type LatLng, pointInPolygon, ringInside } from '#engines/geometry/index.ts';
import type { ShapeState } from './state.ts';

type Box = [number, number, number, number];

function boxOf(shape: ShapeState): Box {
  let [s, w, n, e] = [90, 180, -90, -180];
  if (shape.geometry.type !== 'polygon') return [s, w, n, e];
  for (const [lat, lng] of shape.geometry.rings[0]) {
    s = Math.min(s, lat);
    n = Math.max(n, lat);
    w = Math.min(w, lng);
    e = Math.max(e, lng);
  }
  return [s, w, n, e];
}

const inBox = ([lat, lng]: LatLng, [s, w, n, e]: Box) => lat >= s && lat <= n && lng >= w && lng <= e;

/** Bounding boxes of areas, kept per shape object (a changed area is a new object). */
const boxes = new WeakMap<ShapeState, Box>();
function cachedBox(shape: ShapeState): Box {
  let box = boxes.get(shape);
  if (!box) {
    box = boxOf(shape);
    boxes.set(shape, box);
  }
  return box;
}

/** The areas (not holes) among `shapes`: what areaHolding needs to look through, listed once. */
export function areasOf(shapes: Iterable<ShapeState>): ShapeState[] {
  const out: ShapeState[] = [];
  for (const s of shapes) if (s.kind === 'area' && s.surface !== 'hole' && s.geometry.type === 'polygon') out.push(s);
  return out;
}

export function areaHolding(shapes: Iterable<ShapeState>, shape: ShapeState): ShapeState | undefined {
  const anchor = anchorOf(shape.geometry);
  let best: ShapeState | undefined;
  for (const a of shapes) {
    if (a.kind !== 'area' || a.surface === 'hole' || a === shape || a.geometry.type !== 'polygon') continue;
    if (!inBox(anchor, cachedBox(a))) continue;
    const outline = [a.geometry.rings[0]];
    const holds =
      shape.kind === 'area' && shape.geometry.type === 'polygon'
        ? ringInside(shape.geometry.rings[0], outline)
        : pointInPolygon(anchor, outline);
    if (holds && (!best || a.quantity < best.quantity)) best = a;
  }
  return best;
}
