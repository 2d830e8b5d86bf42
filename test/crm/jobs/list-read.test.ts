// GET /v1/jobs and GET /v1/jobs/{id}: order, paging totals, filters, q, include_assignees,
// updated_after sync, and what a user who sees only their own jobs can reach (document 2, Jobs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

async function make(w: Workspace, body: Record<string, unknown>): Promise<any> {
  const res = await w.api.post('/v1/jobs', body);
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

async function makeMany(w: Workspace, n: number, prefix = 'Job'): Promise<any[]> {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await make(w, { name: `${prefix} ${i}` }));
  return out;
}

/** A stored job timestamp (UTC, no zone) written in another zone, microseconds kept. */
function withOffset(stored: string, offsetMinutes: number): string {
  const ms = Date.parse(stored.slice(0, 19) + 'Z') + offsetMinutes * 60_000;
  const local = new Date(ms).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local}.${stored.slice(20)}${sign}${hh}:${mm}`;
}

const ids = (rows: any[]) => rows.map((r) => r.id);
const enc = encodeURIComponent;

describe('GET /v1/jobs: order and paging', () => {
  it('lists newest first with the list envelope', async () => {
    const w = await t.workspace();
    const jobs = await makeMany(w, 4);
    const res = await w.api.get('/v1/jobs');
    expect(res.status).toBe(200);
    expect(ids(res.body.data)).toEqual(ids(jobs).reverse());
    expect(res.body.pagination).toEqual({ total: 4, limit: 50, offset: 0 });
  });

  it('pages with limit and offset; total counts every job', async () => {
    const w = await t.workspace();
    const jobs = await makeMany(w, 5);
    const newest = ids(jobs).reverse();
    const p1 = await w.api.get('/v1/jobs?limit=2');
    expect(ids(p1.body.data)).toEqual(newest.slice(0, 2));
    expect(p1.body.pagination).toEqual({ total: 5, limit: 2, offset: 0 });
    const p2 = await w.api.get('/v1/jobs?limit=2&offset=2');
    expect(ids(p2.body.data)).toEqual(newest.slice(2, 4));
    expect(p2.body.pagination).toEqual({ total: 5, limit: 2, offset: 2 });
    const p3 = await w.api.get('/v1/jobs?limit=2&offset=4');
    expect(ids(p3.body.data)).toEqual(newest.slice(4));
    const past = await w.api.get('/v1/jobs?limit=2&offset=10');
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination.total).toBe(5);
  });

  it('limit above 100 is 400', async () => {
    const w = await t.workspace();
    const res = await w.api.get('/v1/jobs?limit=101');
    expect(res.status).toBe(400);
    const ok = await w.api.get('/v1/jobs?limit=100');
    expect(ok.status).toBe(200);
  });

  it('totals stay right after deletes, moves, failed writes and upserts', async () => {
    const w = await t.workspace();
    const jobs = await makeMany(w, 5);
    const total = async (query = '') => (await w.api.get(`/v1/jobs?limit=1${query}`)).body.pagination.total;
    expect(await total()).toBe(5);
    expect(await total('&status=lead')).toBe(5);

    expect((await w.api.delete(`/v1/jobs/${jobs[0].id}`)).status).toBe(204);
    expect(await total()).toBe(4);
    expect(await total('&status=lead')).toBe(4);

    expect((await w.api.post(`/v1/jobs/${jobs[1].id}/move`, { status: 'won' })).status).toBe(200);
    expect((await w.api.patch(`/v1/jobs/${jobs[2].id}`, { status: 'lost' })).status).toBe(200);
    expect(await total()).toBe(4);
    expect(await total('&status=lead')).toBe(2);
    expect(await total('&status=won')).toBe(1);
    expect(await total('&status=lost')).toBe(1);
    expect(await total('&status=active')).toBe(0);

    // A move to the same stage, a refused move and a refused create change nothing.
    await w.api.post(`/v1/jobs/${jobs[1].id}/move`, { status: 'won' });
    expect((await w.api.post(`/v1/jobs/${jobs[1].id}/move`, { status: 'nope' })).status).toBe(400);
    expect((await w.api.post('/v1/jobs', { name: 'Job 3' })).status).toBe(409);
    expect(await total('&status=won')).toBe(1);
    expect(await total()).toBe(4);

    // An upsert that moves the job, then a delete of a moved job.
    await w.api.patch(`/v1/jobs/${jobs[3].id}`, { external_ref: 'R-3' });
    const up = await w.api.post('/v1/jobs', { external_ref: 'R-3', status: 'active' });
    expect(up.status).toBe(200);
    expect(await total('&status=active')).toBe(1);
    expect(await total('&status=lead')).toBe(1);
    expect((await w.api.delete(`/v1/jobs/${jobs[1].id}`)).status).toBe(204);
    expect(await total('&status=won')).toBe(0);
    expect(await total()).toBe(3);

    // The counters agree with the rows.
    const all = await w.api.get('/v1/jobs?limit=100');
    expect(all.body.data).toHaveLength(3);
    const byStatus = (s: string) => all.body.data.filter((j: any) => j.status === s).length;
    expect(byStatus('lead')).toBe(await total('&status=lead'));
    expect(byStatus('active')).toBe(await total('&status=active'));
    expect(byStatus('lost')).toBe(await total('&status=lost'));
  });

  it('a merge lowers the total', async () => {
    const w = await t.workspace();
    const jobs = await makeMany(w, 3);
    await w.api.post(`/v1/jobs/${jobs[0].id}/move`, { status: 'won' });
    const res = await w.api.post(`/v1/jobs/${jobs[0].id}/merge`, { into_job_id: jobs[1].id });
    expect(res.status).toBe(200);
    expect((await w.api.get('/v1/jobs')).body.pagination.total).toBe(2);
    expect((await w.api.get('/v1/jobs?status=won')).body.pagination.total).toBe(0);
  });

  it('lists only the key workspace jobs', async () => {
    const a = await t.workspace();
    const b = await t.workspace();
    await makeMany(a, 2, 'A');
    await makeMany(b, 3, 'B');
    const res = await a.api.get('/v1/jobs');
    expect(res.body.pagination.total).toBe(2);
    expect(res.body.data.every((j: any) => j.firm_id === a.firmId)).toBe(true);
  });
});

describe('GET /v1/jobs: filters', () => {
  it('status filters rows and total', async () => {
    const w = await t.workspace();
    const jobs = await makeMany(w, 4);
    await w.api.post(`/v1/jobs/${jobs[1].id}/move`, { status: 'won' });
    await w.api.post(`/v1/jobs/${jobs[3].id}/move`, { status: 'won' });
    const res = await w.api.get('/v1/jobs?status=won');
    expect(ids(res.body.data)).toEqual([jobs[3].id, jobs[1].id]);
    expect(res.body.pagination.total).toBe(2);
    const none = await w.api.get('/v1/jobs?status=nosuchstage');
    expect(none.body.data).toEqual([]);
    expect(none.body.pagination.total).toBe(0);
  });

  it('external_ref finds 0 or 1 row', async () => {
    const w = await t.workspace();
    await make(w, { name: 'No Ref' });
    const withRef = await make(w, { name: 'Has Ref', external_ref: 'HS-100' });
    const hit = await w.api.get('/v1/jobs?external_ref=HS-100');
    expect(ids(hit.body.data)).toEqual([withRef.id]);
    expect(hit.body.pagination.total).toBe(1);
    const miss = await w.api.get('/v1/jobs?external_ref=HS-999');
    expect(miss.body.data).toEqual([]);
    expect(miss.body.pagination.total).toBe(0);
    const other = await t.workspace();
    const foreign = await other.api.get('/v1/jobs?external_ref=HS-100');
    expect(foreign.body.pagination.total).toBe(0);
  });

  it('assigned_to_user_id filters by owner', async () => {
    const w = await t.workspace();
    const member = await t.user(w.firmId, { role: 'member' });
    await make(w, { name: 'Owner Job' });
    const m1 = await make(w, { name: 'Member Job 1', assigned_to_user_id: member.id });
    const m2 = await member.api.post('/v1/jobs', { name: 'Member Job 2' });
    const res = await w.api.get(`/v1/jobs?assigned_to_user_id=${member.id}`);
    expect(ids(res.body.data)).toEqual([m2.body.data.id, m1.id]);
    expect(res.body.pagination.total).toBe(2);
    const owner = await w.api.get(`/v1/jobs?assigned_to_user_id=${w.ownerId}`);
    expect(owner.body.pagination.total).toBe(1);
  });

  it('q matches name, company, address and contact name, ignoring case', async () => {
    const w = await t.workspace();
    const byName = await make(w, { name: 'Walmart Resurface' });
    const byCompany = await make(w, { name: 'Second', company: 'Zenith Holdings' });
    const byAddress = await make(w, { name: 'Third', address: '55 Quarry Road' });
    const byContact = await make(w, { name: 'Fourth', contact_name: 'Priscilla Vance' });
    await make(w, { name: 'Unrelated', notes: 'walmart zenith quarry priscilla', description: 'walmart' });
    const search = async (q: string) => {
      const res = await w.api.get(`/v1/jobs?q=${enc(q)}`);
      expect(res.status).toBe(200);
      expect(res.body.pagination.total).toBe(res.body.data.length);
      return ids(res.body.data);
    };
    expect(await search('WALMART')).toEqual([byName.id]);
    expect(await search('zenith hold')).toEqual([byCompany.id]);
    expect(await search('quarry')).toEqual([byAddress.id]);
    expect(await search('pRiScIlLa')).toEqual([byContact.id]);
    expect(await search('nothing-like-this')).toEqual([]);
  });

  it('q ignores case beyond ASCII too', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Über Café Grounds', contact_name: 'Ñandú Pérez' });
    await make(w, { name: 'Plain Grounds' });
    const search = async (q: string) => ids((await w.api.get(`/v1/jobs?q=${enc(q)}`)).body.data);
    expect(await search('über café')).toEqual([job.id]);
    expect(await search('ÜBER CAFÉ')).toEqual([job.id]);
    expect(await search('ñandú pérez')).toEqual([job.id]);
  });

  it('q treats % and _ literally', async () => {
    const w = await t.workspace();
    const pct = await make(w, { name: '100% Done' });
    await make(w, { name: '100 Done' });
    const under = await make(w, { name: 'lot_b' });
    await make(w, { name: 'lotxb' });
    const back = await make(w, { name: 'Path a\\b' });
    const search = async (q: string) => ids((await w.api.get(`/v1/jobs?q=${enc(q)}`)).body.data);
    expect(await search('%')).toEqual([pct.id]);
    expect(await search('100%')).toEqual([pct.id]);
    expect(await search('_')).toEqual([under.id]);
    expect(await search('lot_b')).toEqual([under.id]);
    expect(await search('a\\b')).toEqual([back.id]);
  });

  it('filters combine', async () => {
    const w = await t.workspace();
    const a = await make(w, { name: 'Alpha Paving' });
    await make(w, { name: 'Alpha Sealing' });
    await w.api.post(`/v1/jobs/${a.id}/move`, { status: 'active' });
    const res = await w.api.get('/v1/jobs?q=alpha&status=active');
    expect(ids(res.body.data)).toEqual([a.id]);
    expect(res.body.pagination.total).toBe(1);
  });
});

describe('include_assignees', () => {
  it('adds assignees with the owner only when asked', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Assigned' });
    const plain = await w.api.get('/v1/jobs');
    expect(plain.body.data[0]).not.toHaveProperty('assignees');
    const single = await w.api.get(`/v1/jobs/${job.id}`);
    expect(single.body.data).not.toHaveProperty('assignees');

    const list = await w.api.get('/v1/jobs?include_assignees=true');
    expect(list.body.data[0].assignees).toEqual([list.body.data[0].assigned_to]);
    expect(list.body.data[0].assignees![0].id).toBe(w.ownerId);
    const read = await w.api.get(`/v1/jobs/${job.id}?include_assignees=true`);
    expect(read.body.data.assignees).toHaveLength(1);
    expect(read.body.data.assignees![0]).toEqual(read.body.data.assigned_to);
    const off = await w.api.get(`/v1/jobs/${job.id}?include_assignees=false`);
    expect(off.body.data).not.toHaveProperty('assignees');
  });

  it('lists further assignees after the owner', async () => {
    const w = await t.workspace();
    const member = await t.user(w.firmId, { role: 'member' });
    const job = await make(w, { name: 'Team Job' });
    await t.database.db.insertInto('job_assignees').values({ job_id: job.id, user_id: member.id }).execute();
    const read = await w.api.get(`/v1/jobs/${job.id}?include_assignees=true`);
    expect(read.body.data.assignees!.map((u: any) => u.id)).toEqual([w.ownerId, member.id]);
    expect(Object.keys(read.body.data.assignees![1]).sort()).toEqual(Object.keys(read.body.data.assigned_to).sort());
  });
});

describe('updated_after', () => {
  it('lists changed jobs oldest updated first, strictly after the given time', async () => {
    const w = await t.workspace();
    const jobs = await makeMany(w, 4);
    // Change the oldest job: it becomes the most recently updated.
    const patched = await w.api.patch(`/v1/jobs/${jobs[0].id}`, { notes: 'touched' });
    expect(patched.status).toBe(200);
    const all = await w.api.get('/v1/jobs?updated_after=2000-01-01T00:00:00Z');
    expect(ids(all.body.data)).toEqual([jobs[1].id, jobs[2].id, jobs[3].id, jobs[0].id]);
    expect(all.body.pagination.total).toBe(4);
    const updated = all.body.data.map((j: any) => j.updated_at);
    expect([...updated].sort()).toEqual(updated);

    const after = await w.api.get(`/v1/jobs?updated_after=${enc(jobs[2].updated_at)}`);
    expect(ids(after.body.data)).toEqual([jobs[3].id, jobs[0].id]);
    expect(after.body.pagination.total).toBe(2);
    const last = await w.api.get(`/v1/jobs?updated_after=${enc(patched.body.data.updated_at)}`);
    expect(last.body.data).toEqual([]);
    expect(last.body.pagination.total).toBe(0);
  });

  it('reads zones: Z, offsets and no zone (UTC) name the same instant', async () => {
    const w = await t.workspace();
    const jobs = await makeMany(w, 3);
    const pivot = jobs[0].updated_at;
    const expected = [jobs[1].id, jobs[2].id];
    for (const form of [pivot, `${pivot}Z`, withOffset(pivot, 120), withOffset(pivot, -330), withOffset(pivot, 600)]) {
      const res = await w.api.get(`/v1/jobs?updated_after=${enc(form)}`);
      expect(res.status, form).toBe(200);
      expect(ids(res.body.data), form).toEqual(expected);
    }
    // One microsecond earlier in a +02:00 zone includes the pivot job.
    const micros = Number(pivot.slice(20));
    if (micros > 0) {
      const earlier = `${pivot.slice(0, 20)}${String(micros - 1).padStart(6, '0')}`;
      const res = await w.api.get(`/v1/jobs?updated_after=${enc(withOffset(earlier, 120))}`);
      expect(ids(res.body.data)).toEqual([jobs[0].id, ...expected]);
    }
    // A date alone is midnight UTC.
    const day = await w.api.get('/v1/jobs?updated_after=2001-01-01');
    expect(day.body.pagination.total).toBe(3);
  });

  it("the sync loop sees every job, paging with the last row's updated_at", async () => {
    const w = await t.workspace();
    const jobs = await makeMany(w, 7);
    const seen = new Map<number, string>();
    let cursor = '1970-01-01T00:00:00Z';
    let pages = 0;
    for (;;) {
      const res = await w.api.get(`/v1/jobs?updated_after=${enc(cursor)}&limit=2`);
      expect(res.status).toBe(200);
      pages++;
      for (const j of res.body.data) seen.set(j.id, j.updated_at);
      if (pages === 1) {
        // A change while syncing: the job shows up again later in the pull.
        await w.api.patch(`/v1/jobs/${res.body.data[0].id}`, { notes: 'changed mid-sync' });
      }
      if (res.body.data.length < 2) break;
      cursor = res.body.data[res.body.data.length - 1].updated_at;
      expect(pages).toBeLessThan(20);
    }
    expect([...seen.keys()].sort((a, b) => a - b)).toEqual(ids(jobs).sort((a, b) => a - b));
    const changed = await w.api.get(`/v1/jobs/${jobs[0].id}`);
    expect(seen.get(jobs[0].id)).toBe(changed.body.data.updated_at);
    expect(changed.body.data.notes).toBe('changed mid-sync');
  });

  it('a bad updated_after is 400', async () => {
    const w = await t.workspace();
    for (const bad of ['yesterday', '2026-13-01', '2026-02-30T00:00:00Z', '12345']) {
      const res = await w.api.get(`/v1/jobs?updated_after=${enc(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.error).toBe('updated_after must be an ISO 8601 timestamp');
    }
  });
});

describe('GET /v1/jobs/{id}', () => {
  it('reads a job', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Readable', company: 'Reader Co' });
    const res = await w.api.get(`/v1/jobs/${job.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: job });
  });

  it('a missing id or another workspace job is 404 Job not found', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const foreign = await make(other, { name: 'Foreign' });
    const missing = await w.api.get('/v1/jobs/987654');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Job not found');
    const cross = await w.api.get(`/v1/jobs/${foreign.id}`);
    expect(cross.status).toBe(404);
    expect(cross.body.error).toBe('Job not found');
    expect(cross.body).not.toHaveProperty('data');
  });

  it('an id that is not a positive integer is 404', async () => {
    const w = await t.workspace();
    for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
      const res = await w.api.get(`/v1/jobs/${id}`);
      expect(res.status, id).toBe(404);
    }
  });

  it('a key without read permission is 403', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Private' });
    const key = await t.key(w.firmId, w.ownerId, ['write_jobs']);
    expect((await t.as(key).get(`/v1/jobs/${job.id}`)).status).toBe(403);
    expect((await t.as(key).get('/v1/jobs')).status).toBe(403);
  });
});

describe('users who see only their own jobs', () => {
  async function setup() {
    const w = await t.workspace();
    const own = await t.user(w.firmId, { role: 'member', sees_own_jobs_only: true, can_delete_jobs: true });
    const others = await make(w, { name: 'Owner Only', external_ref: 'OWN-1' });
    const mine = await make(w, { name: 'Handed Over', assigned_to_user_id: own.id });
    const alsoOthers = await make(w, { name: 'Owner Too' });
    return { w, own, others, mine, alsoOthers };
  }

  it('list and total show only jobs they own', async () => {
    const { own, mine } = await setup();
    const created = await own.api.post('/v1/jobs', { name: 'My Own' });
    expect(created.status).toBe(201);
    const res = await own.api.get('/v1/jobs');
    expect(ids(res.body.data)).toEqual([created.body.data.id, mine.id]);
    expect(res.body.pagination.total).toBe(2);
    const lead = await own.api.get('/v1/jobs?status=lead');
    expect(lead.body.pagination.total).toBe(2);
    const q = await own.api.get('/v1/jobs?q=owner');
    expect(q.body.pagination.total).toBe(0);
    const ref = await own.api.get('/v1/jobs?external_ref=OWN-1');
    expect(ref.body.data).toEqual([]);
    const sync = await own.api.get('/v1/jobs?updated_after=2000-01-01');
    expect(sync.body.pagination.total).toBe(2);
  });

  it('single reads of other jobs are 404; their own are 200', async () => {
    const { own, others, mine } = await setup();
    const res = await own.api.get(`/v1/jobs/${others.id}`);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Job not found');
    expect((await own.api.get(`/v1/jobs/${mine.id}`)).status).toBe(200);
  });

  it('an extra assignee sees the job', async () => {
    const { own, others } = await setup();
    await t.database.db.insertInto('job_assignees').values({ job_id: others.id, user_id: own.id }).execute();
    expect((await own.api.get(`/v1/jobs/${others.id}`)).status).toBe(200);
    expect((await own.api.get('/v1/jobs')).body.pagination.total).toBe(2);
  });

  it('cannot PATCH, move, delete or merge other jobs (404), nothing changes', async () => {
    const { w, own, others, mine } = await setup();
    const patch = await own.api.patch(`/v1/jobs/${others.id}`, { notes: 'sneaky' });
    expect(patch.status).toBe(404);
    expect(patch.body.error).toBe('Job not found');
    const move = await own.api.post(`/v1/jobs/${others.id}/move`, { status: 'won' });
    expect(move.status).toBe(404);
    const del = await own.api.delete(`/v1/jobs/${others.id}`);
    expect(del.status).toBe(404);
    const merge = await own.api.post(`/v1/jobs/${mine.id}/merge`, { into_job_id: others.id });
    expect(merge.status).toBe(404);
    const read = await w.api.get(`/v1/jobs/${others.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.notes).toBeNull();
    expect(read.body.data.status).toBe('lead');
    expect((await w.api.get(`/v1/jobs/${mine.id}`)).status).toBe(200);
  });

  it('can change their own jobs', async () => {
    const { own, mine } = await setup();
    const patch = await own.api.patch(`/v1/jobs/${mine.id}`, { notes: 'mine' });
    expect(patch.status).toBe(200);
    expect(patch.body.data.notes).toBe('mine');
    const move = await own.api.post(`/v1/jobs/${mine.id}/move`, { status: 'active' });
    expect(move.status).toBe(200);
    expect(move.body.data.status).toBe('active');
  });

  it('an upsert onto a job they cannot see is 409 naming the holder, and changes nothing', async () => {
    const { w, own, others } = await setup();
    const res = await own.api.post('/v1/jobs', { name: 'Hijack', external_ref: 'OWN-1' });
    expect(res.status).toBe(409);
    expect(res.body.holder).toMatchObject({ type: 'job', id: others.id });
    expect((await w.api.get(`/v1/jobs/${others.id}`)).body.data.name).toBe('Owner Only');
  });

  it('handing their job to someone else answers with the job as written, then it is out of sight', async () => {
    const { w, own, mine } = await setup();
    const res = await own.api.patch(`/v1/jobs/${mine.id}`, { assigned_to_user_id: w.ownerId });
    expect(res.status).toBe(200);
    expect(res.body.data.assigned_to_user_id).toBe(w.ownerId);
    expect((await own.api.get(`/v1/jobs/${mine.id}`)).status).toBe(404);
  });
});
