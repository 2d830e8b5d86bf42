// The 200 operations of one save in bench/measurement.ts, chosen from the measurement as it stands
// (its shapes as the edit engine loads them): what an office does to a detected lot in one sitting.
// As many shapes are removed as added, so the measurement keeps its size save after save:
//   30 add_count, 30 add_line, 5 add_area (new counts and lines without a phase take the phase of
//   the area they sit in, a search over the areas), 60 removes of counts and lines and 5 of areas
//   without islands, 30 set_phase, 20 set_spec, 20 reclassify.
// Every target is a distinct shape the API lets edit (no read-only category such as stalls).
import { lockOf } from '#measurement/shapes/editable.ts';
import { areaHolding } from '#measurement/shapes/sits-in.ts';
import type { EditState, ShapeState } from '#measurement/shapes/state.ts';
import { EDITABLE_COUNT_CATEGORIES, EDITABLE_LINE_CATEGORIES, TYPES } from '#measurement/shapes/vocabulary.ts';
import { LOT, lotPoint, pick } from './measurement-seed.ts';

export const MIX = {
  add_count: 30,
  add_line: 30,
  add_area: 5,
  remove: 65,
  set_phase: 30,
  set_spec: 20,
  reclassify: 20,
} as const;

type Op = Record<string, unknown>;

const shuffled = <T>(rand: () => number, xs: T[]): T[] => {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
};

/** The save's operations against `state`, in a shuffled order. */
export function editOperations(state: EditState, rand: () => number): Op[] {
  const shapes = [...state.shapes.values()];
  const areaOf = (s: ShapeState) => areaHolding(shapes, s);
  const editable = shuffled(
    rand,
    shapes.filter((s) => (s.kind === 'count' || s.kind === 'line') && lockOf(s, state, areaOf) === null),
  );
  // Areas without an island (removing one with an island removes the island too: fine, but rarer).
  const holes = shapes.filter((s) => s.kind === 'area' && s.surface === 'hole');
  const cut = new Set(holes.map((h) => areaOf(h)?.shape_id));
  const areas = shuffled(
    rand,
    shapes.filter((s) => s.kind === 'area' && s.surface !== 'hole' && !cut.has(s.shape_id)),
  );
  const need = MIX.remove - 5 + MIX.set_phase + MIX.set_spec + MIX.reclassify;
  if (editable.length < need || areas.length < 5)
    throw new Error(`the measurement has ${editable.length} editable counts and lines, the save needs ${need}`);
  let next = 0;
  const target = () => editable[next++]!;
  const somewhere = () => lotPoint(1 + rand() * (LOT.sideM - 12), 1 + rand() * (LOT.sideM - 12));
  const categoriesOf = (s: ShapeState) => (s.kind === 'count' ? EDITABLE_COUNT_CATEGORIES : EDITABLE_LINE_CATEGORIES);
  const ops: Op[] = [];
  for (let i = 0; i < MIX.add_count; i++) {
    const category = pick(rand, EDITABLE_COUNT_CATEGORIES);
    ops.push({ op: 'add_count', category, spec: pick(rand, TYPES[category]!), coordinates: somewhere() });
  }
  for (let i = 0; i < MIX.add_line; i++) {
    const category = pick(rand, EDITABLE_LINE_CATEGORIES);
    const [lat, lng] = somewhere();
    ops.push({
      op: 'add_line',
      category,
      spec: pick(rand, TYPES[category]!),
      coordinates: [
        [lat, lng],
        [lat + 8 / 111_320, lng],
      ],
    });
  }
  for (let i = 0; i < MIX.add_area; i++) {
    const [lat, lng] = somewhere();
    const d = 6 / 111_320;
    ops.push({
      op: 'add_area',
      surface: 'concrete',
      phase: 'Phase 3',
      coordinates: [
        [lat, lng],
        [lat, lng + d * 1.3],
        [lat + d, lng + d * 1.3],
        [lat + d, lng],
      ],
    });
  }
  for (let i = 0; i < 5; i++) ops.push({ op: 'remove', id: areas[i]!.shape_id });
  for (let i = 0; i < MIX.remove - 5; i++) ops.push({ op: 'remove', id: target().shape_id });
  for (let i = 0; i < MIX.set_phase; i++)
    ops.push({ op: 'set_phase', id: target().shape_id, phase: pick(rand, ['Phase 1', 'Phase 2', 'Phase 3']) });
  for (let i = 0; i < MIX.set_spec; i++) {
    const s = target();
    ops.push({ op: 'set_spec', id: s.shape_id, spec: pick(rand, TYPES[s.category!]!) });
  }
  for (let i = 0; i < MIX.reclassify; i++) {
    const s = target();
    const category = pick(
      rand,
      categoriesOf(s).filter((c) => c !== s.category),
    );
    ops.push({ op: 'reclassify', id: s.shape_id, category, spec: pick(rand, TYPES[category]!) });
  }
  return shuffled(rand, ops);
}
