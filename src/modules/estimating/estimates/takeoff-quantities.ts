// Lines that take their quantity from a takeoff (document 3: an area's quantity_source takeoff with
// its takeoff_id; a line's quantity_source inherited, and "a typed quantity replaces the takeoff's
// and is flagged manual"). An area is linked to a measurement (PATCH …/estimates/{id} areas
// [{id, takeoff_id}]); a line in it names the measured quantity it takes (measurement_quantity:
// "area", "surface:main", "line:curb", "count:stalls", "item:Planters"), converted to the line's
// unit (SF to SY, …). The quantities come from the measurement area through its contribution
// (src/area.ts, takeoffQuantities), so estimating never reads its tables. When a measurement is
// saved, its linked estimates that can still change re-pull (repullTakeoff), each priced and
// logged as one revision. docs/api-decisions.md, "Estimates from measurements".
import { contributions, type TakeoffQuantity } from '#src/area.ts';
import type { EstimateArea, EstimateLine } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { invalidField, notFound } from '#platform/errors.ts';
import type { Places } from './drive-times.ts';
import { convertsTo, quantityInUnit } from './quantity-units.ts';
import { EDITABLE, type RevisionNote, type Trx, writeFoundEstimate, type WriteStep } from './write.ts';

const KEY = /^(area|(surface|line|count|painted):[a-z_]{1,40}|item:\S.{0,99})$/;

export const takeoffNotFound = (field: string) =>
  notFound('Measurement not found', { code: 'measurement_not_found', field });

/** The measurement's quantities, or 404 when the user cannot see it here. */
export async function quantitiesOf(
  step: Pick<WriteStep, 'ctx' | 'trx'>,
  takeoffId: number,
  field: string,
): Promise<Map<string, TakeoffQuantity>> {
  const answer = contributions().takeoffQuantities;
  const found = answer && (await answer(step.trx, step.ctx.auth.firm.id, step.ctx.auth.user, takeoffId));
  if (!found) throw takeoffNotFound(field);
  return found;
}

/** A measurement_quantity as sent: one of the key forms. */
export function checkedKey(key: string): string {
  const k = key.trim();
  if (!KEY.test(k))
    throw invalidField(
      'measurement_quantity',
      'measurement_quantity is area, surface:<surface>, line:<category>, count:<category>, painted:<category> or item:<custom item>',
    );
  return k;
}

/** The line's quantity as text from a measured one, or null when the units do not convert. */
export function inLineUnit(q: TakeoffQuantity | undefined, unit: string, key: string): string | null {
  // A category not measured (yet) is none of it: 0 in the unit the key measures in.
  const measured = q ?? {
    quantity: 0,
    unit: key === 'area' || key.startsWith('surface:') ? 'SF' : key.startsWith('line:') ? 'LF' : 'EA',
  };
  if (!convertsTo(measured.unit, unit)) return null;
  return String(quantityInUnit(new Map([[measured.unit, Math.round(measured.quantity * 100)]]), unit) / 100);
}

/**
 * The quantity a line in `area` takes for `key`; refused when the area is not linked to a
 * measurement or the units do not convert.
 */
export async function takenQuantity(
  step: Pick<WriteStep, 'ctx' | 'trx'>,
  area: EstimateArea,
  key: string,
  unit: string,
) {
  if (area.takeoff_id === null)
    throw invalidField(
      'measurement_quantity',
      `The line's area (${area.name}) is not linked to a measurement: PATCH the estimate with areas [{id, takeoff_id}] first`,
    );
  const quantities = await quantitiesOf(step, area.takeoff_id, 'measurement_quantity');
  const quantity = inLineUnit(quantities.get(key), unit, key);
  if (quantity === null) {
    const from = quantities.get(key)?.unit ?? 'its unit';
    throw invalidField(
      'measurement_quantity',
      `${key} is measured in ${from}, which does not convert to the line's ${unit}`,
    );
  }
  return quantity;
}

/**
 * Brings the lines of the given areas that take a takeoff quantity (not typed over) up to date.
 * Returns what changed, for the revision note.
 */
export async function pullTakeoffLines(step: WriteStep, areaIds?: ReadonlySet<number>) {
  const { trx, tree, at } = step;
  const changed: { line_item_id: number; from: string; to: string }[] = [];
  const byTakeoff = new Map<number, Map<string, TakeoffQuantity>>();
  for (const area of tree.areas) {
    if (area.takeoff_id === null || (areaIds && !areaIds.has(area.id))) continue;
    const lines = tree.lines.filter(
      (l) => l.area_id === area.id && l.measurement_quantity !== null && l.quantity_source !== 'manual',
    );
    if (lines.length === 0) continue;
    let quantities = byTakeoff.get(area.takeoff_id);
    if (!quantities) {
      // A measurement gone with its job (or one the user cannot see) leaves the lines as they are.
      const answer = contributions().takeoffQuantities;
      const found = answer && (await answer(trx, step.ctx.auth.firm.id, step.ctx.auth.user, area.takeoff_id));
      if (!found) continue;
      quantities = found;
      byTakeoff.set(area.takeoff_id, quantities);
    }
    for (const line of lines) {
      const to = inLineUnit(quantities.get(line.measurement_quantity!), line.unit, line.measurement_quantity!);
      if (to === null || Number(to) === Number(line.quantity)) continue;
      await trx.updateTable('estimate_lines').set({ quantity: to, updated_at: at }).where('id', '=', line.id).execute();
      changed.push({ line_item_id: line.id, from: line.quantity, to });
      (line as EstimateLine).quantity = to;
    }
  }
  return changed;
}

/**
 * After a measurement's save: every estimate with an area linked to it that can still change
 * (draft, estimate, change order; not archived) re-pulls, in the save's transaction (opened with
 * inEstimateTransaction), each priced and logged as one revision.
 */
export async function repullTakeoff(ctx: ServiceContext, trx: Trx, places: Places, takeoffId: number): Promise<number> {
  const firmId = ctx.auth.firm.id;
  const estimates = await trx
    .selectFrom('estimates')
    .selectAll('estimates')
    .where('estimates.firm_id', '=', firmId)
    .where('estimates.status', 'in', [...EDITABLE])
    .where('estimates.archived_at', 'is', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('estimate_areas as a')
          .select('a.id')
          .whereRef('a.estimate_id', '=', 'estimates.id')
          .where('a.takeoff_id', '=', takeoffId)
          .where('a.active', '=', 1),
      ),
    )
    .orderBy('estimates.id')
    .execute();
  let touched = 0;
  for (const estimate of estimates) {
    await writeFoundEstimate(
      ctx,
      trx,
      places,
      estimate,
      { statuses: EDITABLE },
      async (step): Promise<RevisionNote | null> => {
        const areas = new Set(step.tree.areas.filter((a) => a.takeoff_id === takeoffId).map((a) => a.id));
        const changed = await pullTakeoffLines(step, areas);
        if (changed.length === 0) return null;
        touched++;
        return {
          action: 'line_changed',
          summary: `Quantities re-pulled from measurement ${takeoffId}`,
          changes: { lines: changed, source: 'measurement', measurement_id: takeoffId },
        };
      },
    );
  }
  return touched;
}

/** A deleted measurement: its areas keep their lines and quantities, no longer linked (manual). */
export async function unlinkTakeoff(trx: Trx, firmId: number, takeoffId: number, at: string): Promise<void> {
  await trx
    .updateTable('estimate_areas')
    .set({ takeoff_id: null, quantity_source: 'manual', updated_at: at })
    .where('firm_id', '=', firmId)
    .where('takeoff_id', '=', takeoffId)
    .execute();
}
