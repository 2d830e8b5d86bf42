// POST /v1/landscape-runs/{id}/undo (document 3): the takeoff's items go back exactly to what they
// were before the run: the items it added are removed (those still there) and the items it
// replaced come back with their ids, classes, phases and shapes. Items changed through the API
// since are otherwise left as they are. Saved like any change (history kept, 409 Takeoff changed
// on a race); the run becomes undone. Only a completed run can be undone; its credit stays used
// (the model ran).
import type { LandscapeItem } from '#db/tables.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { conflict } from '#platform/errors.ts';
import { now } from '#platform/time.ts';
import { changeableTakeoff } from './items.ts';
import { visibleRun } from './runs.ts';
import { saveChange } from './save.ts';
import { runObject, type itemObject } from './serialize.ts';

type Answered = ReturnType<typeof itemObject>;

export async function undoRun(ctx: ServiceContext, id: number) {
  const run = await visibleRun(ctx, id);
  if (run.status !== 'completed')
    throw conflict(run.status === 'undone' ? 'Run already undone' : 'Only a completed run can be undone', {
      code: 'run_not_undoable',
      status: run.status,
    });
  const read = await changeableTakeoff(ctx, run.takeoff_id!);
  await inWorkspaceTransaction(ctx, async (trx) => {
    const fresh = await trx.selectFrom('landscape_runs').select('status').where('id', '=', run.id).executeTakeFirst();
    if (fresh?.status !== 'completed')
      throw conflict('Run already undone', { code: 'run_not_undoable', status: fresh?.status });
    const history = await trx
      .selectFrom('landscape_history')
      .select(['replaced', 'added'])
      .where('takeoff_id', '=', read.id)
      .where('run_id', '=', run.id)
      .where('change', '=', 'detect')
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
  return {
    id: i.id,
    firm_id: firmId,
    takeoff_id: takeoffId,
    kind: i.kind,
    class: i.class,
    phase: i.phase,
    rings: i.rings === null ? null : JSON.stringify(i.rings),
    lat: i.lat,
    lng: i.lng,
    area_sqft: i.area_sqft,
    source: i.source,
    run_id: i.run_id,
    created_at: stored(i.created_at),
    updated_at: stored(i.updated_at),
  };
}
