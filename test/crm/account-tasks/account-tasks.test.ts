// Company follow-ups: /v1/account-tasks (document 2: client_account_id required; title defaults from
// type and customer name; repeat, email_me, due_date + due_time read in the workspace's time zone).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { account, contact } from '#test/helpers/records.ts';
import type { BodyOf } from '#test/helpers/api-types.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

describe('POST /v1/account-tasks', () => {
  it("needs only client_account_id: 'Call Acme Paving', call, open, no repeat, assigned to the key's user", async () => {
    const w = await t.workspace();
    const ca = await account(w, 'Acme Paving');
    const res = await w.api.post('/v1/account-tasks', { client_account_id: ca.id });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      id: expect.any(Number),
      client_account_id: ca.id,
      contact_id: null,
      title: 'Call Acme Paving',
      task_type: 'call',
      notes: null,
      due_at: null,
      due_date: null,
      due_time: null,
      repeat: 'none',
      email_me: 'none',
      status: 'open',
      assigned_to_user_id: w.ownerId,
      assigned_to: { id: w.ownerId },
      created_by_user_id: w.ownerId,
      completed_at: null,
    });
    expect((await w.api.get(`/v1/account-tasks/${res.body.data.id}`)).body.data).toEqual(res.body.data);
  });

  it('the default title follows the type; a sent title wins', async () => {
    const w = await t.workspace();
    const ca = await account(w, 'Acme Paving');
    const titles: Record<string, string> = {
      email: 'Email Acme Paving',
      meeting: 'Meet Acme Paving',
      site_visit: 'Visit Acme Paving',
      follow_up: 'Follow up with Acme Paving',
    };
    for (const [task_type, title] of Object.entries(titles)) {
      expect((await w.api.raw.post('/v1/account-tasks', { client_account_id: ca.id, task_type })).body.data.title).toBe(
        title,
      );
    }
    expect(
      (await w.api.post('/v1/account-tasks', { client_account_id: ca.id, title: 'Renewal chat' })).body.data.title,
    ).toBe('Renewal chat');
  });

  it('due_date + due_time in the workspace time zone, repeat, email_me, notes, contact and assignee', async () => {
    const w = await t.workspace({ timezone: 'America/Denver' });
    const ca = await account(w);
    const c = await contact(t, w, 'Dana', ca.id);
    const rep = await t.user(w.firmId, { name: 'Rep', role: 'member' });
    const res = await w.api.post('/v1/account-tasks', {
      client_account_id: ca.id,
      due_date: '2026-11-02',
      repeat: 'monthly',
      email_me: 'day_before',
      notes: 'Ask about lot B',
      contact_id: c,
      assigned_to_user_id: rep.id,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      due_date: '2026-11-02',
      due_time: '09:00',
      due_at: '2026-11-02T16:00:00Z',
      repeat: 'monthly',
      email_me: 'day_before',
      notes: 'Ask about lot B',
      contact_id: c,
      assigned_to: { id: rep.id, name: 'Rep' },
    });
  });

  it('400s: bad repeat, email_me, task_type, due_time; repeating or emailing without a due date', async () => {
    const w = await t.workspace();
    const ca = await account(w);
    const cases: [Record<string, unknown>, string][] = [
      [{ repeat: 'daily', due_date: '2026-01-01' }, 'repeat'],
      [{ email_me: 'always', due_date: '2026-01-01' }, 'email_me'],
      [{ task_type: 'lunch' }, 'task_type'],
      [{ due_date: '2026-01-01', due_time: '7:5' }, 'due_time'],
      [{ repeat: 'weekly' }, 'due_date'],
      [{ email_me: 'that_day' }, 'due_date'],
      [{ title: '' }, 'title'],
    ];
    for (const [body, field] of cases) {
      const res = await w.api.post('/v1/account-tasks', { client_account_id: ca.id, ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field, JSON.stringify(body)).toBe(field);
    }
    expect((await w.api.raw.post('/v1/account-tasks', {})).body.error).toBe('client_account_id is required');
    expect((await w.api.get('/v1/account-tasks?status=all')).body.pagination.total).toBe(0);
  });

  it('404s: customer, contact or assignee outside the workspace; 403 read-only', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const ca = await account(w);
    const theirs = await account(other);
    for (const id of [999999, theirs.id]) {
      const res = await w.api.post('/v1/account-tasks', { client_account_id: id });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({
        error: 'client_account_id not found in this workspace',
        field: 'client_account_id',
      });
    }
    const c = await w.api.post('/v1/account-tasks', { client_account_id: ca.id, contact_id: await contact(t, other) });
    expect(c.body).toMatchObject({ error: 'Contact not found', field: 'contact_id' });
    const u = await w.api.post('/v1/account-tasks', { client_account_id: ca.id, assigned_to_user_id: other.ownerId });
    expect(u.body.error).toBe('assigned_to_user_id does not match a user in this workspace');
    const ro = t.as(await t.key(w.firmId, w.ownerId, ['read_jobs']));
    expect((await ro.post('/v1/account-tasks', { client_account_id: ca.id })).status).toBe(403);
  });
});

describe('GET /v1/account-tasks', () => {
  it('open by default, soonest due first; customer, status and assignee filters; other workspace 404', async () => {
    const w = await t.workspace();
    const rep = await t.user(w.firmId, { role: 'member' });
    const a = await account(w, 'A Co');
    const b = await account(w, 'B Co');
    const mk = async (body: BodyOf<'/v1/account-tasks', 'post'>) =>
      (await w.api.post('/v1/account-tasks', body)).body.data.id as number;
    const undated = await mk({ client_account_id: a.id });
    const late = await mk({ client_account_id: a.id, due_date: '2026-09-01' });
    const soon = await mk({ client_account_id: b.id, due_date: '2026-08-01', assigned_to_user_id: rep.id });
    const done = await mk({ client_account_id: b.id, due_date: '2026-07-01' });
    await w.api.patch(`/v1/account-tasks/${done}`, { status: 'done' });
    const ids = async (q: string) => (await w.api.get(`/v1/account-tasks${q}`)).body.data.map((x: any) => x.id);
    expect(await ids('')).toEqual([soon, late, undated]);
    expect(await ids('?status=all')).toEqual([done, soon, late, undated]);
    expect(await ids('?status=done')).toEqual([done]);
    expect(await ids(`?client_account_id=${a.id}`)).toEqual([late, undated]);
    expect(await ids(`?assigned_to_user_id=${rep.id}`)).toEqual([soon]);
    expect((await w.api.get('/v1/account-tasks?limit=2')).body.pagination).toEqual({ total: 3, limit: 2, offset: 0 });
    const other = await t.workspace();
    expect((await other.api.get(`/v1/account-tasks/${soon}`)).body.error).toBe('Account task not found');
    expect((await other.api.patch(`/v1/account-tasks/${soon}`, { title: 'x' })).status).toBe(404);
    expect((await other.api.get('/v1/account-tasks?status=all')).body.pagination.total).toBe(0);
  });
});

describe('PATCH and DELETE /v1/account-tasks/{id}', () => {
  it('done closes a one-off; a repeating one records completed_at and moves to its next round, still open', async () => {
    const w = await t.workspace({ timezone: 'America/Chicago' });
    const ca = await account(w);
    const once = (await w.api.post('/v1/account-tasks', { client_account_id: ca.id, due_date: '2026-01-10' })).body
      .data;
    const closed = await w.api.patch(`/v1/account-tasks/${once.id}`, { status: 'done' });
    expect(closed.body.data).toMatchObject({ status: 'done', completed_at: expect.any(String) });
    const year = new Date().getUTCFullYear() + 1;
    const yearly = (
      await w.api.post('/v1/account-tasks', {
        client_account_id: ca.id,
        due_date: `${year}-03-15`,
        due_time: '10:30',
        repeat: 'yearly',
      })
    ).body.data;
    const next = await w.api.patch(`/v1/account-tasks/${yearly.id}`, { status: 'done' });
    expect(next.body.data).toMatchObject({
      status: 'open',
      due_date: `${year + 1}-03-15`,
      due_time: '10:30',
      completed_at: expect.any(String),
    });
    const monthly = (
      await w.api.post('/v1/account-tasks', { client_account_id: ca.id, due_date: `${year}-01-31`, repeat: 'monthly' })
    ).body.data;
    const feb = await w.api.patch(`/v1/account-tasks/${monthly.id}`, { status: 'done' });
    expect(feb.body.data.due_date).toBe(`${year}-02-${new Date(Date.UTC(year, 2, 0)).getUTCDate()}`);
    // an overdue weekly one lands on its first round in the future
    const weekly = (
      await w.api.post('/v1/account-tasks', { client_account_id: ca.id, due_date: '2020-01-06', repeat: 'weekly' })
    ).body.data;
    const caught = await w.api.patch(`/v1/account-tasks/${weekly.id}`, { status: 'done' });
    expect(Date.parse(caught.body.data.due_at!)).toBeGreaterThan(Date.now());
    expect(new Date(caught.body.data.due_date + 'T00:00:00Z').getUTCDay()).toBe(1);
  });

  it('changes repeat, email_me, title and due; reopens; blank title is 400; DELETE needs delete_records', async () => {
    const w = await t.workspace();
    const ca = await account(w);
    const task = (await w.api.post('/v1/account-tasks', { client_account_id: ca.id })).body.data;
    expect((await w.api.patch(`/v1/account-tasks/${task.id}`, { repeat: 'weekly' })).body.field).toBe('due_date');
    const res = await w.api.patch(`/v1/account-tasks/${task.id}`, {
      repeat: 'weekly',
      email_me: 'that_day',
      due_date: '2027-02-01',
      title: 'Weekly check',
    });
    expect(res.body.data).toMatchObject({
      repeat: 'weekly',
      email_me: 'that_day',
      due_date: '2027-02-01',
      due_time: '09:00',
      title: 'Weekly check',
    });
    expect((await w.api.patch(`/v1/account-tasks/${task.id}`, { title: ' ' })).status).toBe(400);
    await w.api.patch(`/v1/account-tasks/${task.id}`, { repeat: 'none' });
    await w.api.patch(`/v1/account-tasks/${task.id}`, { status: 'done' });
    expect((await w.api.patch(`/v1/account-tasks/${task.id}`, { status: 'open' })).body.data).toMatchObject({
      status: 'open',
      completed_at: null,
    });
    const noDelete = t.as(await t.key(w.firmId, w.ownerId, ['read_jobs', 'write_jobs']));
    expect((await noDelete.delete(`/v1/account-tasks/${task.id}`)).status).toBe(403);
    expect((await w.api.delete(`/v1/account-tasks/${task.id}`)).status).toBe(204);
    expect((await w.api.get(`/v1/account-tasks/${task.id}`)).status).toBe(404);
  });
});
