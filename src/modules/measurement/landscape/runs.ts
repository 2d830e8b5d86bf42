// Landscape runs (document 3, "Landscape run"): POST …/detect starts one (202, pending, with its
// poll_url) for the worker (run-worker.ts); GET /v1/landscape-runs/{id} reads it; POST …/undo puts
// the takeoff's items back as they were before it. docs/landscape.md, "Runs".
//
// Refused before any credit is touched (refused runs cost nothing): a Manual Aerial takeoff (409),
// a user with AI auto-measure off (403), an outline too far from the site (422), no imagery
// configured (500 imagery_unavailable), a bad outline (400). Then, under the workspace lock: 3
// runs already going in the workspace (429), and the credit: the first model run on a takeoff
// takes one of the workspace's takeoff_credits (402 No takeoff credits remaining when none are
// left), later runs on it are free; a run that fails gives its credit back (run-worker.ts).
import type { LandscapeRun, LandscapeTakeoff } from '#db/tables.ts';
import type { LandscapeRunKind } from '#db/tables/landscape.ts';
import type { Executor } from '#db/dialect.ts';
import type { LatLng, Ring } from '#engines/geometry/index.ts';
import { invalidateAuthCache } from '#platform/auth-cache.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { ApiError, conflict, forbidden, notFound, paymentRequired, unprocessable } from '#platform/errors.ts';
import { GeocoderUnavailable } from '#platform/geocoding.ts';
import { imageryUnavailable } from '#platform/imagery/answers.ts';
import { can } from '#platform/permissions.ts';
import { now } from '#platform/time.ts';
import { workQueuedIn } from '#platform/work-queued.ts';
import { settingsOf } from '#platform/workspace.ts';
import { FAR_FROM_TAKEOFF_M } from '../shapes/vocabulary.ts';
import { detectableClasses, PAVED_CLASSES } from './classes.ts';
import { changeableAerial } from './items.ts';
import { type DetectArea, distanceToOutlines, outlinesOf } from './outline.ts';
import { findRun, takeoffItems } from './repo.ts';
import { takeoffNotFound } from './takeoffs.ts';
import { runObject } from './serialize.ts';

/** Runs going at once in one workspace (document 1, Limits). */
export const MAX_RUNS_GOING = 3;

export const runNotFound = () => notFound('Landscape run not found', { code: 'landscape_run_not_found' });

export interface DetectBody extends DetectArea {
  area_classes?: string[];
  include_areas?: boolean;
  include_objects?: boolean;
  replace_existing?: boolean;
}

/** What the worker is asked to do (stored as the run's request, answered as it). */
export interface DetectRequest {
  outlines: Ring[];
  area_classes: string[];
  include_areas: boolean;
  include_objects: boolean;
  replace_existing: boolean;
}

function detectRequestOf(ctx: ServiceContext, body: DetectBody): DetectRequest {
  const outlines = outlinesOf(body);
  const include_areas = body.include_areas ?? true;
  const include_objects = body.include_objects ?? true;
  if (!include_areas && !include_objects)
    throw new ApiError(400, 'include_areas and include_objects are both false: nothing to detect', {
      code: 'invalid_request',
      field: 'include_areas',
    });
  const detectable = detectableClasses(ctx.deps.segmentation !== null);
  const area_classes = body.area_classes ?? [...detectable.areas];
  for (const c of area_classes)
    if (!detectable.areas.has(c))
      throw new ApiError(
        400,
        PAVED_CLASSES.has(c)
          ? `area_classes: ${c} is not detected (it is drawn)`
          : `area_classes: ${c} is not a detected area class (GET /v1/landscape/classes says which are)`,
        { code: 'unknown_class', field: 'area_classes' },
      );
  return { outlines, area_classes, include_areas, include_objects, replace_existing: body.replace_existing ?? false };
}

/** The site's point (the job's address, geocoded) and the takeoff's items: what an outline must be near. */
async function sitePoints(ctx: ServiceContext, t: LandscapeTakeoff): Promise<LatLng[]> {
  const points: LatLng[] = [];
  const job = await ctx.database.db
    .selectFrom('jobs')
    .leftJoin('locations', 'locations.id', 'jobs.location_id')
    .select(['jobs.address as job_address', 'locations.address as site_address'])
    .where('jobs.id', '=', t.job_id)
    .where('jobs.firm_id', '=', t.firm_id)
    .executeTakeFirst();
  const address = job?.site_address ?? job?.job_address;
  if (address) {
    try {
      const p = await ctx.deps.geocoder.geocode(address);
      if (p) points.push([p.lat, p.lng]);
    } catch (err) {
      // No geocoder, or it could not answer: the site's point is unknown, so it decides nothing.
      if (!(err instanceof GeocoderUnavailable)) throw err;
    }
  }
  for (const i of await takeoffItems(ctx.database.db, t.id)) {
    if (i.lat !== null && i.lng !== null) points.push([i.lat, i.lng]);
    else if (i.rings) points.push((JSON.parse(i.rings) as Ring[])[0][0]);
  }
  return points;
}

export async function startDetect(ctx: ServiceContext, takeoffId: number, body: DetectBody) {
  const t = await changeableAerial(ctx, takeoffId, () =>
    unprocessable('Detect is for aerial takeoffs', {
      code: 'aerial_only',
      message: 'Detect reads aerial imagery: a plan takeoff reads its sheets with find-plants or advanced-run',
    }),
  );
  if (t.mode === 'manual')
    throw conflict('Detection is off for a Manual Aerial takeoff', {
      code: 'manual_aerial',
      message: 'A Manual Aerial takeoff is measured by hand: add items instead',
    });
  if (!can(ctx.auth.user, 'ai_auto_measure'))
    throw forbidden('AI auto-measure is off for this user', { code: 'ai_auto_measure_off' });
  const request = detectRequestOf(ctx, body);
  if (!ctx.deps.imagery.sources.standard)
    throw imageryUnavailable(500, 'No aerial imagery is configured: set GROUNDWORK_IMAGERY_URL');
  const site = await sitePoints(ctx, t);
  if (site.length > 0 && !site.some((p) => distanceToOutlines(p, request.outlines) <= FAR_FROM_TAKEOFF_M))
    throw unprocessable('The outline is too far from the site', {
      code: 'outline_far_from_site',
      message: `The outline is more than ${FAR_FROM_TAKEOFF_M / 1000} km from the job's site and the takeoff's items`,
    });

  const firmId = ctx.auth.firm.id;
  let charged = false;
  const id = await inWorkspaceTransaction(ctx, async (trx) => {
    await assertRoomForRun(trx, firmId);
    const fresh = await trx
      .selectFrom('landscape_takeoffs')
      .select(['credit_used'])
      .where('id', '=', t.id)
      .executeTakeFirst();
    if (!fresh) throw takeoffNotFound();
    const charge = fresh.credit_used === 0;
    if (charge) await takeCredit(trx, firmId, t.id);
    charged = charge;
    return insertRun(trx, ctx, { job_id: t.job_id, takeoff_id: t.id, kind: 'detect', request, charged: charge });
  });
  // The workspace's settings changed: keys resolved with the old count are forgotten.
  if (charged) invalidateAuthCache();
  return startedRun(ctx, id);
}

/** Under the workspace lock: 429 when the workspace already has MAX_RUNS_GOING runs pending. */
export async function assertRoomForRun(trx: Executor, firmId: number): Promise<void> {
  const going = await trx
    .selectFrom('landscape_runs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', '=', 'pending')
    .where('firm_id', '=', firmId)
    .executeTakeFirstOrThrow();
  if (Number(going.n) >= MAX_RUNS_GOING)
    throw new ApiError(429, `Workspace already has ${MAX_RUNS_GOING} landscape runs going`, {
      message: 'Wait for one to finish (poll its poll_url), then start this one again',
    });
}

/** The runs' queue, for the worker inside `serve` (platform/work-queued.ts): its table. */
export const LANDSCAPE_RUN_QUEUE = 'landscape_runs';

/** A pending run for the worker (the caller checked assertRoomForRun in the same transaction). */
export async function insertRun(
  trx: Executor,
  ctx: ServiceContext,
  run: { job_id: number; takeoff_id: number | null; kind: LandscapeRunKind; request: unknown; charged?: boolean },
): Promise<number> {
  const { id } = await trx
    .insertInto('landscape_runs')
    .values({
      firm_id: ctx.auth.firm.id,
      job_id: run.job_id,
      takeoff_id: run.takeoff_id,
      kind: run.kind,
      status: 'pending',
      request: JSON.stringify(run.request),
      result: null,
      failure_code: null,
      failure_message: null,
      charged: run.charged ? 1 : 0,
      locked_until: null,
      lease_token: null,
      created_by_user_id: ctx.auth.user.id,
      created_at: now(),
      started_at: null,
      completed_at: null,
      undone_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  workQueuedIn(trx, LANDSCAPE_RUN_QUEUE);
  return id;
}

/** A run as answered right after it was started. */
export async function startedRun(ctx: ServiceContext, id: number) {
  const run = await ctx.database.db
    .selectFrom('landscape_runs')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { data: runObject(run) };
}

/**
 * The workspace's takeoff credits moved by `delta` (under the workspace lock): -1 takes one for a
 * takeoff's first model run (402 when none is left), +1 gives one back.
 */
export async function moveCredits(trx: Executor, firmId: number, delta: 1 | -1): Promise<void> {
  const firm = await trx.selectFrom('firms').select('settings').where('id', '=', firmId).executeTakeFirstOrThrow();
  const settings = settingsOf(firm);
  if (settings.takeoff_credits + delta < 0) throw paymentRequired('No takeoff credits remaining');
  await trx
    .updateTable('firms')
    .set({ settings: JSON.stringify({ ...settings, takeoff_credits: settings.takeoff_credits + delta }) })
    .where('id', '=', firmId)
    .execute();
}

/** One of the workspace's takeoff credits, for the takeoff's first model run. */
async function takeCredit(trx: Executor, firmId: number, takeoffId: number): Promise<void> {
  await moveCredits(trx, firmId, -1);
  await trx.updateTable('landscape_takeoffs').set({ credit_used: 1 }).where('id', '=', takeoffId).execute();
}

/**
 * A charged run that failed: its credit goes to another run of the takeoff going or done (that run
 * is its first model run now), else back to the workspace, and the takeoff's next run is charged.
 */
export async function giveCreditBack(trx: Executor, run: LandscapeRun): Promise<void> {
  if (run.charged !== 1 || run.takeoff_id === null) return;
  await trx.updateTable('landscape_runs').set({ charged: 0 }).where('id', '=', run.id).execute();
  // Another run of the takeoff going or done was a model run on it too: it carries the charge.
  const other = await trx
    .selectFrom('landscape_runs')
    .select('id')
    .where('takeoff_id', '=', run.takeoff_id)
    .where('status', 'in', ['pending', 'completed', 'undone'])
    .where('id', '!=', run.id)
    .orderBy('id')
    .executeTakeFirst();
  if (other) {
    await trx.updateTable('landscape_runs').set({ charged: 1 }).where('id', '=', other.id).execute();
    return;
  }
  await moveCredits(trx, run.firm_id, 1);
  await trx.updateTable('landscape_takeoffs').set({ credit_used: 0 }).where('id', '=', run.takeoff_id).execute();
}

export async function visibleRun(ctx: ServiceContext, id: number): Promise<LandscapeRun> {
  const r = await findRun(ctx.database.db, ctx.auth.firm.id, id, ctx.auth.user);
  if (!r) throw runNotFound();
  return r;
}

export async function getRun(ctx: ServiceContext, id: number) {
  return { data: runObject(await visibleRun(ctx, id)) };
}
