// POST /v1/landscape-runs/{id}/undo (document 3): the takeoff's items go back exactly to what they
// were before the run: the items it added are removed (those still there) and the items it
// replaced come back with their ids, classes, phases and shapes. Items changed through the API
// since are otherwise left as they are. Saved like any change (history kept, 409 Takeoff changed
// on a race); the run becomes undone. Only a completed run can be undone; its credit stays used
// (the model ran). A plan run's dots come back the same way, and an irrigation run that applied
// its findings puts the irrigation back as it was (kept in its result).
import type { LandscapeItem } from '#db/tables.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { conflict } from '#platform/errors.ts';
import { now } from '#platform/time.ts';
import { changeableTakeoff } from './items.ts';
import { visibleRun } from './runs.ts';
import { saveChange } from './save.ts';
import type { StoredIrrigation } from './plans/quantities.ts';
import { runObject, type answeredItem } from './serialize.ts';

type Answered = ReturnType<typeof answeredItem>;

export async function undoRun(ctx: ServiceContext, id: number) {
  const run = await visibleRun(ctx, id);
  if (run.status !== 'completed')
    throw conflict(run.status === 'undone' ? 'Run already undone' : 'Only a completed run can be undone', {
      code: 'run_not_undoable',
      status: run.status,
    });
  const read = await changeableTakeoff(ctx, run.takeoff_id!);
  const result =
    run.result === null
      ? null
      : (JSON.parse(run.result) as { applied?: boolean; previous_irrigation?: StoredIrrigation | null });
  await inWorkspaceTransaction(ctx, async (trx) => {
    const fresh = await trx.selectFrom('landscape_runs').select('status').where('id', '=', run.id).executeTakeFirst();
    if (fresh?.status !== 'completed')
      throw conflict('Run already undone', { code: 'run_not_undoable', status: fresh?.status });
    const history = await trx
      .selectFrom('landscape_history')
      .select(['replaced', 'added'])
      .where('takeoff_id', '=', read.id)
      .where('run_id', '=', run.id)
      .where('change', 'in', ['detect', 'plan_run'])
      .executeTakeFirst();
    const added = history ? (JSON.parse(history.added) as number[]) : [];
    const replaced = history ? (JSON.parse(history.replaced) as Answered[]) : [];
    const present = added.length
      ? (
          await trx
            .selectFrom('landscape_items')
            .select('id')
            .where('takeoff_id', '=', read.id)
            .where('id', 'in', added)
            .execute()
        ).map((r) => r.id)
      : [];
    await saveChange(trx, read, ctx.auth.user.id, {
      change: 'undo',
      runId: run.id,
      remove: present,
      restore: replaced.map((i) => rowOf(i, read.firm_id, read.id)),
      ...(run.kind === 'irrigation' && result?.applied === true
        ? { irrigation: result.previous_irrigation ?? null }
        : {}),
    });
    await trx
      .updateTable('landscape_runs')
      .set({ status: 'undone', undone_at: now() })
      .where('id', '=', run.id)
      .execute();
  });
  return { data: runObject(await visibleRun(ctx, id)) };
}

/** An item as the history answered it, as a row again (times kept to the second, as answered). */
function rowOf(i: Answered, firmId: number, takeoffId: number): LandscapeItem {
  const stored = (wire: string) => `${wire.slice(0, 19)}.000000`;
  const common = {
    id: i.id,
    firm_id: firmId,
    takeoff_id: takeoffId,
    source: i.source,
    run_id: i.run_id,
    created_at: stored(i.created_at),
    updated_at: stored(i.updated_at),
  };
  if (i.object === 'landscape_dot')
    return {
      ...common,
      kind: 'dot',
      class: i.kind,
      phase: null,
      rings: null,
      lat: null,
      lng: null,
      area_sqft: null,
      plant_id: i.plant_id,
      page: i.page,
      x: i.x,
      y: i.y,
      quantity: i.quantity,
      callout_quantity: i.callout_quantity,
    };
  return {
    ...common,
    kind: i.kind,
    class: i.class,
    phase: i.phase,
    rings: i.rings === null ? null : JSON.stringify(i.rings),
    lat: i.lat,
    lng: i.lng,
    area_sqft: i.area_sqft,
    plant_id: null,
    page: null,
    x: null,
    y: null,
    quantity: null,
    callout_quantity: null,
  };
}
