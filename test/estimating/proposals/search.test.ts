// Proposals in GET /v1/search (types=proposal): found by title, client name or company and by
// document number; the index follows a changed title; only proposals on jobs the user sees, and
// never another workspace's.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApp, type Client, type TestApp, type Workspace } from '#test/helpers/harness.ts';

let t: TestApp;
let w: Workspace;

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ name: 'Acme Paving' });
});
afterAll(() => t.close());

let serial = 0;
async function proposal(api: Client, fields: { contact_name: string; company: string }) {
  const job = (await api.post('/v1/jobs', { name: `Search lot ${++serial}`, ...fields })).body.data;
  const e = (await api.post('/v1/estimates', { job_id: job.id })).body.data;
  await api.post(`/v1/estimates/${e.id}/line-items`, { name: 'Seal', unit: 'SF', quantity: 100, unit_cost: 1 });
  const p = await api.post(`/v1/estimates/${e.id}/proposal`);
  expect(p.status, JSON.stringify(p.body)).toBe(201);
  return p.body.data;
}

const find = async (api: Client, q: string) => {
  const r = await api.get(`/v1/search?q=${encodeURIComponent(q)}&types=proposal`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as { type: string; id: number; title: string; subtitle: string | null; status: string }[];
};

it('finds proposals by title, client and company, and by document number', async () => {
  const a = await proposal(w.api, { contact_name: 'Dana Quintero', company: 'Wexford Commons HOA' });
  const b = await proposal(w.api, { contact_name: 'Lee Park', company: 'Brightwater Plaza' });
  await w.api.patch(`/v1/proposals/${a.id}`, { title: 'Clubhouse lot resurfacing' });
  expect((await find(w.api, 'clubhouse')).map((r) => r.id)).toEqual([a.id]);
  expect((await find(w.api, 'Quintero')).map((r) => r.id)).toEqual([a.id]);
  expect((await find(w.api, 'brightwater')).map((r) => r.id)).toEqual([b.id]);
  const hit = (await find(w.api, `#${b.doc_number}`))[0];
  expect(hit).toMatchObject({ type: 'proposal', id: b.id, status: 'draft' });
  expect(hit.subtitle).toContain(`#${b.doc_number}`);
  expect((await find(w.api, 'Wex')).map((r) => r.id)).toEqual([a.id]);
  expect((await find(w.api, 'Cl')).map((r) => r.id)).toEqual([a.id]);

  // The index follows the title.
  await w.api.patch(`/v1/proposals/${a.id}`, { title: 'Tennis court color coat' });
  expect(await find(w.api, 'clubhouse')).toEqual([]);
  expect((await find(w.api, 'tennis')).map((r) => r.id)).toEqual([a.id]);
  // Every search type answers together, proposals among them.
  const all = await w.api.get('/v1/search?q=tennis');
  expect(all.body.data.map((r: any) => r.type)).toContain('proposal');
});

it('shows a user who sees only their own jobs only those proposals, and no workspace another’s', async () => {
  const mine = await t.user(w.firmId, { name: 'Own Jobs', email: 'own@example.com', sees_own_jobs_only: true });
  const theirs = await proposal(w.api, { contact_name: 'Ivo Lark', company: 'Larkspur Estates' });
  const own = await proposal(mine.api, { contact_name: 'Ivo Lark', company: 'Larkspur Gardens' });
  expect((await find(mine.api, 'Larkspur')).map((r) => r.id)).toEqual([own.id]);
  expect((await find(w.api, 'Larkspur')).map((r) => r.id).sort()).toEqual([theirs.id, own.id].sort());
  const other = await t.workspace();
  expect(await find(other.api, 'Larkspur')).toEqual([]);
});
