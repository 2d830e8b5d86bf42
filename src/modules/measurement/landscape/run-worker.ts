// The worker's side of landscape runs (guide: work that takes seconds runs in the worker as a run
// object with a poll_url). A sweep claims the oldest pending run by a lease (locked_until,
// lease_token), reads its windows' imagery and detects (outside every transaction), then writes
// the change and completes the run in one short transaction under the workspace lock, if the run
// is still its own. A worker that dies stops renewing; once the lease runs out another worker takes
// the run over, and after MAX_ATTEMPTS claims it fails. A run that fails gives its credit back.
import { randomBytes } from 'node:crypto';
import type { LandscapeRun } from '#db/tables.ts';
import type { Executor } from '#db/dialect.ts';
import { inFirmTransaction, type Env } from '#platform/context.ts';
import type { Clock } from '#platform/clock.ts';
import { ApiError } from '#platform/errors.ts';
import { storedAt } from '#platform/time.ts';
import { whenWorkQueued } from '#platform/work-queued.ts';
import type { BackgroundTask } from '#worker/index.ts';
import { rounded } from '#engines/geometry/index.ts';
import { detectChange, foundInside, type WindowFound } from './detect-change.ts';
import { boxOf } from './outline.ts';
import type { DetectRequest } from './runs.ts';
import { giveCreditBack, LANDSCAPE_RUN_QUEUE } from './runs.ts';
import { saveChange, takeoffChanged } from './save.ts';
import { seeWindow } from './see.ts';
import { windowsOf } from './windows.ts';
import { doPlanRun } from './plans/run-work.ts';
import { type Finished, LeaseLost, type RunHooks } from './run-hooks.ts';

export const MAX_ATTEMPTS = 3;
/** Saves retried when an API change lands between reading the takeoff and writing the run's change. */
const SAVE_ATTEMPTS = 3;

export interface RunWorkerOptions {
  clock: Clock;
  leaseMs: number;
}

export function landscapeRunTask(env: Env, options: RunWorkerOptions): BackgroundTask {
  const { database } = env;
  const { db } = database;
  const { clock, leaseMs } = options;

  async function claim(): Promise<{ run: LandscapeRun; token: string } | null> {
    const at = storedAt(clock.now());
    const due = await db
      .selectFrom('landscape_runs')
      .selectAll()
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', at)]))
      .orderBy('id')
      .limit(5)
      .execute();
    for (const run of due) {
      const token = randomBytes(12).toString('hex');
      const taken = await db
        .updateTable('landscape_runs')
        .set({
          lease_token: token,
          locked_until: storedAt(clock.now() + leaseMs),
          attempts: run.attempts + 1,
          started_at: run.started_at ?? at,
        })
        .where('id', '=', run.id)
        .where('status', '=', 'pending')
        .where('attempts', '=', run.attempts)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 1) return { run: { ...run, attempts: run.attempts + 1 }, token };
    }
    return null;
  }

  /** Inside a transaction: the run is still pending and ours, or LeaseLost. */
  async function stillOurs(trx: Executor, run: LandscapeRun, token: string): Promise<LandscapeRun> {
    const now = await trx.selectFrom('landscape_runs').selectAll().where('id', '=', run.id).executeTakeFirst();
    if (!now || now.status !== 'pending' || now.lease_token !== token) throw new LeaseLost();
    return now;
  }

  async function renew(run: LandscapeRun, token: string): Promise<void> {
    const r = await db
      .updateTable('landscape_runs')
      .set({ locked_until: storedAt(clock.now() + leaseMs) })
      .where('id', '=', run.id)
      .where('lease_token', '=', token)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw new LeaseLost();
  }

  function hooksFor(run: LandscapeRun, token: string): RunHooks {
    return {
      renew: () => renew(run, token),
      finish: (write) =>
        inFirmTransaction(database, run.firm_id, async (trx) => {
          const held = await stillOurs(trx, run, token);
          const done: Finished = await write(trx, held);
          await trx
            .updateTable('landscape_runs')
            .set({
              status: 'completed',
              result: JSON.stringify(done.result),
              ...(done.takeoffId !== undefined ? { takeoff_id: done.takeoffId } : {}),
              completed_at: storedAt(clock.now()),
              locked_until: null,
              lease_token: null,
            })
            .where('id', '=', run.id)
            .execute();
        }),
    };
  }

  /** Ends the run as failed, if it is still this worker's (one taken over is the other worker's to end). */
  async function fail(run: LandscapeRun, token: string, code: string, message: string): Promise<void> {
    await inFirmTransaction(database, run.firm_id, async (trx) => {
      const held = await stillOurs(trx, run, token);
      await trx
        .updateTable('landscape_runs')
        .set({
          status: 'failed',
          failure_code: code,
          failure_message: message,
          completed_at: storedAt(clock.now()),
          locked_until: null,
          lease_token: null,
        })
        .where('id', '=', run.id)
        .execute();
      await giveCreditBack(trx, held);
    }).catch((err) => {
      if (!(err instanceof LeaseLost)) throw err;
    });
  }

  async function detect(run: LandscapeRun, token: string): Promise<void> {
    const req = JSON.parse(run.request) as DetectRequest;
    const windows: WindowFound[] = [];
    let seen: Awaited<ReturnType<typeof seeWindow>> | null = null;
    let zoom = 0;
    for (const outline of req.outlines) {
      const plan = windowsOf(boxOf(outline));
      zoom = Math.max(zoom, plan.zoom);
      for (const core of plan.windows) {
        seen = await seeWindow(env, core, plan.zoom);
        windows.push({ core, found: seen.found });
        await renew(run, token);
      }
    }
    const found = foundInside(req.outlines, windows, req);
    for (let attempt = 1; ; attempt++) {
      const takeoff = await db
        .selectFrom('landscape_takeoffs')
        .selectAll()
        .where('id', '=', run.takeoff_id!)
        .executeTakeFirst();
      if (!takeoff) throw new LeaseLost(); // deleted with its job: the run went with it
      const items = await db.selectFrom('landscape_items').selectAll().where('takeoff_id', '=', takeoff.id).execute();
      const change = detectChange(found, items, req, run.id);
      try {
        await inFirmTransaction(database, run.firm_id, async (trx) => {
          await stillOurs(trx, run, token);
          const current = await trx
            .selectFrom('landscape_takeoffs')
            .select('cleanup')
            .where('id', '=', takeoff.id)
            .executeTakeFirst();
          if (current?.cleanup === 'sent')
            throw new ApiError(403, 'Takeoff sent for cleanup', { code: 'takeoff_sent_for_cleanup' });
          const saved = await saveChange(trx, takeoff, run.created_by_user_id, {
            change: 'detect',
            runId: run.id,
            add: change.add,
            remove: change.remove,
          });
          const areas = change.add.filter((i) => i.kind === 'area');
          const result = {
            takeoff_id: takeoff.id,
            rev: saved.rev,
            added: {
              areas: areas.length,
              objects: change.add.length - areas.length,
              area_sqft: rounded(areas.reduce((s, i) => s + (i.area_sqft ?? 0), 0)),
            },
            removed: change.remove.length,
            skipped_objects: change.skipped_objects,
            clipped_sqft: change.clipped_sqft,
            detector: seen?.detector ?? 'built_in',
            imagery: {
              source: 'standard',
              zoom,
              meters_per_pixel: seen ? rounded(seen.meters_per_pixel, 4) : null,
              windows: windows.length,
              capture_date: seen?.capture_date ?? null,
            },
          };
          await trx
            .updateTable('landscape_runs')
            .set({
              status: 'completed',
              result: JSON.stringify(result),
              completed_at: storedAt(clock.now()),
              locked_until: null,
              lease_token: null,
            })
            .where('id', '=', run.id)
            .execute();
        });
        return;
      } catch (err) {
        const raced = err instanceof ApiError && err.body.code === takeoffChanged().body.code;
        if (raced && attempt < SAVE_ATTEMPTS) continue;
        throw err;
      }
    }
  }

  async function work(run: LandscapeRun, token: string): Promise<void> {
    if (run.attempts > MAX_ATTEMPTS)
      return fail(run, token, 'run_interrupted', `The run was interrupted ${MAX_ATTEMPTS} times`);
    try {
      if (run.kind === 'detect') await detect(run, token);
      else await doPlanRun(env, run, hooksFor(run, token));
    } catch (err) {
      if (err instanceof LeaseLost) return;
      if (err instanceof ApiError)
        return fail(run, token, err.body.code ?? 'detection_failed', err.body.message ?? err.body.error);
      await fail(
        run,
        token,
        run.kind === 'detect' ? 'detection_failed' : 'plan_run_failed',
        'The run failed unexpectedly: it cost no credit; start it again',
      );
      throw err;
    }
  }

  return {
    name: 'landscape-runs',
    // Inside `serve`, a run starts as soon as the request that queued it commits, not at the poll.
    wakeWhen: (wake) => whenWorkQueued(LANDSCAPE_RUN_QUEUE, wake),
    async sweep() {
      const claimed = await claim();
      if (!claimed) return 0;
      await work(claimed.run, claimed.token);
      return 1;
    },
  };
}
