// The detector's findings (image pixels) as the measurement's first shapes ([lat, lng] on the
// sphere): paved surfaces become areas (asphalt main, concrete concrete) with their holes as the
// polygon's inner rings; painted lines become lines_white or lines_yellow; inferred stalls become
// read-only counts (category stalls). A finding that is not a valid shape once placed (a ring
// folded to nothing) is left out rather than answered wrong.
import { type Geometry, type LatLng, openRing, whyNot } from '#engines/geometry/index.ts';
import type { PixelPoint } from '#engines/paved/index.ts';
import { fromPixel } from '#platform/imagery/web-mercator.ts';
import { newShape, type ShapeState } from '../shapes/state.ts';
import { LABELS } from '../shapes/vocabulary.ts';
import type { Seen } from './detect.ts';

export function detectedShapes(seen: Seen, newId: () => string): ShapeState[] {
  const place = ([x, y]: PixelPoint): LatLng => {
    const p = fromPixel(seen.left + x, seen.top + y, seen.zoom);
    return [p.lat, p.lng];
  };
  const shapes: ShapeState[] = [];
  const push = (kind: ShapeState['kind'], geometry: Geometry, fields: Partial<ShapeState>) => {
    if (whyNot(geometry)) return;
    shapes.push(newShape(newId(), kind, geometry, 'detected', fields));
  };
  const { findings } = seen;
  for (const s of findings.surfaces) {
    const surface = s.surface === 'asphalt' ? 'main' : 'concrete';
    const rings = s.rings.map((r) => openRing(r.map(place))).filter((r) => r.length >= 3);
    if (rings.length > 0) push('area', { type: 'polygon', rings }, { surface, label: LABELS[surface] });
  }
  for (const l of findings.lines) {
    const category = l.colour === 'yellow' ? 'lines_yellow' : 'lines_white';
    push('line', { type: 'line', points: l.points.map(place) }, { category, label: LABELS[category] });
  }
  for (const s of findings.stalls)
    push('count', { type: 'point', point: place(s.point) }, { category: 'stalls', label: LABELS.stalls });
  return shapes;
}
