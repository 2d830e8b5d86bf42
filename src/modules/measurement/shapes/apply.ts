// The shape-edit engine (document 3, "Saved-takeoff shapes", the op table and its rules): a save's
// operations applied in order to the measurement's shapes held in memory. Any refusal throws
// (naming operation_index) before anything is written, so a save is all or nothing; save.ts
// writes what this leaves. No database, no clock: the bench times it alone against a whole save.
import {
  distanceM,
  type Geometry,
  type LatLng,
  openRing,
  pointsOf,
  type Ring,
  whyNot,
} from '#engines/geometry/index.ts';
import { actionsOf, lockOf } from './editable.ts';
import {
  editInEditor,
  farFromTakeoff,
  invalidOperation,
  itemTypeRequired,
  lacksDelete,
  shapeNotFound,
  unknownCategory,
  unknownOpFields,
  unknownType,
  wrongShapeForItem,
} from './op-errors.ts';
import { areaHolding, areasOf } from './sits-in.ts';
import { type EditState, type ItemState, newShape, type ShapeState } from './state.ts';
import {
  AREA_SURFACES,
  EDITABLE_COUNT_CATEGORIES,
  EDITABLE_LINE_CATEGORIES,
  FAR_FROM_TAKEOFF_M,
  LABELS,
  type Op,
  OPS,
  TYPES,
} from './vocabulary.ts';

export type CoordinateOrder = 'lat_lng' | 'lng_lat';

export interface ApplyOptions {
  coordinateOrder: CoordinateOrder;
  /** The key has Delete records (remove needs it). */
  canDelete: boolean;
  /** A new shape's stable id. */
  newId: () => string;
}

export interface OpResult {
  index: number;
  op: Op;
  id: string;
  quantity: number | null;
  unit: string | null;
  [more: string]: unknown;
}

export interface Applied {
  results: OpResult[];
  /** Shapes that existed before the save, as they were, for every one changed or removed. */
  before: Map<string, ShapeState>;
  added: Set<string>;
  removed: Set<string>;
  newItems: ItemState[];
}

const FIELDS: Record<Op, readonly string[]> = {
  add_area: ['coordinates', 'surface', 'phase'],
  add_count: ['category', 'coordinates', 'spec', 'phase'],
  add_line: ['category', 'coordinates', 'spec', 'phase'],
  add_custom_shape: ['item', 'coordinates', 'item_type', 'color', 'phase'],
  remove: ['id'],
  reclassify: ['id', 'category', 'spec', 'item'],
  set_spec: ['id', 'spec'],
  set_phase: ['id', 'phase'],
  set_surface: ['id', 'surface'],
};

const ITEM_COLORS = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#46f0f0', '#f032e6', '#9a6324'];
const HEX = /^#[0-9a-fA-F]{6}$/;
const MAX_TEXT = 100;
const MAX_POINTS = 10_000;

type Raw = Record<string, unknown>;

class Applier {
  readonly results: OpResult[] = [];
  readonly before = new Map<string, ShapeState>();
  readonly added = new Set<string>();
  readonly removed = new Set<string>();
  readonly newItems: ItemState[] = [];
  private index = 0;

  constructor(
    private readonly state: EditState,
    private readonly options: ApplyOptions,
  ) {}

  run(ops: unknown[]): Applied {
    if (!this.options.canDelete) {
      const i = ops.findIndex((o) => (o as Raw | null)?.op === 'remove');
      if (i >= 0) throw lacksDelete(i);
    }
    ops.forEach((raw, index) => {
      this.index = index;
      this.results.push(this.apply(this.checked(raw)));
    });
    return {
      results: this.results,
      before: this.before,
      added: this.added,
      removed: this.removed,
      newItems: this.newItems,
    };
  }

  private checked(raw: unknown): Raw & { op: Op } {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
      throw invalidOperation(this.index, 'Each operation is an object with op');
    const o = raw as Raw;
    if (typeof o.op !== 'string' || !(OPS as readonly string[]).includes(o.op))
      throw invalidOperation(this.index, `op must be one of ${OPS.join(', ')}`, 'op');
    const allowed = FIELDS[o.op as Op];
    const extra = Object.keys(o).filter((k) => k !== 'op' && !allowed.includes(k));
    if (extra.length > 0) throw unknownOpFields(this.index, extra);
    return o as Raw & { op: Op };
  }

  private apply(o: Raw & { op: Op }): OpResult {
    switch (o.op) {
      case 'add_area':
        return this.addArea(o);
      case 'add_count':
        return this.addCountOrLine(o, 'count');
      case 'add_line':
        return this.addCountOrLine(o, 'line');
      case 'add_custom_shape':
        return this.addCustom(o);
      case 'remove':
        return this.remove(o);
      case 'reclassify':
        return this.reclassify(o);
      case 'set_spec':
        return this.setSpec(o);
      case 'set_phase':
        return this.setPhase(o);
      case 'set_surface':
        return this.setSurface(o);
    }
  }

  // ---- reading fields ----

  private text(o: Raw, field: string, required: boolean): string | null {
    const v = o[field];
    if (v === undefined || v === null) {
      if (required) throw invalidOperation(this.index, `${field} is required`, field);
      return null;
    }
    if (typeof v !== 'string' || v.trim() === '' || v.length > MAX_TEXT)
      throw invalidOperation(this.index, `${field} must be text of 1 to ${MAX_TEXT} characters`, field);
    return v.trim();
  }

  private point(v: unknown): LatLng {
    if (!Array.isArray(v) || v.length !== 2 || !v.every((n) => typeof n === 'number' && Number.isFinite(n)))
      throw invalidOperation(this.index, 'A point is [lat, lng] (two numbers)', 'coordinates');
    const p = v as [number, number];
    return this.options.coordinateOrder === 'lng_lat' ? [p[1], p[0]] : [p[0], p[1]];
  }

  private points(v: unknown): LatLng[] {
    if (!Array.isArray(v) || v.length === 0 || v.length > MAX_POINTS)
      throw invalidOperation(this.index, `coordinates must be a list of 1 to ${MAX_POINTS} points`, 'coordinates');
    return v.map((p) => this.point(p));
  }

  /** A ring ([[lat, lng], …]) or a list of rings, outline first. */
  private rings(v: unknown): Ring[] {
    if (!Array.isArray(v) || v.length === 0)
      throw invalidOperation(this.index, 'coordinates is required', 'coordinates');
    const nested = Array.isArray(v[0]) && Array.isArray((v[0] as unknown[])[0]);
    const rings = (nested ? (v as unknown[]) : [v]).map((r) => openRing(this.points(r)));
    if (rings.length > 100) throw invalidOperation(this.index, 'A polygon has at most 100 rings', 'coordinates');
    return rings;
  }

  private geometry(type: Geometry['type'], coordinates: unknown): Geometry {
    if (coordinates === undefined) throw invalidOperation(this.index, 'coordinates is required', 'coordinates');
    const g: Geometry =
      type === 'point'
        ? { type, point: this.point(coordinates) }
        : type === 'line'
          ? { type, points: this.points(coordinates) }
          : { type, rings: this.rings(coordinates) };
    const why = whyNot(g);
    if (why) throw invalidOperation(this.index, why, 'coordinates');
    this.assertNear(g);
    return g;
  }

  /** Document 3: "A new shape several kilometers from the takeoff's other shapes is refused." */
  private assertNear(g: Geometry): void {
    const { north, south, east, west } = this.state.frame;
    let far = 0;
    for (const p of pointsOf(g)) {
      const nearest: LatLng = [Math.min(north, Math.max(south, p[0])), Math.min(east, Math.max(west, p[1]))];
      far = Math.max(far, distanceM(p, nearest));
    }
    if (far <= FAR_FROM_TAKEOFF_M) return;
    // The frame may not hold shapes drawn by hand since: near one of those is near enough.
    for (const s of this.state.shapes.values()) {
      const q = pointsOf(s.geometry)[0];
      if (pointsOf(g).every((p) => distanceM(p, q) <= FAR_FROM_TAKEOFF_M)) return;
    }
    throw farFromTakeoff(this.index, far / 1000);
  }

  private phase(o: Raw): string | null {
    return this.text(o, 'phase', false);
  }

  private spec(o: Raw, category: string): string | null {
    const spec = this.text(o, 'spec', false);
    if (spec === null) return null;
    const allowed = TYPES[category] ?? [];
    if (!allowed.includes(spec)) throw unknownType(this.index, spec, category, allowed);
    return spec;
  }

  // ---- shapes ----

  private find(o: Raw): ShapeState {
    const id = o.id;
    if (typeof id !== 'string' || id === '') throw invalidOperation(this.index, 'id is required', 'id');
    const shape = this.state.shapes.get(id);
    if (!shape) throw shapeNotFound(this.index, id);
    return shape;
  }

  /** The measurement's areas, listed again only after an area is added, changed or removed. */
  private areas: ShapeState[] | null = null;
  private areaOf = (shape: ShapeState) => {
    this.areas ??= areasOf(this.state.shapes.values());
    return areaHolding(this.areas, shape);
  };

  /** The shape, refused when the API may not make this change to it. */
  private editable(o: Raw, op: Op): ShapeState {
    const shape = this.find(o);
    const lock = lockOf(shape, this.state, this.areaOf);
    if (lock === 'locked' || (lock === 'phase_only' && op !== 'set_phase'))
      throw editInEditor(
        this.index,
        `${this.describe(shape)} is edited in the takeoff editor${lock === 'phase_only' ? ' (its phase can change here)' : ''}`,
      );
    if (!actionsOf(shape, this.state, this.areaOf).includes(op))
      throw invalidOperation(this.index, `${op} does not apply to ${this.describe(shape)}`, 'op');
    return shape;
  }

  private describe(s: ShapeState): string {
    const what = s.kind === 'custom' ? s.item : s.kind === 'area' ? s.surface : s.category;
    return `Shape ${s.shape_id} (${s.kind}${what ? `, ${LABELS[what] ?? what}` : ''})`;
  }

  /** Keeps the shape as it was before its first change in this save. */
  private touch(shape: ShapeState): ShapeState {
    if (!this.added.has(shape.shape_id) && !this.before.has(shape.shape_id)) this.before.set(shape.shape_id, shape);
    const copy = { ...shape };
    this.state.shapes.set(shape.shape_id, copy);
    if (shape.kind === 'area') this.areas = null;
    return copy;
  }

  private insert(shape: ShapeState, o: Raw & { op: Op }, extra: Record<string, unknown> = {}): OpResult {
    this.state.shapes.set(shape.shape_id, shape);
    this.added.add(shape.shape_id);
    if (shape.kind === 'area') this.areas = null;
    return this.result(o.op, shape, extra);
  }

  private result(op: Op, s: ShapeState, extra: Record<string, unknown> = {}): OpResult {
    return { index: this.index, op, id: s.shape_id, quantity: s.quantity, unit: s.unit, ...extra };
  }

  private blank(kind: ShapeState['kind'], geometry: Geometry): ShapeState {
    return newShape(this.options.newId(), kind, geometry, 'drawn');
  }

  // ---- the ops ----

  private addArea(o: Raw & { op: Op }): OpResult {
    const surface = this.text(o, 'surface', false) ?? 'main';
    if (surface !== 'hole' && !(AREA_SURFACES as readonly string[]).includes(surface))
      throw invalidOperation(this.index, `surface must be one of ${[...AREA_SURFACES, 'hole'].join(', ')}`, 'surface');
    const shape = this.blank('area', this.geometry('polygon', o.coordinates));
    shape.surface = surface as ShapeState['surface'];
    shape.label = LABELS[surface];
    shape.phase = this.phase(o);
    if (surface !== 'hole') return this.insert(shape, o);
    // A hole cuts the area it lies in and takes that area's phase.
    const cut = this.areaOf(shape);
    if (!cut) throw invalidOperation(this.index, 'A hole must lie inside an area of the takeoff', 'coordinates');
    if (lockOf(cut, this.state, this.areaOf) !== null)
      throw editInEditor(this.index, `A cut-out inside ${this.describe(cut)} is made in the takeoff editor`);
    shape.phase = cut.phase;
    return this.insert(shape, o, { cuts: cut.shape_id });
  }

  private addCountOrLine(o: Raw & { op: Op }, kind: 'count' | 'line'): OpResult {
    const allowed = kind === 'count' ? EDITABLE_COUNT_CATEGORIES : EDITABLE_LINE_CATEGORIES;
    const category = this.text(o, 'category', true)!;
    if (!(allowed as readonly string[]).includes(category)) {
      if (category in this.state.typed || LABELS[category])
        throw editInEditor(this.index, `${LABELS[category] ?? category} are edited in the takeoff editor`);
      throw unknownCategory(this.index, category, allowed);
    }
    if (category in this.state.typed)
      throw editInEditor(this.index, `${LABELS[category]}: the quantity was typed over in the takeoff editor`);
    const shape = this.blank(kind, this.geometry(kind === 'count' ? 'point' : 'line', o.coordinates));
    shape.category = category;
    shape.label = LABELS[category];
    shape.spec = this.spec(o, category);
    shape.phase = this.phase(o) ?? this.areaOf(shape)?.phase ?? null;
    return this.insert(shape, o);
  }

  private addCustom(o: Raw & { op: Op }): OpResult {
    const name = this.text(o, 'item', true)!;
    const typeText = this.text(o, 'item_type', false);
    if (typeText !== null && !['point', 'line', 'polygon'].includes(typeText))
      throw invalidOperation(this.index, 'item_type must be point, line or polygon', 'item_type');
    const color = this.text(o, 'color', false);
    if (color !== null && !HEX.test(color)) throw invalidOperation(this.index, 'color is #RRGGBB', 'color');
    let item = this.state.items.get(name.toLowerCase());
    if (item && typeText !== null && typeText !== item.item_type)
      throw wrongShapeForItem(this.index, item.name, item.item_type);
    if (item?.counts_toward_area)
      throw editInEditor(this.index, `${item.name} counts toward the total area: edit it in the takeoff editor`);
    const phase = this.phase(o);
    if (!item) {
      if (typeText === null) throw itemTypeRequired(this.index, name);
      item = {
        name,
        item_type: typeText as ItemState['item_type'],
        color: color ?? ITEM_COLORS[this.state.items.size % ITEM_COLORS.length],
        phase_split: phase !== null,
        counts_toward_area: false,
      };
      this.state.items.set(name.toLowerCase(), item);
      this.newItems.push(item);
    } else if (phase !== null && !item.phase_split) {
      throw invalidOperation(this.index, `${item.name} is not split by phase: send no phase`, 'phase');
    }
    const shape = this.blank('custom', this.geometryFor(item, o.coordinates));
    shape.item = item.name;
    shape.label = item.name;
    shape.phase = phase;
    return this.insert(shape, o);
  }

  /** Coordinates read as the item's geometry; the wrong nesting is "Wrong shape for item". */
  private geometryFor(item: ItemState, coordinates: unknown): Geometry {
    const depth = (v: unknown): number => (Array.isArray(v) ? 1 + depth(v[0]) : 0);
    const d = depth(coordinates);
    const fits = item.item_type === 'point' ? d === 1 : item.item_type === 'line' ? d === 2 : d === 2 || d === 3;
    if (coordinates !== undefined && !fits) throw wrongShapeForItem(this.index, item.name, item.item_type);
    return this.geometry(item.item_type, coordinates);
  }

  private remove(o: Raw & { op: Op }): OpResult {
    const shape = this.editable(o, 'remove');
    const alsoRemoved: string[] = [];
    this.drop(shape);
    // Holes go with the area they cut: left behind they would cut nothing.
    if (shape.kind === 'area' && shape.surface !== 'hole')
      for (const hole of [...this.state.shapes.values()])
        if (hole.kind === 'area' && hole.surface === 'hole' && !this.areaOf(hole)) {
          this.drop(hole);
          alsoRemoved.push(hole.shape_id);
        }
    return {
      index: this.index,
      op: 'remove',
      id: shape.shape_id,
      quantity: null,
      unit: null,
      removed: [shape.shape_id, ...alsoRemoved],
    };
  }

  private drop(shape: ShapeState): void {
    if (!this.added.has(shape.shape_id) && !this.before.has(shape.shape_id)) this.before.set(shape.shape_id, shape);
    if (this.added.delete(shape.shape_id)) {
      // Added and removed in one save: it never existed.
    } else this.removed.add(shape.shape_id);
    this.state.shapes.delete(shape.shape_id);
    if (shape.kind === 'area') this.areas = null;
  }

  private reclassify(o: Raw & { op: Op }): OpResult {
    const shape = this.editable(o, 'reclassify');
    if (shape.kind === 'custom') {
      if (o.category !== undefined || o.spec !== undefined)
        throw invalidOperation(this.index, 'A custom shape moves to another item: send item', 'item');
      const name = this.text(o, 'item', true)!;
      let item = this.state.items.get(name.toLowerCase());
      if (item && item.item_type !== shape.geometry.type)
        throw wrongShapeForItem(this.index, item.name, item.item_type);
      if (item?.counts_toward_area)
        throw editInEditor(this.index, `${item.name} counts toward the total area: edit it in the takeoff editor`);
      if (!item) {
        item = {
          name,
          item_type: shape.geometry.type,
          color: ITEM_COLORS[this.state.items.size % ITEM_COLORS.length],
          phase_split: false,
          counts_toward_area: false,
        };
        this.state.items.set(name.toLowerCase(), item);
        this.newItems.push(item);
      }
      const s = this.touch(shape);
      s.item = item.name;
      s.label = item.name;
      return this.result('reclassify', s, { item: item.name });
    }
    if (o.item !== undefined) throw invalidOperation(this.index, 'item moves custom shapes; send category', 'item');
    const allowed = shape.kind === 'count' ? EDITABLE_COUNT_CATEGORIES : EDITABLE_LINE_CATEGORIES;
    const category = this.text(o, 'category', true)!;
    if (!(allowed as readonly string[]).includes(category)) {
      const otherKind = shape.kind === 'count' ? EDITABLE_LINE_CATEGORIES : EDITABLE_COUNT_CATEGORIES;
      if ((otherKind as readonly string[]).includes(category))
        throw invalidOperation(
          this.index,
          `A ${shape.kind} stays a ${shape.kind}: ${category} is another kind`,
          'category',
        );
      if (LABELS[category]) throw editInEditor(this.index, `${LABELS[category]} are edited in the takeoff editor`);
      throw unknownCategory(this.index, category, allowed);
    }
    if (category in this.state.typed)
      throw editInEditor(this.index, `${LABELS[category]}: the quantity was typed over in the takeoff editor`);
    const spec = this.spec(o, category);
    const s = this.touch(shape);
    s.category = category;
    s.label = LABELS[category];
    // The old type belongs to the old category.
    s.spec = spec;
    return this.result('reclassify', s, { category, spec });
  }

  private setSpec(o: Raw & { op: Op }): OpResult {
    const shape = this.editable(o, 'set_spec');
    if (!('spec' in o)) throw invalidOperation(this.index, 'spec is required (null clears it)', 'spec');
    const spec = this.spec(o, shape.category!);
    const s = this.touch(shape);
    s.spec = spec;
    return this.result('set_spec', s, { spec });
  }

  private setPhase(o: Raw & { op: Op }): OpResult {
    const shape = this.editable(o, 'set_phase');
    if (!('phase' in o)) throw invalidOperation(this.index, 'phase is required (null clears it)', 'phase');
    const phase = this.phase(o);
    const s = this.touch(shape);
    s.phase = phase;
    // Holes keep the phase of the area they cut.
    const holes: string[] = [];
    if (s.kind === 'area' && s.surface !== 'hole')
      for (const hole of [...this.state.shapes.values()])
        if (
          hole.kind === 'area' &&
          hole.surface === 'hole' &&
          hole.phase !== phase &&
          this.areaOf(hole)?.shape_id === s.shape_id
        ) {
          this.touch(hole).phase = phase;
          holes.push(hole.shape_id);
        }
    return this.result('set_phase', s, holes.length > 0 ? { phase, holes } : { phase });
  }

  private setSurface(o: Raw & { op: Op }): OpResult {
    const shape = this.editable(o, 'set_surface');
    const surface = this.text(o, 'surface', true)!;
    if (!(AREA_SURFACES as readonly string[]).includes(surface))
      throw invalidOperation(this.index, `surface must be one of ${AREA_SURFACES.join(', ')}`, 'surface');
    const s = this.touch(shape);
    s.surface = surface as ShapeState['surface'];
    s.label = LABELS[surface];
    return this.result('set_surface', s, { surface });
  }
}

/** Applies the operations in order to `state` (changed in place); throws on the first refusal. */
export function applyOperations(state: EditState, ops: unknown[], options: ApplyOptions): Applied {
  return new Applier(state, options).run(ops);
}
