// POST /v1/activities (idempotent on source + external_id), GET /v1/activities and /v1/activities/{id}.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { advanceClock } from '#platform/time.ts';
import { account, contact, job, logOf, Z_SECONDS } from '#test/helpers/records.ts';
import type { BodyOf } from '#test/helpers/api-types.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const rowsOf = async (firmId: number) =>
  t.database.db.selectFrom('activities').selectAll().where('firm_id', '=', firmId).execute();

describe('POST /v1/activities', () => {
  it('creates: 201 {data, created: true} with source api by default and the key user', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const res = await w.api.post('/v1/activities', {
      type: 'email',
      subject: 'Quote sent',
      body: 'Attached the quote',
      direction: 'outbound',
      associations: { job_id: j.id },
    });
    expect(res.status).toBe(201);
    expect(res.body.created).toBe(true);
    expect(res.body.data).toMatchObject({
      id: expect.any(Number),
      type: 'email',
      subject: 'Quote sent',
      body: 'Attached the quote',
      outcome: null,
      direction: 'outbound',
      duration_seconds: null,
      source: 'api',
      external_id: null,
      associations: { job_id: j.id, client_account_id: null, contact_id: null, lead_id: null },
      user_id: w.ownerId,
      user: { id: w.ownerId, name: expect.any(String) },
    });
    for (const f of ['occurred_at', 'created_at', 'updated_at'] as const) expect(res.body.data[f]).toMatch(Z_SECONDS);
    expect((await w.api.get(`/v1/activities/${res.body.data.id}`)).body.data).toEqual(res.body.data);
  });

  it('a call may send only outcome; other types need body or subject (400)', async () => {
    const w = await t.workspace();
    const ca = await account(w);
    const call = await w.api.post('/v1/activities', {
      type: 'call',
      outcome: 'left voicemail',
      duration_seconds: 42,
      associations: { client_account_id: ca.id },
    });
    expect(call.status).toBe(201);
    expect(call.body.data).toMatchObject({
      outcome: 'left voicemail',
      duration_seconds: 42,
      body: null,
      subject: null,
    });
    const meeting = await w.api.post('/v1/activities', {
      type: 'meeting',
      outcome: 'went well',
      associations: { client_account_id: ca.id },
    });
    expect(meeting.status).toBe(400);
    expect(meeting.body).toMatchObject({ error: 'body is required', field: 'body' });
    const blank = await w.api.post('/v1/activities', {
      type: 'note',
      body: '  ',
      associations: { client_account_id: ca.id },
    });
    expect(blank.status).toBe(400);
    expect(
      (
        await w.api.post('/v1/activities', {
          type: 'note',
          subject: 'Only a subject',
          associations: { client_account_id: ca.id },
        })
      ).status,
    ).toBe(201);
    expect((await rowsOf(w.firmId)).length).toBe(2);
  });

  it('type is required and must be one of the list; bad direction or unknown association key is 400', async () => {
    const w = await t.workspace();
    const ca = await account(w);
    const a = { associations: { client_account_id: ca.id } };
    const missing = await w.api.raw.post('/v1/activities', { body: 'x', ...a });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('type is required');
    const bad = await w.api.raw.post('/v1/activities', { type: 'fax', body: 'x', ...a });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('type must be one of call, email, text, meeting, note, task, other');
    expect(
      (await w.api.raw.post('/v1/activities', { type: 'call', body: 'x', direction: 'sideways', ...a })).status,
    ).toBe(400);
    const unknown = await w.api.raw.post('/v1/activities', { type: 'call', body: 'x', associations: { deal_id: 3 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fields).toEqual(['associations.deal_id']);
    expect(
      (await w.api.post('/v1/activities', { type: 'call', body: 'x', occurred_at: 'soon', ...a })).body.field,
    ).toBe('occurred_at');
  });

  it('needs at least one association (400)', async () => {
    const w = await t.workspace();
    for (const body of [
      { type: 'note', body: 'x' },
      { type: 'note', body: 'x', associations: {} },
      { type: 'note', body: 'x', associations: { job_id: null } },
    ]) {
      const res = await w.api.raw.post('/v1/activities', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ error: 'associations is required', field: 'associations' });
    }
  });

  it('resolves job_external_ref and client_account_external_ref; contact_id too', async () => {
    const w = await t.workspace();
    const j = await job(w, { external_ref: 'CRM-J-1' });
    const ca = await account(w, 'Ref Co', { external_ref: 'CRM-A-1' });
    const c = await contact(t, w);
    const res = await w.api.post('/v1/activities', {
      type: 'text',
      body: 'On my way',
      associations: { job_external_ref: 'CRM-J-1', client_account_external_ref: 'CRM-A-1', contact_id: c },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.associations).toEqual({
      job_id: j.id,
      client_account_id: ca.id,
      contact_id: c,
      lead_id: null,
    });
    const clash = await w.api.post('/v1/activities', {
      type: 'text',
      body: 'x',
      associations: { job_id: (await job(w)).id, job_external_ref: 'CRM-J-1' },
    });
    expect(clash.status).toBe(400);
  });

  it('unknown or other-workspace ids are 404 naming the field; any lead_id is 404 Lead not found', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const theirJob = await job(other, { external_ref: 'THEIRS' });
    const theirAccount = await account(other, 'Theirs', { external_ref: 'THEIRS-A' });
    const theirContact = await contact(t, other);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ job_id: theirJob.id }, 'Job not found', 'associations.job_id'],
      [{ job_external_ref: 'THEIRS' }, 'Job not found', 'associations.job_external_ref'],
      [
        { client_account_id: theirAccount.id },
        'associations.client_account_id not found in this workspace',
        'associations.client_account_id',
      ],
      [
        { client_account_external_ref: 'THEIRS-A' },
        'associations.client_account_external_ref not found in this workspace',
        'associations.client_account_external_ref',
      ],
      [{ contact_id: theirContact }, 'Contact not found', 'associations.contact_id'],
      [{ lead_id: 1 }, 'Lead not found', 'associations.lead_id'],
    ];
    for (const [associations, error, field] of cases) {
      const res = await w.api.post('/v1/activities', { type: 'note', body: 'x', associations });
      expect(res.status, field).toBe(404);
      expect(res.body).toMatchObject({ error, field });
    }
    expect((await rowsOf(w.firmId)).length).toBe(0);
  });

  it('a read-only key is 403', async () => {
    const w = await t.workspace();
    const ca = await account(w);
    const ro = t.as(await t.key(w.firmId, w.ownerId, ['read_jobs']));
    expect(
      (await ro.post('/v1/activities', { type: 'note', body: 'x', associations: { client_account_id: ca.id } })).status,
    ).toBe(403);
  });
});

describe('idempotency on source + external_id', () => {
  it('a repeat is 200 created false, updates the sent fields, keeps one row', async () => {
    const w = await t.workspace();
    const ca = await account(w);
    const c = await contact(t, w);
    const first = await w.api.post('/v1/activities', {
      type: 'call',
      subject: 'Intro call',
      outcome: 'no answer',
      source: 'dialpad',
      external_id: 'call-77',
      occurred_at: '2026-02-01T15:00:00Z',
      associations: { client_account_id: ca.id },
    });
    expect(first.status).toBe(201);
    await new Promise((r) => setTimeout(r, 1100));
    const again = await w.api.post('/v1/activities', {
      type: 'call',
      outcome: 'connected',
      duration_seconds: 310,
      source: 'dialpad',
      external_id: 'call-77',
      associations: { contact_id: c },
    });
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(false);
    expect(again.body.data).toMatchObject({
      id: first.body.data.id,
      subject: 'Intro call',
      outcome: 'connected',
      duration_seconds: 310,
      occurred_at: '2026-02-01T15:00:00Z',
      associations: { client_account_id: ca.id, contact_id: c, job_id: null, lead_id: null },
      created_at: first.body.data.created_at,
    });
    expect(again.body.data.updated_at > first.body.data.updated_at).toBe(true);
    expect((await rowsOf(w.firmId)).length).toBe(1);
    // null clears a field; a same-valued repeat changes nothing.
    const cleared = await w.api.post('/v1/activities', {
      type: 'call',
      subject: null,
      source: 'dialpad',
      external_id: 'call-77',
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.subject).toBeNull();
    const same = await w.api.post('/v1/activities', {
      type: 'call',
      subject: null,
      source: 'dialpad',
      external_id: 'call-77',
    });
    expect(same.body.data.updated_at).toBe(cleared.body.data.updated_at);
  });

  it('the same external_id from another source, or in another workspace, is a new activity', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const ca = await account(w);
    const ca2 = await account(other);
    const a = await w.api.post('/v1/activities', {
      type: 'email',
      body: 'x',
      source: 'gmail',
      external_id: 'm-1',
      associations: { client_account_id: ca.id },
    });
    const b = await w.api.post('/v1/activities', {
      type: 'email',
      body: 'x',
      source: 'outlook',
      external_id: 'm-1',
      associations: { client_account_id: ca.id },
    });
    const c = await w.api.post('/v1/activities', {
      type: 'email',
      body: 'x',
      external_id: 'm-1',
      associations: { client_account_id: ca.id },
    });
    const d = await other.api.post('/v1/activities', {
      type: 'email',
      body: 'x',
      source: 'gmail',
      external_id: 'm-1',
      associations: { client_account_id: ca2.id },
    });
    expect([a.status, b.status, c.status, d.status]).toEqual([201, 201, 201, 201]);
    expect(c.body.data.source).toBe('api');
    expect(new Set([a, b, c, d].map((r) => r.body.data.id)).size).toBe(4);
    // without external_id every call adds one
    await w.api.post('/v1/activities', { type: 'note', body: 'x', associations: { client_account_id: ca.id } });
    await w.api.post('/v1/activities', { type: 'note', body: 'x', associations: { client_account_id: ca.id } });
    expect((await rowsOf(w.firmId)).length).toBe(5);
  });

  it('a repeat that would leave it without body or associations is 400 and changes nothing', async () => {
    const w = await t.workspace();
    const ca = await account(w);
    await w.api.post('/v1/activities', {
      type: 'note',
      body: 'keep',
      source: 's',
      external_id: 'e',
      associations: { client_account_id: ca.id },
    });
    expect(
      (await w.api.post('/v1/activities', { type: 'note', body: null, source: 's', external_id: 'e' })).status,
    ).toBe(400);
    expect(
      (
        await w.api.post('/v1/activities', {
          type: 'note',
          source: 's',
          external_id: 'e',
          associations: { client_account_id: null },
        })
      ).status,
    ).toBe(400);
    const rows = await rowsOf(w.firmId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ body: 'keep', client_account_id: ca.id });
  });

  it('concurrent creates with one source + external_id make one row; one 201, the rest 200', async () => {
    const w = await t.workspace();
    const ca = await account(w);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        w.api.post('/v1/activities', {
          type: 'call',
          outcome: `try ${i}`,
          source: 'race',
          external_id: 'same',
          associations: { client_account_id: ca.id },
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect((await rowsOf(w.firmId)).length).toBe(1);
  });
});

describe('activities on jobs', () => {
  it('log activity_logged on the job once, and again when a repeat moves it to another job', async () => {
    const w = await t.workspace();
    const j1 = await job(w);
    const j2 = await job(w);
    const a = await w.api.post('/v1/activities', {
      type: 'call',
      subject: 'Site walk booked',
      source: 'dialpad',
      external_id: 'x1',
      associations: { job_id: j1.id },
    });
    await w.api.post('/v1/activities', {
      type: 'call',
      subject: 'Site walk booked',
      outcome: 'ok',
      source: 'dialpad',
      external_id: 'x1',
    });
    const log1 = await logOf(w, j1.id);
    expect(log1).toHaveLength(1);
    expect(log1[0]).toMatchObject({
      kind: 'activity_logged',
      summary: 'Call logged from dialpad: Site walk booked',
      data: { activity_id: a.body.data.id, type: 'call', source: 'dialpad', external_id: 'x1' },
    });
    await w.api.post('/v1/activities', {
      type: 'call',
      source: 'dialpad',
      external_id: 'x1',
      associations: { job_id: j2.id },
    });
    expect((await logOf(w, j2.id)).map((e) => e.kind)).toEqual(['activity_logged']);
  });
});

describe('GET /v1/activities', () => {
  it('filters by job, customer, contact, type and source; newest occurred first; paging', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const ca = await account(w);
    const c = await contact(t, w);
    const post = async (body: BodyOf<'/v1/activities', 'post'>) =>
      (await w.api.post('/v1/activities', body)).body.data.id as number;
    const a1 = await post({
      type: 'call',
      outcome: 'x',
      occurred_at: '2026-01-01T00:00:00Z',
      source: 'dialpad',
      associations: { job_id: j.id },
    });
    const a2 = await post({
      type: 'email',
      body: 'x',
      occurred_at: '2026-01-03T00:00:00Z',
      associations: { client_account_id: ca.id, job_id: j.id },
    });
    const a3 = await post({
      type: 'text',
      body: 'x',
      occurred_at: '2026-01-02T00:00:00Z',
      associations: { contact_id: c },
    });
    const ids = async (q: string) => (await w.api.get(`/v1/activities${q}`)).body.data.map((a: any) => a.id);
    expect(await ids('')).toEqual([a2, a3, a1]);
    expect(await ids(`?job_id=${j.id}`)).toEqual([a2, a1]);
    expect(await ids(`?client_account_id=${ca.id}`)).toEqual([a2]);
    expect(await ids(`?contact_id=${c}`)).toEqual([a3]);
    expect(await ids('?type=call')).toEqual([a1]);
    expect(await ids('?source=dialpad')).toEqual([a1]);
    expect(await ids('?limit=1&offset=1')).toEqual([a3]);
    expect((await w.api.get('/v1/activities?limit=1')).body.pagination).toEqual({ total: 3, limit: 1, offset: 0 });
  });

  it('updated_after: oldest updated first; a bad value is 400', async () => {
    const w = await t.workspace();
    const ca = await account(w);
    const mk = async (ext: string) =>
      (
        await w.api.post('/v1/activities', {
          type: 'note',
          body: ext,
          source: 's',
          external_id: ext,
          associations: { client_account_id: ca.id },
        })
      ).body.data;
    await mk('one');
    await mk('two');
    await new Promise((r) => setTimeout(r, 20));
    const cutoff = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
    await w.api.post('/v1/activities', { type: 'note', body: 'one again', source: 's', external_id: 'one' });
    // Rows of the running second are held back from updated_after lists until it ends (platform/sync.ts).
    advanceClock(1000);
    const res = await w.api.get(`/v1/activities?updated_after=${encodeURIComponent(cutoff)}`);
    expect(res.body.data.map((a: any) => a.body)).toEqual(['one again']);
    const all = await w.api.get('/v1/activities?updated_after=2000-01-01');
    expect(all.body.data.map((a: any) => a.body)).toEqual(['two', 'one again']);
    const bad = await w.api.get('/v1/activities?updated_after=nope');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('updated_after must be an ISO 8601 timestamp');
  });

  it("another workspace's activity is 404; a member who sees own jobs only does not see others' job activities", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const ca2 = await account(other);
    const theirs = (
      await other.api.post('/v1/activities', { type: 'note', body: 'x', associations: { client_account_id: ca2.id } })
    ).body.data;
    expect((await w.api.get(`/v1/activities/${theirs.id}`)).status).toBe(404);
    expect((await w.api.get('/v1/activities')).body.pagination.total).toBe(0);

    const own = await t.user(w.firmId, { role: 'member', sees_own_jobs_only: true });
    const hiddenJob = await job(w);
    const myJob = await job(w, { assigned_to_user_id: own.id });
    const ca = await account(w);
    const hidden = (
      await w.api.post('/v1/activities', { type: 'note', body: 'h', associations: { job_id: hiddenJob.id } })
    ).body.data;
    const mine = (await w.api.post('/v1/activities', { type: 'note', body: 'm', associations: { job_id: myJob.id } }))
      .body.data;
    const loose = (
      await w.api.post('/v1/activities', { type: 'note', body: 'l', associations: { client_account_id: ca.id } })
    ).body.data;
    const list = await own.api.get('/v1/activities');
    expect(list.body.data.map((a: any) => a.id).sort()).toEqual([mine.id, loose.id].sort());
    expect(list.body.pagination.total).toBe(2);
    expect((await own.api.get(`/v1/activities/${hidden.id}`)).body.error).toBe('Activity not found');
    expect(
      (await own.api.post('/v1/activities', { type: 'note', body: 'x', associations: { job_id: hiddenJob.id } }))
        .status,
    ).toBe(404);
  });
});
