// What the API may change on a shape (document 3, "Saved-takeoff shapes": "Not editable here (422
// Edit in the takeoff editor)"), and so the `actions` each shape answers. One rule for both, so a
// shape never lists an action its edit would refuse.
import { isReadOnlyCategory } from './vocabulary.ts';
import type { EditState, ShapeState } from './state.ts';
import type { Op } from './vocabulary.ts';

/** A custom item the editor keeps for its measuring tape: rulers are not editable here. */
export const RULER_ITEM_KEY = 'measuring_tape';

/** Carries what the takeoff editor attaches (a service, a type, a catalog item, a work area). */
const carries = (s: ShapeState) =>
  s.service_id !== null || s.spec !== null || s.item_key !== null || s.work_area !== null;

/** The area (not a hole) a point-sitting shape or hole lies in, by the caller's lookup. */
export type AreaOf = (shape: ShapeState) => ShapeState | undefined;

/**
 * Why the shape cannot be edited here: 'locked' (no change at all), 'phase_only' (its phase can
 * still change) or null (every action of its kind).
 */
export function lockOf(shape: ShapeState, state: EditState, areaOf: AreaOf): 'locked' | 'phase_only' | null {
  if (shape.kind === 'painted_shape') return 'locked';
  if (shape.category !== null && (isReadOnlyCategory(shape.category) || shape.category in state.typed)) return 'locked';
  if (shape.kind === 'custom') {
    if (shape.item_key === RULER_ITEM_KEY) return 'locked';
    const item = shape.item === null ? undefined : state.items.get(shape.item.toLowerCase());
    if (item?.counts_toward_area) return 'locked';
    if (carries(shape)) return 'phase_only';
  }
  if (shape.kind === 'area') {
    if (shape.surface !== 'hole' && carries(shape)) return 'phase_only';
    if (shape.surface === 'hole') {
      const cut = areaOf(shape);
      if (cut && carries(cut)) return 'phase_only';
    }
  }
  return null;
}

const BY_KIND: Record<string, readonly Op[]> = {
  area: ['remove', 'set_phase', 'set_surface'],
  hole: ['remove', 'set_phase'],
  count: ['remove', 'reclassify', 'set_spec', 'set_phase'],
  line: ['remove', 'reclassify', 'set_spec', 'set_phase'],
  custom: ['remove', 'reclassify', 'set_phase'],
  painted_shape: [],
};

/** The edits the API allows on this shape, as its `actions`. */
export function actionsOf(shape: ShapeState, state: EditState, areaOf: AreaOf): readonly Op[] {
  const lock = lockOf(shape, state, areaOf);
  if (lock === 'locked') return [];
  if (lock === 'phase_only') return ['set_phase'];
  return BY_KIND[shape.kind === 'area' && shape.surface === 'hole' ? 'hole' : shape.kind];
}
