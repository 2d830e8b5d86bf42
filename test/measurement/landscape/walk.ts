// The landscape takeoffs' part of the isolation and permission walk (test/helpers/walk/kit.ts): an
// aerial takeoff on the CRM walk's job with an area and a tree, and a detect run started on it
// (from the demo's generated imagery; the walk's app has none of its own, and no worker runs, so it
// stays pending), and the calls that must not reach another workspace's takeoff, item, run or job.
import { actingAs } from '#platform/auth.ts';
import { demoImagery, demoLatLng } from '#seed/demo-imagery.ts';
import { startDetect } from '#measurement/landscape/runs.ts';
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
    const auth = await actingAs(t.database.db, w.firmId, w.ownerId);
    const ctx = { database: t.database, deps: { ...t.env.deps, imagery: demoImagery(), segmentation: null }, auth };
    const run = (await startDetect(ctx, takeoff.id, outline())).data;
    return { landscapeTakeoff: takeoff.id, landscapeItem: added[0].id, landscapeRun: run.id };
  },
  snapshot: (ids) => [
    `/v1/landscape-takeoffs/${ids.landscapeTakeoff}`,
    `/v1/landscape-takeoffs/${ids.landscapeTakeoff}/items?limit=200`,
    `/v1/landscape-takeoffs/${ids.landscapeTakeoff}/history`,
    `/v1/landscape-runs/${ids.landscapeRun}`,
    `/v1/landscape-takeoffs?job_id=${ids.job}`,
  ],
  foreignIds: (a) => {
    const takeoff = `/v1/landscape-takeoffs/${a.landscapeTakeoff}`;
    const item = `${takeoff}/items/${a.landscapeItem}`;
    const NF = 'Landscape takeoff not found';
    return [
      { method: 'GET', path: takeoff, error: NF },
      { method: 'GET', path: `${takeoff}/items`, error: NF },
      { method: 'GET', path: `${takeoff}/history`, error: NF },
      { method: 'POST', path: `${takeoff}/items`, body: items(), error: NF },
      { method: 'PATCH', path: item, body: { phase: 'B' }, error: NF },
      { method: 'DELETE', path: item, error: NF },
      { method: 'POST', path: `${takeoff}/detect`, body: outline(), error: NF },
      { method: 'GET', path: `/v1/landscape-runs/${a.landscapeRun}`, error: 'Landscape run not found' },
      { method: 'POST', path: `/v1/landscape-runs/${a.landscapeRun}/undo`, error: 'Landscape run not found' },
      {
        method: 'POST',
        path: `/v1/jobs/${a.job}/landscape-takeoffs`,
        body: { type: 'aerial' },
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
  },
};
