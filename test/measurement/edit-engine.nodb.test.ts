// The shape-edit engine alone (measurement/shapes/apply.ts), on states built by hand: the op
// table's rules (a hole cuts and takes the phase of the area it cuts; counts and lines take the
// phase of the area they sit in; reclassify within a kind; types from options.types; far shapes
// refused; what is edited only in the takeoff editor), and the property that [lat, lng] and
// [lng, lat] give identical results. Rules reachable only through the takeoff editor's data
// (a shape carrying a service, a ruler, an item counting toward area) are tested here, where a
// state can hold them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LatLng } from '#engines/geometry/index.ts';
import { applyOperations } from '#measurement/shapes/apply.ts';
import { actionsOf } from '#measurement/shapes/editable.ts';
import { areaHolding } from '#measurement/shapes/sits-in.ts';
import { type EditState, newShape, type ShapeState } from '#measurement/shapes/state.ts';
import { totalsOf } from '#measurement/shapes/totals.ts';

const M = 1 / 111_320;
const LAT = 39.96;
const LNG = -83.0;
const K = 1 / Math.cos((LAT * Math.PI) / 180);
/** [lat, lng] of a point x m east and y m north of the lot's corner. */
const at = (x: number, y: number): LatLng => [LAT + y * M, LNG + x * M * K];
const box = (x0: number, y0: number, x1: number, y1: number): LatLng[] => [
  at(x0, y0),
  at(x1, y0),
  at(x1, y1),
  at(x0, y1),
];

const shape = (
  id: string,
  { kind, geometry, ...fields }: Partial<ShapeState> & Pick<ShapeState, 'kind' | 'geometry'>,
) => newShape(id, kind, geometry, 'detected', fields);

function lotState(): EditState {
  const shapes = [
    shape('lot', {
      kind: 'area',
      surface: 'main',
      geometry: { type: 'polygon', rings: [box(0, 0, 100, 60)] },
      phase: 'Phase 2',
    }),
    shape('stall', { kind: 'count', category: 'stalls', geometry: { type: 'point', point: at(10, 10) } }),
    shape('line', { kind: 'line', category: 'lines_white', geometry: { type: 'line', points: [at(5, 5), at(5, 10)] } }),
  ];
  return {
    shapes: new Map(shapes.map((s) => [s.shape_id, s])),
    items: new Map(),
    typed: {},
    frame: { north: LAT + 60 * M, south: LAT, east: LNG + 100 * M * K, west: LNG },
  };
}

let n = 0;
const opts = (extra: Partial<Parameters<typeof applyOperations>[2]> = {}) => ({
  coordinateOrder: 'lat_lng' as const,
  canDelete: true,
  newId: () => `new_${++n}`,
  ...extra,
});

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return { status: (err as { status: number }).status, ...(err as { body: Record<string, unknown> }).body };
  }
  throw new Error('expected a refusal');
};

describe('the op table', () => {
  it('a hole cuts its area exactly and takes its phase', () => {
    const s = lotState();
    const before = totalsOf(s).area_sqft;
    const r = applyOperations(
      s,
      [{ op: 'add_area', surface: 'hole', coordinates: box(40, 20, 60, 40), phase: 'Phase 9' }],
      opts(),
    );
    const hole = s.shapes.get(r.results[0].id)!;
    expect(hole.phase).toBe('Phase 2');
    expect(r.results[0].cuts).toBe('lot');
    expect(totalsOf(s).area_sqft).toBeCloseTo(before - hole.quantity, 1);
    // 20 m × 20 m by 111,320 m a degree; turf's sphere makes a degree 0.1% shorter.
    expect(Math.abs(hole.quantity - 400 * 10.7639) / (400 * 10.7639)).toBeLessThan(0.005);
  });

  it('a count or line without a phase takes the phase of the area it sits in; outside, none', () => {
    const s = lotState();
    const r = applyOperations(
      s,
      [
        { op: 'add_count', category: 'bollard', coordinates: at(50, 30) },
        { op: 'add_line', category: 'curb', coordinates: [at(1, 1), at(90, 1)], spec: 'rolled' },
        { op: 'add_count', category: 'arrows', coordinates: at(150, 30) },
        { op: 'add_count', category: 'arrows', coordinates: at(50, 30), phase: 'Phase 1' },
      ],
      opts(),
    );
    expect(r.results.map((x) => s.shapes.get(x.id)!.phase)).toEqual(['Phase 2', 'Phase 2', null, 'Phase 1']);
    expect(r.results[1].quantity).toBeCloseTo(89 * 3.28084, 0);
  });

  it('reclassify stays within the kind and drops the old type; set_spec takes only options.types', () => {
    const s = lotState();
    applyOperations(s, [{ op: 'set_spec', id: 'line', spec: '6 in' }], opts());
    expect(s.shapes.get('line')!.spec).toBe('6 in');
    applyOperations(s, [{ op: 'reclassify', id: 'line', category: 'lines_yellow' }], opts());
    expect(s.shapes.get('line')).toMatchObject({ category: 'lines_yellow', spec: null, label: 'Lines (yellow)' });
    expect(
      refusal(() => applyOperations(s, [{ op: 'reclassify', id: 'line', category: 'bollard' }], opts())),
    ).toMatchObject({
      status: 400,
      operation_index: 0,
    });
    expect(refusal(() => applyOperations(s, [{ op: 'set_spec', id: 'line', spec: 'glitter' }], opts()))).toMatchObject({
      status: 422,
      error: 'Unknown type',
    });
    expect(
      refusal(() => applyOperations(s, [{ op: 'add_count', category: 'unicorns', coordinates: at(1, 1) }], opts())),
    ).toMatchObject({
      status: 400,
      error: 'Unknown category',
    });
  });

  it('not editable here: detected stalls, typed-over categories, service-carrying areas and their cut-outs, rulers', () => {
    const s = lotState();
    expect(refusal(() => applyOperations(s, [{ op: 'remove', id: 'stall' }], opts()))).toMatchObject({
      status: 422,
      error: 'Edit in the takeoff editor',
    });
    s.typed.lines_white = 500;
    expect(refusal(() => applyOperations(s, [{ op: 'set_phase', id: 'line', phase: 'A' }], opts()))).toMatchObject({
      status: 422,
    });
    expect(
      refusal(() =>
        applyOperations(s, [{ op: 'add_line', category: 'lines_white', coordinates: [at(1, 1), at(2, 2)] }], opts()),
      ),
    ).toMatchObject({
      status: 422,
    });
    const lot = s.shapes.get('lot')!;
    lot.service_id = 12;
    const areaOf = (x: ShapeState) => areaHolding(s.shapes.values(), x);
    expect(actionsOf(lot, s, areaOf)).toEqual(['set_phase']);
    expect(
      refusal(() => applyOperations(s, [{ op: 'set_surface', id: 'lot', surface: 'concrete' }], opts())),
    ).toMatchObject({ status: 422 });
    applyOperations(s, [{ op: 'set_phase', id: 'lot', phase: 'Phase 3' }], opts());
    expect(
      refusal(() =>
        applyOperations(s, [{ op: 'add_area', surface: 'hole', coordinates: box(40, 20, 60, 40) }], opts()),
      ),
    ).toMatchObject({
      status: 422,
    });
    s.shapes.set(
      'tape',
      shape('tape', {
        kind: 'custom',
        item: 'Tape',
        item_key: 'measuring_tape',
        geometry: { type: 'line', points: [at(1, 1), at(9, 9)] },
      }),
    );
    expect(actionsOf(s.shapes.get('tape')!, s, areaOf)).toEqual([]);
  });

  it('a shape kilometres away is refused; custom items need a type when new and keep their shape', () => {
    const s = lotState();
    expect(
      refusal(() =>
        applyOperations(s, [{ op: 'add_count', category: 'bollard', coordinates: [LAT + 0.1, LNG] }], opts()),
      ),
    ).toMatchObject({
      status: 400,
      error: 'Shape is far from the takeoff',
    });
    expect(
      refusal(() => applyOperations(s, [{ op: 'add_custom_shape', item: 'Planters', coordinates: at(1, 1) }], opts())),
    ).toMatchObject({
      error: 'item_type is required',
    });
    applyOperations(
      s,
      [{ op: 'add_custom_shape', item: 'Planters', item_type: 'point', coordinates: at(1, 1) }],
      opts(),
    );
    expect(
      refusal(() =>
        applyOperations(s, [{ op: 'add_custom_shape', item: 'planters', coordinates: [at(1, 1), at(2, 2)] }], opts()),
      ),
    ).toMatchObject({
      error: 'Wrong shape for item',
    });
  });

  it('remove needs Delete records, named on the first remove', () => {
    const s = lotState();
    expect(
      refusal(() =>
        applyOperations(
          s,
          [
            { op: 'set_phase', id: 'line', phase: 'A' },
            { op: 'remove', id: 'line' },
          ],
          opts({ canDelete: false }),
        ),
      ),
    ).toMatchObject({ status: 403, operation_index: 1, error: 'API key lacks delete permission' });
  });

  it('removing an area takes the holes that cut it', () => {
    const s = lotState();
    const r = applyOperations(s, [{ op: 'add_area', surface: 'hole', coordinates: box(40, 20, 60, 40) }], opts());
    const out = applyOperations(s, [{ op: 'remove', id: 'lot' }], opts());
    expect(out.results[0].removed).toEqual(['lot', r.results[0].id]);
  });
});

describe('coordinate order', () => {
  it('lat_lng and lng_lat give identical results', () => {
    const point = fc.tuple(fc.double({ min: 0, max: 100, noNaN: true }), fc.double({ min: 0, max: 60, noNaN: true }));
    fc.assert(
      fc.property(
        fc.uniqueArray(point, {
          minLength: 3,
          maxLength: 8,
          selector: ([x, y]) => `${Math.round(x)},${Math.round(y)}`,
        }),
        (pts) => {
          const ring = pts.map(([x, y]) => at(x, y));
          const ops = (flip: boolean) => [
            { op: 'add_line', category: 'curb', coordinates: ring.map((p) => (flip ? [p[1], p[0]] : p)) },
            { op: 'add_count', category: 'bollard', coordinates: flip ? [ring[0][1], ring[0][0]] : ring[0] },
          ];
          const a = applyOperations(lotState(), ops(false), opts());
          const b = applyOperations(lotState(), ops(true), opts({ coordinateOrder: 'lng_lat' }));
          expect(b.results.map((r) => [r.quantity, r.unit])).toEqual(a.results.map((r) => [r.quantity, r.unit]));
        },
      ),
      { numRuns: 50 },
    );
  });
});
