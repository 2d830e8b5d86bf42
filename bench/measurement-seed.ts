// Measurements of any size for bench/measurement.ts, written straight into the tables through
// Kysely (a detect finds a few hundred shapes at most; the bench needs 5,000 to 100,000, which an
// office builds up over many saves). The shapes look like a detected and edited lot of about 10
// acres (a 201 m square) near one point: paved areas laid out as a grid of sections (every tenth
// with an island cut out of it), stall and lane lines and curbs, and counts (stalls, wheel stops,
// bollards, arrows, stencils), each shape's quantity measured from its geometry as a save does.
import type { Database } from '#db/database.ts';
import type { LatLng } from '#engines/geometry/index.ts';
import { insertShapeRows } from '#measurement/measurements/repo.ts';
import { newShapeId, rowOfShape } from '#measurement/shapes/rows.ts';
import { newShape, type ShapeState } from '#measurement/shapes/state.ts';
import { rng } from '#engines/distress/synthetic-draw.ts';
import { totalsOf } from '#measurement/shapes/totals.ts';

/** The lot's south-west corner and its side. */
export const LOT = { lat: 39.96, lng: -83.0, sideM: 201 };
const M = 1 / 111_320;
const K = 1 / Math.cos((LOT.lat * Math.PI) / 180);
/** [lat, lng] of the point x m east and y m north of the lot's south-west corner. */
export const lotPoint = (x: number, y: number): LatLng => [LOT.lat + y * M, LOT.lng + x * M * K];
export const lotBox = () => ({
  north: LOT.lat + LOT.sideM * M,
  south: LOT.lat,
  east: LOT.lng + LOT.sideM * M * K,
  west: LOT.lng,
});
const rect = (x0: number, y0: number, x1: number, y1: number): LatLng[] => [
  lotPoint(x0, y0),
  lotPoint(x1, y0),
  lotPoint(x1, y1),
  lotPoint(x0, y1),
];

/** The distress generator's seeded Mulberry32: the same seed, the same lot. */
export const seeded = rng;
export const pick = <T>(rand: () => number, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

/** A detected shape: the measurement area's own builder (its quantity measured from the geometry). */
const blank = ({ kind, geometry, ...fields }: Partial<ShapeState> & Pick<ShapeState, 'kind' | 'geometry'>) =>
  newShape(newShapeId(), kind, geometry, 'detected', fields);

const COUNTS = [
  ['stalls', null],
  ['stalls', null],
  ['wheel_stop', 'concrete'],
  ['bollard', 'steel'],
  ['arrows', 'straight'],
  ['abc', 'stop'],
] as const;
const LINES = [
  ['lines_white', '4 in'],
  ['lines_white', '4 in'],
  ['lines_white', '4 in'],
  ['lines_yellow', '4 in'],
  ['curb', '6 in'],
] as const;

/** `n` shapes: 4 % areas (a tenth of them islands), 45 % lines, the rest counts. */
export function lotShapes(n: number, seed = 1): ShapeState[] {
  const rand = seeded(seed);
  const shapes: ShapeState[] = [];
  const sections = Math.max(1, Math.round(n * 0.04));
  const perSide = Math.ceil(Math.sqrt(sections));
  const cell = LOT.sideM / perSide;
  for (let i = 0; i < sections; i++) {
    const x = (i % perSide) * cell;
    const y = Math.floor(i / perSide) * cell;
    const island = i % 10 === 9;
    const surface = island ? 'hole' : i % 7 === 3 ? 'concrete' : 'main';
    const pad = island ? cell * 0.35 : cell * 0.05;
    // An island sits in the middle of the previous section (the one west of it, or the row below's last).
    const at = island ? ((i - 1) % perSide) * cell : x;
    const row = island ? Math.floor((i - 1) / perSide) * cell : y;
    shapes.push(
      blank({
        kind: 'area',
        surface,
        label: surface === 'main' ? 'Main area' : surface === 'hole' ? 'Cut-out' : 'Concrete',
        phase: Math.floor(i / perSide) % 2 === 0 ? 'Phase 1' : 'Phase 2',
        geometry: { type: 'polygon', rings: [rect(at + pad, row + pad, at + cell - pad, row + cell - pad)] },
      }),
    );
  }
  const lines = Math.round(n * 0.45);
  for (let i = 0; i < lines; i++) {
    const [category, spec] = pick(rand, LINES);
    const x = 2 + rand() * (LOT.sideM - 12);
    const y = 2 + rand() * (LOT.sideM - 12);
    const long = category === 'curb' || category === 'lines_yellow';
    const to: LatLng = long ? lotPoint(x + 5 + rand() * 5, y) : lotPoint(x, y + 5.5);
    shapes.push(blank({ kind: 'line', category, spec, geometry: { type: 'line', points: [lotPoint(x, y), to] } }));
  }
  while (shapes.length < n) {
    const [category, spec] = pick(rand, COUNTS);
    const point = lotPoint(1 + rand() * (LOT.sideM - 2), 1 + rand() * (LOT.sideM - 2));
    shapes.push(blank({ kind: 'count', category, spec, geometry: { type: 'point', point } }));
  }
  return spreadKinds(shapes);
}

/**
 * The shapes in an order where every stretch holds the kinds in the measurement's proportions
 * (areas 4 %, lines 45 %, counts the rest): the k-th shape of a kind of n sits at (k + ½) ÷ n of
 * the way through. Pages of 500 then carry the same rows at 1k and at 100k shapes, so comparing
 * them measures the growth with the measurement, not a page of polygons against one of points.
 */
function spreadKinds(shapes: ShapeState[]): ShapeState[] {
  const total = new Map<string, number>();
  for (const s of shapes) total.set(s.kind, (total.get(s.kind) ?? 0) + 1);
  const seen = new Map<string, number>();
  return shapes
    .map((s) => {
      const k = seen.get(s.kind) ?? 0;
      seen.set(s.kind, k + 1);
      return { s, at: (k + 0.5) / total.get(s.kind)! };
    })
    .sort((a, b) => a.at - b.at)
    .map((x) => x.s);
}

/** Writes a detected measurement holding `shapes` (no job) and answers its id. */
export async function insertMeasurement(
  database: Database,
  firmId: number,
  userId: number,
  shapes: ShapeState[],
  name: string,
): Promise<number> {
  const at = new Date().toISOString();
  const totals = totalsOf({
    shapes: new Map(shapes.map((s) => [s.shape_id, s])),
    items: new Map(),
    typed: {},
    frame: lotBox(),
  });
  const { id } = await database.db
    .insertInto('measurements')
    .values({
      firm_id: firmId,
      job_id: null,
      name,
      started_from: 'bounds',
      address: null,
      tiles: null,
      ...lotBox(),
      imagery: JSON.stringify({
        source: 'standard',
        zoom: 20,
        meters_per_pixel: 0.1145,
        width: 1756,
        height: 1756,
        capture_date: null,
      }),
      detector: 'built_in',
      format: 'detected',
      rev: 1,
      area_sqft: totals.area_sqft,
      shape_count: shapes.length,
      totals: JSON.stringify(totals),
      locked_for_review: 0,
      typed_quantities: '{}',
      created_by_user_id: userId,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await insertShapeRows(
    database.db,
    shapes.map((s) => rowOfShape(s, firmId, id, at)),
  );
  return id;
}
