// PUT /v1/landscape-takeoffs/{id}/schedule (document 3: "plant-schedule location"): where the
// plant schedule is when reading did not find it (or found the wrong table). The body names the
// sheet and a box on it in sheet pixels at 144 dpi; the table inside is read from the sheet's
// stored text (engines/plans readScheduleAt: its header row if it has one, else by position),
// its rows become the takeoff's plants (a code already there keeps its plant and dots; a code no
// longer there goes with its dots) and the callouts of the new codes are read again on every
// sheet. One save: history kept, 409 Takeoff changed on a race. The answer is the takeoff, with
// the schedule's rows and rows_ignored.
import { type PlantSchedule, readScheduleAt, type SheetBox } from '#engines/plans/index.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { now } from '#platform/time.ts';
import { saveChange } from '../save.ts';
import { takeoffObject } from '../serialize.ts';
import { calloutDots, insertPlants, plantRowsOf } from './read.ts';
import { plantsOf, sheetOf, sheetTexts } from './repo.ts';
import { planTakeoffForChange, takenOffPages } from './runs.ts';

export async function placeSchedule(ctx: ServiceContext, id: number, body: { page: number; box: SheetBox }) {
  const read = await planTakeoffForChange(ctx, id);
  await takenOffPages(ctx, read, [body.page], 'page');
  const sheet = (await sheetOf(ctx.database.db, read.id, body.page))!;
  const found: PlantSchedule = readScheduleAt(JSON.parse(sheet.text), body.box);
  const schedule: Omit<PlantSchedule, 'status'> & { status: 'placed' | 'not_found' } = {
    ...found,
    status: found.rows.length > 0 ? 'placed' : 'not_found',
    page: body.page,
    box: found.box ?? body.box,
  };
  const texts = await sheetTexts(ctx.database.db, read.id);
  // saveChange's compare-and-set on rev refuses a race; everything written before it rolls back.
  const saved = await inWorkspaceTransaction(ctx, async (trx) => {
    const before = await plantsOf(trx, read.id);
    const rows = plantRowsOf(schedule);
    const byCode = new Map(before.map((p) => [p.code, p]));
    const keep = new Set<number>();
    const at = now();
    for (const row of rows) {
      const same = byCode.get(row.code);
      if (!same) continue;
      keep.add(same.id);
      await trx
        .updateTable('landscape_plants')
        .set({ ...row, updated_at: at })
        .where('id', '=', same.id)
        .execute();
    }
    const gone = before.filter((p) => !keep.has(p.id)).map((p) => p.id);
    const added = await insertPlants(
      trx,
      read,
      rows.filter((r) => !byCode.has(r.code)),
    );
    const plants = [...before.filter((p) => keep.has(p.id)), ...added];
    // The callouts follow the schedule: model-found callout dots are read again for its codes,
    // and the dots of plants no longer in it go with them.
    const dots = await trx
      .selectFrom('landscape_items')
      .select(['id', 'plant_id', 'class', 'source'])
      .where('takeoff_id', '=', read.id)
      .where('kind', '=', 'dot')
      .execute();
    const goneSet = new Set(gone);
    const remove = dots
      .filter(
        (d) => (d.plant_id !== null && goneSet.has(d.plant_id)) || (d.class === 'callout' && d.source === 'detected'),
      )
      .map((d) => d.id);
    if (gone.length) await trx.deleteFrom('landscape_plants').where('id', 'in', gone).execute();
    await trx
      .updateTable('landscape_takeoffs')
      .set({ schedule: JSON.stringify(schedule) })
      .where('id', '=', read.id)
      .execute();
    return saveChange(trx, read, ctx.auth.user.id, {
      change: 'schedule',
      add: calloutDots(texts, schedule, plants, 0).map((d) => ({ ...d, run_id: null })),
      remove,
    });
  });
  return { data: takeoffObject(saved.takeoff) };
}
