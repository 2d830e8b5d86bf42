// GET /v1/jobs/{id} under concurrency: on PostgreSQL the job reads of one event-loop turn share a
// statement (db/batched-read.ts). Whatever travels together, each caller gets its own job, and
// another workspace's job stays a 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobReadCounts } from '#crm/index.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';

let t: TestApp;
let a: Workspace;
let b: Workspace;
const jobsOf = new Map<Workspace, { id: number; name: string }[]>();

beforeAll(async () => {
  t = await startApp();
  a = await t.workspace({ name: 'Alpha Paving' });
  b = await t.workspace({ name: 'Bravo Sealcoating' });
  for (const [w, prefix] of [
    [a, 'Alpha'],
    [b, 'Bravo'],
  ] as const) {
    const made = [];
    for (let i = 0; i < 20; i++) {
      const res = await w.api.post('/v1/jobs', { name: `${prefix} lot ${i}`, estimated_value: 1000 + i });
      made.push({ id: res.body.data.id, name: res.body.data.name });
    }
    jobsOf.set(w, made);
  }
});
afterAll(() => t.close());

describe('GET /v1/jobs/{id}, many at once', () => {
  it('answers each read with its own job, and 404 for another workspace’s or a missing one', async () => {
    const alpha = jobsOf.get(a)!;
    const bravo = jobsOf.get(b)!;
    const asks: { w: Workspace; id: number; expect: string | null }[] = [];
    for (let i = 0; i < 20; i++) {
      asks.push({ w: a, id: alpha[i].id, expect: alpha[i].name });
      asks.push({ w: b, id: bravo[i].id, expect: bravo[i].name });
      // The same job asked twice in one turn, and each workspace asking for the other's.
      if (i % 4 === 0) asks.push({ w: a, id: alpha[i].id, expect: alpha[i].name });
      if (i % 5 === 0) asks.push({ w: a, id: bravo[i].id, expect: null });
      if (i % 5 === 1) asks.push({ w: b, id: alpha[i].id, expect: null });
    }
    asks.push({ w: a, id: 987_654_321, expect: null });
    asks.push({ w: b, id: 2_147_483_647, expect: null }); // the largest id a path takes
    const before = jobReadCounts();
    const replies = await Promise.all(asks.map((q) => q.w.api.get(`/v1/jobs/${q.id}`)));
    const after = jobReadCounts();

    replies.forEach((res, i) => {
      const ask = asks[i];
      if (ask.expect === null) {
        expect(res.status, `job ${ask.id}`).toBe(404);
        expect(res.body.error).toBe('Job not found');
      } else {
        expect(res.status, `job ${ask.id}`).toBe(200);
        expect(res.body.data.id).toBe(ask.id);
        expect(res.body.data.name).toBe(ask.expect);
      }
    });
    if (t.database.dialect.engine === 'postgres') {
      // Every read went through the shared statements, and they were shared.
      expect(after.reads - before.reads).toBe(asks.length);
      expect(after.statements - before.statements).toBeLessThan(asks.length / 2);
    } else {
      expect(after).toEqual(before);
    }
  });

  it('shows a change made just before: a read after a write sees it', async () => {
    const job = jobsOf.get(a)![3];
    const patched = await a.api.patch(`/v1/jobs/${job.id}`, { name: 'Alpha lot 3, resurfaced' });
    expect(patched.status).toBe(200);
    const [one, two] = await Promise.all([a.api.get(`/v1/jobs/${job.id}`), a.api.get(`/v1/jobs/${job.id}`)]);
    expect(one.body.data.name).toBe('Alpha lot 3, resurfaced');
    expect(two.body.data).toEqual(one.body.data);
  });
});
