// The landscape takeoffs' part of the isolation and permission walk (test/helpers/walk/kit.ts): an
// aerial takeoff on the CRM walk's job with an area and a tree; a plan takeoff on the same job from
// a synthetic plan PDF uploaded to its files (engines/plans), its first sheet stored and read by one
// sweep of the landscape-run worker (its schedule, plants and callout dots); a detect run started on
// the aerial takeoff after that sweep (from the demo's generated imagery; the walk's app has none of
// its own, and the workspace's own sweep is done, so it stays pending: the next workspace's sweep
// may take it up and fail it for want of imagery, which nothing the walk compares sees); and the
// calls that must not reach another workspace's takeoffs, items, dots, sheets, runs or job.
import { actingAs } from '#platform/auth.ts';
import { systemClock } from '#platform/clock.ts';
import { demoImagery, demoLatLng } from '#seed/demo-imagery.ts';
import { syntheticPlan } from '#engines/plans/synthetic-plan.ts';
import { landscapeRunTask } from '#measurement/landscape/run-worker.ts';
import { startDetect } from '#measurement/landscape/runs.ts';
import { uploadJobFile } from '#test/field/files/upload.ts';
import type { AreaWalk } from '#test/helpers/walk/kit.ts';
import { ok } from '#test/helpers/records.ts';

const square = (e: number, n: number, side: number) => [
  demoLatLng([e - side / 2, n + side / 2]),
  demoLatLng([e + side / 2, n + side / 2]),
  demoLatLng([e + side / 2, n - side / 2]),
  demoLatLng([e - side / 2, n - side / 2]),
];
const items = () => ({ items: [{ class: 'lawn', polygon: square(0, 0, 10) }] });
const outline = () => ({ polygon: square(0, 0, 40) });
/** A box on a plan sheet (sheet pixels at 144 dpi), for the schedule's place. */
const scheduleBox = () => ({ page: 1, box: { x: 0, y: 0, width: 600, height: 400 } });

/** The synthetic plan's PDF, made once for every workspace the walk provisions. */
let planPdf: Promise<Buffer> | undefined;
const planBytes = () => (planPdf ??= syntheticPlan(1).then((plan) => plan.bytes));

export const landscapeWalk: AreaWalk = {
  area: 'landscape',
  workspace: { settings: { takeoff_credits: 5 } },
  async provision({ t, w, ids }) {
    const takeoff = (await ok(w.api.request('POST', `/v1/jobs/${ids.job}/landscape-takeoffs`, { type: 'aerial' })))
      .data;
    const added = (
      await ok(
        w.api.request('POST', `/v1/landscape-takeoffs/${takeoff.id}/items`, {
          items: [
            { class: 'lawn', polygon: square(0, 0, 20) },
            { class: 'deciduous', point: demoLatLng([3, 3]) },
          ],
        }),
      )
    ).data;
    // The plan takeoff: its first sheet only (one sheet to store and read is enough to walk).
    const file = (await ok(uploadJobFile(t, w, ids.job, await planBytes(), 'planting plan.pdf'))).data;
    const planStart = (
      await ok(
        w.api.request('POST', `/v1/jobs/${ids.job}/landscape-takeoffs`, {
          type: 'blueprint',
          file_id: file.id,
          pages: [1],
        }),
        [202],
      )
    ).data;
    const worker = landscapeRunTask(t.env, { clock: systemClock, leaseMs: 120_000 });
    while ((await worker.sweep()) > 0);
    const planRun = (await ok(w.api.request('GET', planStart.poll_url))).data;
    if (planRun.status !== 'completed') throw new Error(`the walk's plan run ended ${JSON.stringify(planRun)}`);
    const planTakeoff = planRun.result.takeoff_id as number;
    const dots = (await ok(w.api.request('GET', `/v1/landscape-takeoffs/${planTakeoff}/items?kind=callout`))).data;
    if (dots.length === 0) throw new Error("the walk's plan takeoff has no callout dots");

    const auth = await actingAs(t.database.db, w.firmId, w.ownerId);
    const ctx = { database: t.database, deps: { ...t.env.deps, imagery: demoImagery(), segmentation: null }, auth };
    const run = (await startDetect(ctx, takeoff.id, outline())).data;
    return {
      landscapeTakeoff: takeoff.id,
      landscapeItem: added[0].id,
      landscapeRun: run.id,
      planFile: file.id,
      planTakeoff,
      planDot: dots[0].id,
      planRun: planRun.id,
    };
  },
  snapshot: (ids) => [
    `/v1/landscape-takeoffs/${ids.landscapeTakeoff}`,
    `/v1/landscape-takeoffs/${ids.landscapeTakeoff}/items?limit=200`,
    `/v1/landscape-takeoffs/${ids.landscapeTakeoff}/history`,
    `/v1/landscape-runs/${ids.landscapeRun}`,
    `/v1/landscape-takeoffs/${ids.planTakeoff}`,
    `/v1/landscape-takeoffs/${ids.planTakeoff}/items?limit=200`,
    `/v1/landscape-runs/${ids.planRun}`,
    `/v1/landscape-takeoffs?job_id=${ids.job}`,
  ],
  // The runs on the job (no route lists them): a run started or undone on A's takeoff shows here.
  state: (t, ids) =>
    t.database.db
      .selectFrom('landscape_runs')
      .select(['id', 'kind', 'status', 'takeoff_id'])
      .where('job_id', '=', ids.job)
      .orderBy('id')
      .execute(),
  foreignIds: (a) => {
    const takeoff = `/v1/landscape-takeoffs/${a.landscapeTakeoff}`;
    const item = `${takeoff}/items/${a.landscapeItem}`;
    const plan = `/v1/landscape-takeoffs/${a.planTakeoff}`;
    const dot = `${plan}/items/${a.planDot}`;
    const NF = 'Landscape takeoff not found';
    return [
      { method: 'GET', path: takeoff, error: NF },
      { method: 'GET', path: `${takeoff}/items`, error: NF },
      { method: 'GET', path: `${takeoff}/history`, error: NF },
      { method: 'POST', path: `${takeoff}/items`, body: items(), error: NF },
      { method: 'PATCH', path: item, body: { phase: 'B' }, error: NF },
      { method: 'DELETE', path: item, error: NF },
      { method: 'POST', path: `${takeoff}/detect`, body: outline(), error: NF },
      { method: 'GET', path: plan, error: NF },
      { method: 'GET', path: `${plan}/items?kind=callout`, error: NF },
      { method: 'PATCH', path: dot, body: { quantity: 9 }, error: NF },
      { method: 'DELETE', path: dot, error: NF },
      { method: 'PUT', path: `${plan}/schedule`, body: scheduleBox(), error: NF },
      { method: 'GET', path: `${plan}/sheets/1/image`, error: NF },
      { method: 'POST', path: `${plan}/read-callouts`, body: {}, error: NF },
      { method: 'POST', path: `${plan}/find-plants`, body: { pages: [1] }, error: NF },
      { method: 'POST', path: `${plan}/group-plants`, body: { within_px: 72 }, error: NF },
      { method: 'POST', path: `${plan}/advanced-run`, body: {}, error: NF },
      { method: 'POST', path: `${plan}/irrigation`, body: { apply: true }, error: NF },
      { method: 'GET', path: `/v1/landscape-runs/${a.planRun}`, error: 'Landscape run not found' },
      { method: 'POST', path: `/v1/landscape-runs/${a.planRun}/undo`, error: 'Landscape run not found' },
      { method: 'GET', path: `/v1/landscape-runs/${a.landscapeRun}`, error: 'Landscape run not found' },
      { method: 'POST', path: `/v1/landscape-runs/${a.landscapeRun}/undo`, error: 'Landscape run not found' },
      {
        method: 'POST',
        path: `/v1/jobs/${a.job}/landscape-takeoffs`,
        body: { type: 'aerial' },
        error: 'Job not found',
      },
      {
        method: 'POST',
        path: `/v1/jobs/${a.job}/landscape-takeoffs`,
        body: { type: 'blueprint', file_id: a.planFile },
        error: 'Job not found',
      },
    ];
  },
  lookups: async ({ A, B }) => {
    const list = await B.w.api.request('GET', `/v1/landscape-takeoffs?job_id=${A.ids.job}`);
    if (list.status !== 200 || list.body.data.length !== 0)
      throw new Error(`B listed A's takeoffs: ${JSON.stringify(list.body)}`);
  },
  routes: {
    'GET /v1/landscape/classes': { needs: 'measure', path: () => '/v1/landscape/classes' },
    'GET /v1/landscape-takeoffs': { needs: 'measure', path: () => '/v1/landscape-takeoffs' },
    'POST /v1/jobs/{job_id}/landscape-takeoffs': {
      needs: 'measure-write',
      path: (a) => `/v1/jobs/${a.job}/landscape-takeoffs`,
      body: () => ({ type: 'aerial' }),
    },
    'GET /v1/landscape-takeoffs/{id}': {
      needs: 'measure',
      path: (a) => `/v1/landscape-takeoffs/${a.landscapeTakeoff}`,
    },
    'GET /v1/landscape-takeoffs/{id}/items': {
      needs: 'measure',
      path: (a) => `/v1/landscape-takeoffs/${a.landscapeTakeoff}/items`,
    },
    'POST /v1/landscape-takeoffs/{id}/items': {
      needs: 'measure-write',
      path: (a) => `/v1/landscape-takeoffs/${a.landscapeTakeoff}/items`,
      body: items,
    },
    'PATCH /v1/landscape-takeoffs/{id}/items/{item_id}': {
      needs: 'measure-write',
      path: (a) => `/v1/landscape-takeoffs/${a.landscapeTakeoff}/items/${a.landscapeItem}`,
      body: () => ({ phase: 'B' }),
    },
    'DELETE /v1/landscape-takeoffs/{id}/items/{item_id}': {
      needs: 'measure-delete',
      path: (a) => `/v1/landscape-takeoffs/${a.landscapeTakeoff}/items/${a.landscapeItem}`,
    },
    'GET /v1/landscape-takeoffs/{id}/history': {
      needs: 'measure',
      path: (a) => `/v1/landscape-takeoffs/${a.landscapeTakeoff}/history`,
    },
    'POST /v1/landscape-takeoffs/{id}/detect': {
      needs: 'measure-write',
      path: (a) => `/v1/landscape-takeoffs/${a.landscapeTakeoff}/detect`,
      body: outline,
    },
    'GET /v1/landscape-runs/{id}': { needs: 'measure', path: (a) => `/v1/landscape-runs/${a.landscapeRun}` },
    'POST /v1/landscape-runs/{id}/undo': {
      needs: 'measure-write',
      path: (a) => `/v1/landscape-runs/${a.landscapeRun}/undo`,
    },
    'PUT /v1/landscape-takeoffs/{id}/schedule': {
      needs: 'measure-write',
      path: (a) => `/v1/landscape-takeoffs/${a.planTakeoff}/schedule`,
      body: scheduleBox,
    },
    'GET /v1/landscape-takeoffs/{id}/sheets/{page}/image': {
      needs: 'measure',
      path: (a) => `/v1/landscape-takeoffs/${a.planTakeoff}/sheets/1/image`,
    },
    'POST /v1/landscape-takeoffs/{id}/read-callouts': {
      needs: 'measure-write',
      path: (a) => `/v1/landscape-takeoffs/${a.planTakeoff}/read-callouts`,
    },
    'POST /v1/landscape-takeoffs/{id}/find-plants': {
      needs: 'measure-write',
      path: (a) => `/v1/landscape-takeoffs/${a.planTakeoff}/find-plants`,
      body: () => ({ pages: [1] }),
    },
    'POST /v1/landscape-takeoffs/{id}/group-plants': {
      needs: 'measure-write',
      path: (a) => `/v1/landscape-takeoffs/${a.planTakeoff}/group-plants`,
      body: () => ({ within_px: 72 }),
    },
    'POST /v1/landscape-takeoffs/{id}/advanced-run': {
      needs: 'measure-write',
      path: (a) => `/v1/landscape-takeoffs/${a.planTakeoff}/advanced-run`,
    },
    'POST /v1/landscape-takeoffs/{id}/irrigation': {
      needs: 'measure-write',
      path: (a) => `/v1/landscape-takeoffs/${a.planTakeoff}/irrigation`,
      body: () => ({ apply: true }),
    },
  },
};
