// Landscape takeoffs, items and runs as the API answers them (docs/landscape.md).
import type { Static } from '@sinclair/typebox';
import type { AreaUnit } from '#engines/geometry/index.ts';
import type { LandscapeItem, LandscapeRun, LandscapeTakeoff } from '#db/tables.ts';
import { zWire } from '#platform/time.ts';
import { SCREENING_NOTE } from '../measurements/serialize.ts';
import { isTree, labelOf, objectClass } from './classes.ts';
import { quantitiesObject, type StoredQuantities } from './quantities.ts';
import type { DotSchema, ItemSchema, RunSchema, TakeoffRowSchema, TakeoffSchema } from './schemas.ts';
import type { PlanSource } from './plans/start.ts';
import type { DotKind, StoredPlanQuantities } from './plans/quantities.ts';

/** Aerial quantities in the asked unit; a plan's as stored (its areas are the editor's: none here). */
export const quantitiesOf = (t: LandscapeTakeoff, unit: AreaUnit) =>
  t.type === 'blueprint'
    ? (JSON.parse(t.quantities) as StoredPlanQuantities)
    : quantitiesObject(JSON.parse(t.quantities) as StoredQuantities, unit);

export function takeoffObject(t: LandscapeTakeoff, unit: AreaUnit = 'sf'): Static<typeof TakeoffSchema> {
  return {
    id: t.id,
    object: 'landscape_takeoff',
    name: t.name,
    type: t.type,
    mode: t.mode,
    editor: t.editor,
    job_id: t.job_id,
    unit,
    quantities: quantitiesOf(t, unit),
    page_count: t.page_count,
    pages: t.plan_source === null ? null : (JSON.parse(t.plan_source) as PlanSource).pages,
    schedule: t.schedule === null ? null : (JSON.parse(t.schedule) as Static<typeof TakeoffSchema>['schedule']),
    ai_detection: { enabled: t.type === 'aerial' && t.mode === 'auto', credit_used: t.credit_used === 1 },
    rev: t.rev,
    item_count: t.item_count,
    sent_for_cleanup: t.cleanup === 'sent',
    screening_note: SCREENING_NOTE,
    editor_url: `/app/landscape-takeoffs/${t.id}`,
    created_by_user_id: t.created_by_user_id,
    created_at: zWire(t.created_at),
    updated_at: zWire(t.updated_at),
  };
}

/** A row of GET /v1/landscape-takeoffs: aerial adds mode, plan adds editor (document 3). */
export function takeoffRow(t: LandscapeTakeoff): Static<typeof TakeoffRowSchema> {
  return {
    id: t.id,
    name: t.name,
    type: t.type,
    ...(t.type === 'aerial' && t.mode ? { mode: t.mode } : {}),
    ...(t.type === 'blueprint' && t.editor ? { editor: t.editor } : {}),
    job_id: t.job_id,
    created_at: zWire(t.created_at),
    updated_at: zWire(t.updated_at),
  };
}

export function itemObject(i: LandscapeItem): Static<typeof ItemSchema> {
  return {
    id: i.id,
    object: 'landscape_item',
    kind: i.kind === 'area' ? 'area' : 'object',
    class: i.class,
    label: labelOf(i.class),
    tree: objectClass(i.class) ? isTree(i.class) : null,
    phase: i.phase,
    area_sqft: i.area_sqft,
    rings: i.rings === null ? null : JSON.parse(i.rings),
    lat: i.lat,
    lng: i.lng,
    source: i.source,
    run_id: i.run_id,
    created_at: zWire(i.created_at),
    updated_at: zWire(i.updated_at),
  };
}

/** A plan's dot (document 3: dots {id, plant_id, plant_name, kind, page, x, y, quantity, callout_quantity}). */
export function dotObject(i: LandscapeItem, plantNames: ReadonlyMap<number, string>): Static<typeof DotSchema> {
  return {
    id: i.id,
    object: 'landscape_dot',
    plant_id: i.plant_id,
    plant_name: i.plant_id === null ? null : (plantNames.get(i.plant_id) ?? null),
    kind: i.class as DotKind,
    page: i.page ?? 0,
    x: i.x ?? 0,
    y: i.y ?? 0,
    quantity: i.quantity,
    callout_quantity: i.callout_quantity,
    source: i.source,
    run_id: i.run_id,
    created_at: zWire(i.created_at),
    updated_at: zWire(i.updated_at),
  };
}

/** An aerial item or a plan dot, as the API answers it. */
export const answeredItem = (i: LandscapeItem, plantNames: ReadonlyMap<number, string>) =>
  i.kind === 'dot' ? dotObject(i, plantNames) : itemObject(i);

export const runPollUrl = (id: number) => `/v1/landscape-runs/${id}`;

export function runObject(r: LandscapeRun): Static<typeof RunSchema> {
  return {
    id: r.id,
    object: 'landscape_run',
    kind: r.kind,
    status: r.status,
    takeoff_id: r.takeoff_id,
    job_id: r.job_id,
    poll_url: runPollUrl(r.id),
    request: JSON.parse(r.request),
    result: r.result === null ? null : JSON.parse(r.result),
    failure: r.failure_code === null ? null : { code: r.failure_code, message: r.failure_message ?? '' },
    credit_used: r.charged === 1,
    created_at: zWire(r.created_at),
    started_at: r.started_at === null ? null : zWire(r.started_at),
    completed_at: r.completed_at === null ? null : zWire(r.completed_at),
    undone_at: r.undone_at === null ? null : zWire(r.undone_at),
  };
}
