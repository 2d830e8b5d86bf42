// The worker's plan run (kind `plan`, started by startPlanTakeoff): the stored PDF is opened once,
// on the engine thread (on-thread.ts); each page taken off is rendered at 144 dpi there and stored
// as the sheet's image with its text layer; the plant schedule is read from the text and the
// callouts of its codes placed as callout dots.
// Then, in one transaction: one takeoff credit (document 3: "a plan takeoff uses one credit once
// its pages are stored"; none left fails the run, costing nothing), the takeoff, its sheets, its
// plants and its first save (rev 1, history kept). Symbols are found by find-plants or
// advanced-run: reading every symbol of every plant is the slow part, and a schedule not found
// (or placed by hand) would make it wasted work.
import type { Insertable } from 'kysely';
import type { LandscapeRun } from '#db/tables.ts';
import type { LandscapeSheetTable } from '#db/tables/landscape.ts';
import { findSchedule, type SheetText } from '#engines/plans/index.ts';
import type { Env } from '#platform/context.ts';
import { removeObjects } from '#platform/storage/cleanup.ts';
import { now } from '#platform/time.ts';
import { settingsOf } from '#platform/workspace.ts';
import { LeaseLost, type RunHooks } from '../run-hooks.ts';
import { moveCredits } from '../runs.ts';
import { saveChange } from '../save.ts';
import { takeoffObject } from '../serialize.ts';
import { calloutDots, insertPlants, plantRowsOf } from './read.ts';
import { planQuantities } from './quantities.ts';
import { openStoredPlan, renderSheetOnThread, sheetTextOnThread } from './on-thread.ts';
import { sheetKey } from './source.ts';
import type { PlanRequest } from './start.ts';

export async function storeAndReadPlan(env: Env, run: LandscapeRun, hooks: RunHooks): Promise<void> {
  const req = JSON.parse(run.request) as PlanRequest;
  const stored: string[] = [];
  let finished = false;
  try {
    const plan = await openStoredPlan(env, req.plan_key);
    const sheets: Omit<Insertable<LandscapeSheetTable>, 'firm_id' | 'takeoff_id' | 'created_at'>[] = [];
    const texts: SheetText[] = [];
    try {
      for (const page of req.source.pages) {
        const image = await renderSheetOnThread([plan.ref, page]);
        const text = await sheetTextOnThread([plan.ref, page]);
        const key = sheetKey(run.firm_id, page);
        // Storage is an outside service: never inside the transaction.
        const png = Buffer.from(image.png.buffer, image.png.byteOffset, image.png.byteLength);
        await env.deps.storage.put(key, png, { contentType: 'image/png' });
        stored.push(key);
        texts.push(text);
        sheets.push({
          page,
          width: image.width,
          height: image.height,
          image_key: key,
          image_bytes: image.png.length,
          text: JSON.stringify(text),
        });
        await hooks.renew();
      }
    } finally {
      await plan.close();
    }
    const schedule = findSchedule(texts);

    await hooks.finish(async (trx) => {
      // The credit, once the pages are stored: none left fails the run (and costs nothing). The
      // landscape edition's plan takeoffs are free.
      const firm = await trx
        .selectFrom('firms')
        .select('settings')
        .where('id', '=', run.firm_id)
        .executeTakeFirstOrThrow();
      const charge = !settingsOf(firm).landscape_edition;
      if (charge) await moveCredits(trx, run.firm_id, -1);
      const at = now();
      const takeoff = await trx
        .insertInto('landscape_takeoffs')
        .values({
          firm_id: run.firm_id,
          job_id: run.job_id,
          name: req.name,
          type: 'blueprint',
          mode: null,
          editor: 'plan',
          rev: 0,
          quantities: JSON.stringify(planQuantities([], [], null)),
          item_count: 0,
          credit_used: charge ? 1 : 0,
          cleanup: null,
          page_count: req.page_count,
          plan_key: req.plan_key,
          plan_source: JSON.stringify(req.source),
          schedule: JSON.stringify(schedule),
          irrigation: null,
          created_by_user_id: run.created_by_user_id,
          created_at: at,
          updated_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('landscape_sheets')
        .values(sheets.map((s) => ({ ...s, firm_id: run.firm_id, takeoff_id: takeoff.id, created_at: at })))
        .execute();
      const plants = await insertPlants(trx, takeoff, plantRowsOf(schedule));
      const dots = calloutDots(texts, schedule, plants, run.id);
      const saved = await saveChange(trx, takeoff, run.created_by_user_id, {
        change: 'plan_run',
        runId: run.id,
        add: dots,
      });
      if (charge) await trx.updateTable('landscape_runs').set({ charged: 1 }).where('id', '=', run.id).execute();
      finished = true;
      return {
        takeoffId: takeoff.id,
        result: {
          takeoff_id: takeoff.id,
          takeoff: takeoffObject(saved.takeoff),
          pages_stored: sheets.length,
          scanned_pages: texts.filter((t) => !t.hasTextLayer).map((t) => t.page),
          schedule: {
            status: schedule.status,
            page: schedule.page,
            rows: schedule.rows.length,
            rows_ignored: schedule.rows_ignored.length,
          },
          callouts: dots.length,
        },
      };
    });
  } catch (err) {
    // A run that failed leaves nothing stored behind; one taken over by another worker is theirs.
    if (!finished && !(err instanceof LeaseLost)) await removeObjects(env.deps.storage, [...stored, req.plan_key]);
    throw err;
  }
}
