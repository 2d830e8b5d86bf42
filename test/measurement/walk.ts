// The measurement area's part of the isolation and permission walk (test/helpers/walk/kit.ts): a
// measured lot on the CRM walk's job, its shapes and history read, and the calls that must not
// reach another workspace's measurement or job.
import type { AreaWalk } from '#test/helpers/walk/kit.ts';
import { demoLotBounds } from '#seed/demo-imagery.ts';
import { measuredLot } from './measured.ts';

const bounds = demoLotBounds();
const edit = () => ({ base_rev: 2, operations: [{ op: 'set_phase', id: 'shp_x', phase: 'A' }] });

export const measurementWalk: AreaWalk = {
  area: 'measurement',
  async provision({ t, w, ids }) {
    return { measurement: await measuredLot(t, w, ids.job) };
  },
  snapshot: (ids) => [
    `/v1/measurements/${ids.measurement}`,
    `/v1/measurements/${ids.measurement}/shapes?limit=500`,
    `/v1/measurements/${ids.measurement}/history`,
    `/v1/measurements?job_id=${ids.job}`,
  ],
  foreignIds: (a, b) => [
    { method: 'GET', path: `/v1/measurements/${a.measurement}`, error: 'Measurement not found' },
    {
      method: 'PATCH',
      path: `/v1/measurements/${a.measurement}`,
      body: { name: 'Mine' },
      error: 'Measurement not found',
    },
    { method: 'DELETE', path: `/v1/measurements/${a.measurement}`, error: 'Measurement not found' },
    { method: 'GET', path: `/v1/measurements/${a.measurement}/shapes`, error: 'Measurement not found' },
    { method: 'GET', path: `/v1/measurements/${a.measurement}/history`, error: 'Measurement not found' },
    { method: 'POST', path: `/v1/measurements/${a.measurement}/edits`, body: edit(), error: 'Measurement not found' },
    { method: 'PATCH', path: `/v1/measurements/${b.measurement}`, body: { job_id: a.job }, error: 'Job not found' },
    { method: 'POST', path: '/v1/detect/full', body: { bounds, job_id: a.job }, error: 'Job not found' },
    {
      method: 'POST',
      path: '/v1/detect/address',
      body: { address: '1 Main St', job_id: a.job },
      error: 'Job not found',
    },
  ],
  lookups: async ({ A, B }) => {
    const list = await B.w.api.request('GET', `/v1/measurements?job_id=${A.ids.job}`);
    if (list.status !== 200 || list.body.data.length !== 0)
      throw new Error(`B listed A's job: ${JSON.stringify(list.body)}`);
  },
  routes: {
    'POST /v1/detect/full': { needs: 'measure-write', path: () => '/v1/detect/full', body: () => ({ bounds }) },
    'POST /v1/detect/address': {
      needs: 'measure-write',
      path: () => '/v1/detect/address',
      body: () => ({ address: '1 Main St' }),
    },
    'POST /v1/detect/tiles': {
      needs: 'measure-write',
      path: () => '/v1/detect/tiles',
      body: () => ({ z: 20, x_min: 1, x_max: 1, y_min: 1, y_max: 1 }),
    },
    'GET /v1/measurements': { needs: 'measure', path: () => '/v1/measurements' },
    'GET /v1/measurements/{id}': { needs: 'measure', path: (a) => `/v1/measurements/${a.measurement}` },
    'PATCH /v1/measurements/{id}': {
      needs: 'measure-write',
      path: (a) => `/v1/measurements/${a.measurement}`,
      body: () => ({ name: 'Renamed' }),
    },
    'DELETE /v1/measurements/{id}': { needs: 'measure-delete', path: (a) => `/v1/measurements/${a.measurement}` },
    'GET /v1/measurements/{id}/shapes': { needs: 'measure', path: (a) => `/v1/measurements/${a.measurement}/shapes` },
    'GET /v1/measurements/{id}/history': { needs: 'measure', path: (a) => `/v1/measurements/${a.measurement}/history` },
    'POST /v1/measurements/{id}/edits': {
      needs: 'measure-write',
      path: (a) => `/v1/measurements/${a.measurement}/edits`,
      body: edit,
    },
  },
};
