// From what the plan engine read to what a plan takeoff stores: the schedule's rows as plants, and
// callouts as callout dots (each at its callout's text, counting what it states). Pure but for
// insertPlants.
import type { Insertable } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { LandscapeTakeoff } from '#db/tables.ts';
import type { LandscapePlantTable } from '#db/tables/landscape.ts';
import { type Callout, type PlantSchedule, readCallouts, type SheetText } from '#engines/plans/index.ts';
import { now } from '#platform/time.ts';
import type { NewItem } from '../save.ts';

type PlantValues = Omit<Insertable<LandscapePlantTable>, 'id' | 'firm_id' | 'takeoff_id' | 'created_at' | 'updated_at'>;

/** A plant per schedule row, in the schedule's order; each unit EA (one plant). */
export function plantRowsOf(schedule: Pick<PlantSchedule, 'rows'>): PlantValues[] {
  return schedule.rows.map((r, i) => ({
    code: r.code,
    name: r.botanical_name,
    common_name: r.common_name,
    size: r.size,
    kind: 'plant',
    unit: 'EA',
    typed_quantity: r.quantity,
    symbol_box: r.symbol_box === null ? null : JSON.stringify(r.symbol_box),
    position: i + 1,
  }));
}

export async function insertPlants(
  trx: Executor,
  takeoff: Pick<LandscapeTakeoff, 'id' | 'firm_id'>,
  rows: PlantValues[],
): Promise<{ id: number; code: string }[]> {
  if (rows.length === 0) return [];
  const at = now();
  return trx
    .insertInto('landscape_plants')
    .values(
      rows.map((p) => ({ ...p, firm_id: takeoff.firm_id, takeoff_id: takeoff.id, created_at: at, updated_at: at })),
    )
    .returning(['id', 'code'])
    .execute();
}

/** The schedule's own box, left out when callouts and symbols are read (its rows are not callouts). */
export function scheduleExclusion(
  schedule: Pick<PlantSchedule, 'page' | 'box'>,
): { page: number; box: NonNullable<PlantSchedule['box']> }[] {
  return schedule.page !== null && schedule.box !== null ? [{ page: schedule.page, box: schedule.box }] : [];
}

export function calloutDotsOf(callouts: Callout[], plants: { id: number; code: string }[], runId: number): NewItem[] {
  const byCode = new Map(plants.map((p) => [p.code.toUpperCase(), p.id]));
  const out: NewItem[] = [];
  for (const c of callouts) {
    const plantId = byCode.get(c.code.toUpperCase());
    if (plantId === undefined) continue;
    out.push(dotItem({ plantId, kind: 'callout', page: c.page, x: c.x, y: c.y, calloutQuantity: c.count, runId }));
  }
  return out;
}

/** Callout dots for the plants' codes on the sheets given (the schedule's box left out). */
export function calloutDots(
  texts: SheetText[],
  schedule: Pick<PlantSchedule, 'page' | 'box'>,
  plants: { id: number; code: string }[],
  runId: number,
): NewItem[] {
  if (plants.length === 0) return [];
  const callouts = readCallouts(
    texts,
    plants.map((p) => p.code),
    { exclude: scheduleExclusion(schedule) },
  );
  return calloutDotsOf(callouts, plants, runId);
}

const px = (n: number) => Math.round(n * 10) / 10;

/** A model-found dot as stored. */
export function dotItem(d: {
  plantId: number;
  kind: 'plant' | 'callout';
  page: number;
  x: number;
  y: number;
  calloutQuantity?: number;
  quantity?: number | null;
  runId: number;
}): NewItem {
  return {
    kind: 'dot',
    class: d.kind,
    phase: null,
    rings: null,
    lat: null,
    lng: null,
    area_sqft: null,
    source: 'detected',
    run_id: d.runId,
    plant_id: d.plantId,
    page: d.page,
    x: px(d.x),
    y: px(d.y),
    quantity: d.quantity ?? null,
    callout_quantity: d.calloutQuantity ?? null,
  };
}
