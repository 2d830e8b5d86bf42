// The operations part of the isolation and permission walk (test/helpers/walk/kit.ts): crews and
// the work scheduled on the CRM walk's jobs. Each resource of the area adds its records and
// routes here.
import { ok } from '#test/helpers/records.ts';
import type { AreaWalk } from '#test/helpers/walk/kit.ts';

export const operationsWalk: AreaWalk = {
  area: 'operations',
  workspace: { settings: { operations_enabled: true, crew_scheduling_enabled: true } },
  async provision({ w, label }) {
    const crew = (await ok(w.api.post('/v1/crews', { name: `Walk crew ${label}`, member_user_ids: [w.ownerId] }))).data;
    return { crew: crew.id };
  },
  snapshot: (ids) => ['/v1/crews', `/v1/crews/${ids.crew}`],
  foreignIds: (a) => [
    { method: 'GET', path: `/v1/crews/${a.crew}`, error: 'Crew not found' },
    { method: 'PATCH', path: `/v1/crews/${a.crew}`, body: { name: 'Hijack' }, error: 'Crew not found' },
  ],
  async lookups({ A, B }) {
    // A's users are not B's: naming A's owner as a member of B's crew is 404.
    const res = await B.w.api.post('/v1/crews', { name: 'Borrowed', member_user_ids: [A.w.ownerId] });
    if (res.status !== 404) throw new Error(`A's user on B's crew answered ${res.status}`);
  },
  routes: {
    'GET /v1/crews': { needs: 'read', path: () => '/v1/crews' },
    'POST /v1/crews': { needs: 'write', path: () => '/v1/crews', body: () => ({ name: 'Read-only crew' }) },
    'GET /v1/crews/{id}': { needs: 'read', path: (a) => `/v1/crews/${a.crew}` },
    'PATCH /v1/crews/{id}': { needs: 'write', path: (a) => `/v1/crews/${a.crew}`, body: () => ({ color: '#000000' }) },
  },
};
