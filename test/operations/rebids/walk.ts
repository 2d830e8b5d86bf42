// The re-bids part of the isolation and permission walk (test/helpers/walk/kit.ts): cycles, a
// hand-added history record on the CRM walk's site (striping in 2025, so due now), the re-bid it
// makes, and the completed-sites list.
import { ok } from '#test/helpers/records.ts';
import type { AreaWalk, Ids } from '#test/helpers/walk/kit.ts';
import { addDaysTo } from '#src/modules/operations/rebids/rules.ts';
import { now } from '#platform/time.ts';

const pair = (ids: Ids) => ({ key: `loc:${ids.loc}`, cycle_id: ids.rebidCycle });
const soon = () => addDaysTo(now().slice(0, 10), 30);

export const rebidsWalk: AreaWalk = {
  area: 'operations-rebids',
  async provision({ w, ids }) {
    const cycles = (await ok(w.api.get('/v1/rebid-cycles'))).data;
    const cycle = cycles.find((c) => c.service === 'Striping')!;
    const record = (
      await ok(
        w.api.post('/v1/rebids/history', {
          location_id: ids.loc,
          cycle_id: cycle.id,
          done_on: '2025-01-01',
          amount: 800,
        }),
      )
    ).data;
    return { rebidCycle: cycle.id, rebidRecord: record.id };
  },
  snapshot: () => ['/v1/rebid-cycles', '/v1/rebids?status=all', '/v1/sites/completed'],
  foreignIds: (a, b) => [
    {
      method: 'PATCH',
      path: `/v1/rebid-cycles/${a.rebidCycle}`,
      body: { every_years: 7 },
      error: 'Re-bid cycle not found',
    },
    {
      method: 'POST',
      path: '/v1/rebids/history',
      body: { location_id: a.loc, cycle_id: b.rebidCycle, done_on: '2025-02-01' },
      error: 'Location not found',
    },
    {
      method: 'POST',
      path: '/v1/rebids/history',
      body: { location_id: b.loc, cycle_id: a.rebidCycle, done_on: '2025-02-01' },
      error: 'Re-bid cycle not found',
    },
    { method: 'DELETE', path: `/v1/rebids/history/${a.rebidRecord}`, error: 'Re-bid history record not found' },
    { method: 'POST', path: '/v1/rebids/snooze', body: { ...pair(a), until: soon() }, error: 'Re-bid not found' },
    { method: 'POST', path: '/v1/rebids/not-doing', body: { ...pair(a), reason: 'self' }, error: 'Re-bid not found' },
    { method: 'POST', path: '/v1/rebids/reset', body: pair(a), error: 'Re-bid not found' },
    { method: 'POST', path: '/v1/rebids/follow-up', body: { ...pair(a), due: soon() }, error: 'Re-bid not found' },
    { method: 'POST', path: '/v1/rebids/create-jobs', body: { items: [pair(a)] }, error: 'Re-bid not found' },
    // A's cycle with B's own site: no work of that cycle on record there.
    {
      method: 'POST',
      path: '/v1/rebids/reset',
      body: { key: `loc:${b.loc}`, cycle_id: a.rebidCycle },
      error: 'Re-bid not found',
    },
  ],
  async lookups({ A, B }) {
    // B's lists never show A's re-bids or sites.
    const rebids = (await ok(B.w.api.get(`/v1/rebids?status=all&location_id=${A.ids.loc}`))).data;
    if (rebids.length !== 0) throw new Error("B's re-bid list showed A's site");
    const sites = (await ok(B.w.api.get('/v1/sites/completed'))).data;
    if (sites.some((s) => s.id === A.ids.loc)) throw new Error("B's completed sites showed A's site");
  },
  routes: {
    'GET /v1/rebid-cycles': { needs: 'read', path: () => '/v1/rebid-cycles' },
    'PATCH /v1/rebid-cycles/{id}': {
      needs: 'write',
      path: (a) => `/v1/rebid-cycles/${a.rebidCycle}`,
      body: () => ({ every_years: 4 }),
    },
    'GET /v1/rebids': { needs: 'read', path: () => '/v1/rebids' },
    'POST /v1/rebids/create-jobs': {
      needs: 'write',
      path: () => '/v1/rebids/create-jobs',
      body: (a) => ({ items: [pair(a)] }),
    },
    'POST /v1/rebids/snooze': {
      needs: 'write',
      path: () => '/v1/rebids/snooze',
      body: (a) => ({ ...pair(a), until: soon() }),
    },
    'POST /v1/rebids/not-doing': {
      needs: 'write',
      path: () => '/v1/rebids/not-doing',
      body: (a) => ({ ...pair(a), reason: 'sold' }),
    },
    'POST /v1/rebids/reset': { needs: 'write', path: () => '/v1/rebids/reset', body: (a) => pair(a) },
    'POST /v1/rebids/follow-up': {
      needs: 'write',
      path: () => '/v1/rebids/follow-up',
      body: (a) => ({ ...pair(a), due: soon() }),
    },
    'POST /v1/rebids/history': {
      needs: 'write',
      path: () => '/v1/rebids/history',
      body: (a) => ({ location_id: a.loc, cycle_id: a.rebidCycle, done_on: '2025-03-01' }),
    },
    'DELETE /v1/rebids/history/{record_id}': { needs: 'delete', path: (a) => `/v1/rebids/history/${a.rebidRecord}` },
    'GET /v1/sites/completed': { needs: 'read', path: () => '/v1/sites/completed' },
  },
};
