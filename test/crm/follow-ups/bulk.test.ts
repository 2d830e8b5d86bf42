// POST /v1/follow-ups/bulk (document 2): done, snooze or reassign over exactly one of task_ids,
// account_task_ids or reminder_ids; rows the user may not act on or already finished are skipped;
// an id outside the workspace is 404 listing them; reassigning needs an office teammate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#platform/clock.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { account, job, logOf, ok } from '#test/helpers/records.ts';
import type { BodyOf } from '#test/helpers/api-types.ts';

// Wednesday 4 March 2026, 15:00 UTC (10:00 AM in Chicago, CST).
let t: TestApp;
beforeAll(async () => {
  t = await startApp({ clock: new ManualClock(Date.parse('2026-03-04T15:00:00Z')) });
});
afterAll(() => t.close());

const CHICAGO = 'America/Chicago';
const bulk = (w: { api: Workspace['api'] }, body: BodyOf<'/v1/follow-ups/bulk', 'post'>) =>
  w.api.post('/v1/follow-ups/bulk', body);

async function setup() {
  const w = await t.workspace({ timezone: CHICAGO });
  const ca = await account(w, 'Acme');
  const j = await job(w, { client_account_id: ca.id });
  const task = async (title = 'Call about the gate', body: Record<string, unknown> = {}) =>
    (await ok(w.api.post('/v1/tasks', { job_id: j.id, title, due_date: '2026-03-10', ...body }))).data;
  const accountTask = async (body: Record<string, unknown> = {}) =>
    (await ok(w.api.post('/v1/account-tasks', { client_account_id: ca.id, due_date: '2026-03-10', ...body }))).data;
  const reminder = async (body: Record<string, unknown> = {}) =>
    (await ok(w.api.post('/v1/reminders', { title: 'Check in', due: '2026-03-10', ...body }))).data;
  return { w, ca, j, task, accountTask, reminder };
}

describe('action done', () => {
  it('completes job follow-ups (logged on the job) and skips finished ones', async () => {
    const { w, j, task } = await setup();
    const a = await task('First');
    const b = await task('Second');
    await ok(w.api.patch(`/v1/tasks/${b.id}`, { status: 'done' }));
    const res = await bulk(w, { action: 'done', task_ids: [a.id, b.id] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { action: 'done', changed: [a.id], skipped: [{ id: b.id, reason: 'finished' }] },
    });
    expect((await ok(w.api.get(`/v1/tasks/${a.id}`))).data).toMatchObject({
      status: 'done',
      completed_at: expect.any(String),
    });
    const log = await logOf(w, j.id);
    expect(log.filter((e) => e.kind === 'task_completed').map((e) => e.summary)).toEqual([
      'Follow-up "First" completed',
      'Follow-up "Second" completed',
    ]);
  });

  it('completes company follow-ups the way PATCH does: a repeating one moves to its next round', async () => {
    const { w, accountTask } = await setup();
    const once = await accountTask();
    const weekly = await accountTask({ repeat: 'weekly' });
    const res = (await ok(bulk(w, { action: 'done', account_task_ids: [once.id, weekly.id, once.id] }))).data;
    expect(res).toEqual({ action: 'done', changed: [once.id, weekly.id], skipped: [] });
    expect((await ok(w.api.get(`/v1/account-tasks/${once.id}`))).data.status).toBe('done');
    expect((await ok(w.api.get(`/v1/account-tasks/${weekly.id}`))).data).toMatchObject({
      status: 'open',
      due_date: '2026-03-17',
      completed_at: expect.any(String),
    });
    expect((await ok(bulk(w, { action: 'done', account_task_ids: [once.id] }))).data.skipped).toEqual([
      { id: once.id, reason: 'finished' },
    ]);
  });

  it('completes reminders: a repeating one rolls on and stays open; done or dismissed ones are skipped', async () => {
    const { w, reminder } = await setup();
    const once = await reminder();
    const daily = await reminder({ repeat_every: 1, repeat_unit: 'day' });
    const dismissed = await reminder();
    await ok(w.api.post(`/v1/reminders/${dismissed.id}/dismiss`, {}));
    const res = (await ok(bulk(w, { action: 'done', reminder_ids: [once.id, daily.id, dismissed.id] }))).data;
    expect(res).toEqual({
      action: 'done',
      changed: [once.id, daily.id],
      skipped: [{ id: dismissed.id, reason: 'finished' }],
    });
    expect((await ok(w.api.get(`/v1/reminders/${once.id}`))).data.status).toBe('done');
    expect((await ok(w.api.get(`/v1/reminders/${daily.id}`))).data).toMatchObject({
      status: 'pending',
      due_at: '2026-03-11T14:00:00Z', // 9:00 CDT
    });
  });

  it("skips what the user may not act on: a member who sees only their own jobs and another's job", async () => {
    const { w, task, reminder } = await setup();
    const own = await t.user(w.firmId, { role: 'member', sees_own_jobs_only: true });
    const mine = await job(w, { assigned_to_user_id: own.id });
    const theirs = await task('Not yours');
    const yours = (await ok(w.api.post('/v1/tasks', { job_id: mine.id, title: 'Yours' }))).data;
    const res = (await ok(bulk(own, { action: 'done', task_ids: [theirs.id, yours.id] }))).data;
    expect(res).toEqual({ action: 'done', changed: [yours.id], skipped: [{ id: theirs.id, reason: 'not_allowed' }] });
    expect((await ok(w.api.get(`/v1/tasks/${theirs.id}`))).data.status).toBe('open');
    const onTheirs = await reminder({ job_id: (await job(w)).id });
    expect((await ok(bulk(own, { action: 'snooze', snooze: '1h', reminder_ids: [onTheirs.id] }))).data.skipped).toEqual(
      [{ id: onTheirs.id, reason: 'not_allowed' }],
    );
  });
});

describe('action snooze', () => {
  it("moves each open row to the snooze time in the workspace's time zone", async () => {
    const { w, task, accountTask, reminder } = await setup();
    const a = await task();
    const b = await accountTask();
    const r = await reminder();
    await t.database.db.updateTable('reminders').set({ status: 'sent' }).where('id', '=', r.id).execute();
    // Now Wednesday 4 March, 9:00 CST: tomorrow is Thursday 8:00 CST, next week Monday 9 March 8:00 CDT.
    expect((await ok(bulk(w, { action: 'snooze', snooze: 'tomorrow', task_ids: [a.id] }))).data.changed).toEqual([
      a.id,
    ]);
    expect((await ok(w.api.get(`/v1/tasks/${a.id}`))).data).toMatchObject({
      due_at: '2026-03-05T14:00:00Z',
      due_time: '08:00',
    });
    await ok(bulk(w, { action: 'snooze', snooze: 'next_week', account_task_ids: [b.id] }));
    expect((await ok(w.api.get(`/v1/account-tasks/${b.id}`))).data).toMatchObject({
      due_at: '2026-03-09T13:00:00Z',
      due_date: '2026-03-09',
      due_time: '08:00',
    });
    await ok(bulk(w, { action: 'snooze', snooze: '1h', reminder_ids: [r.id] }));
    expect((await ok(w.api.get(`/v1/reminders/${r.id}`))).data).toMatchObject({
      due_at: '2026-03-04T16:00:00Z',
      status: 'pending',
    });
    await ok(w.api.patch(`/v1/tasks/${a.id}`, { status: 'done' }));
    expect((await ok(bulk(w, { action: 'snooze', snooze: '1h', task_ids: [a.id] }))).data.skipped).toEqual([
      { id: a.id, reason: 'finished' },
    ]);
  });
});

describe('action reassign', () => {
  it('hands rows to an office teammate; rows already theirs are unchanged', async () => {
    const { w, task, accountTask, reminder } = await setup();
    const mate = await t.user(w.firmId, { name: 'Dana Office' });
    const a = await task();
    const b = await accountTask();
    const r = await reminder({ assigned_to_user_id: mate.id });
    const r2 = await reminder();
    expect(
      (await ok(bulk(w, { action: 'reassign', assigned_to_user_id: mate.id, task_ids: [a.id] }))).data.changed,
    ).toEqual([a.id]);
    expect((await ok(w.api.get(`/v1/tasks/${a.id}`))).data.assigned_to).toEqual({ id: mate.id, name: 'Dana Office' });
    await ok(bulk(w, { action: 'reassign', assigned_to_user_id: mate.id, account_task_ids: [b.id] }));
    expect((await ok(w.api.get(`/v1/account-tasks/${b.id}`))).data.assigned_to_user_id).toBe(mate.id);
    const res = (await ok(bulk(w, { action: 'reassign', assigned_to_user_id: mate.id, reminder_ids: [r.id, r2.id] })))
      .data;
    expect(res).toEqual({ action: 'reassign', changed: [r2.id], skipped: [{ id: r.id, reason: 'unchanged' }] });
  });

  it('404s a crew login (user is not an office teammate) and a user outside the workspace', async () => {
    const { w, task } = await setup();
    const other = await t.workspace();
    const crew = await t.user(w.firmId, { role: 'crew' });
    const a = await task();
    const res = await bulk(w, { action: 'reassign', assigned_to_user_id: crew.id, task_ids: [a.id] });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'user is not an office teammate', field: 'assigned_to_user_id' });
    const outside = await bulk(w, { action: 'reassign', assigned_to_user_id: other.ownerId, task_ids: [a.id] });
    expect(outside.status).toBe(404);
    expect(outside.body.error).toBe('assigned_to_user_id does not match a user in this workspace');
    expect((await ok(w.api.get(`/v1/tasks/${a.id}`))).data.assigned_to_user_id).toBe(w.ownerId);
  });
});

describe('errors', () => {
  it('an id outside the workspace is 404 listing them, and nothing changes', async () => {
    const { w, task, reminder } = await setup();
    const other = await setup();
    const mine = await task();
    const theirs = await other.task();
    const res = await bulk(w, { action: 'done', task_ids: [mine.id, theirs.id, 99999999] });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      error: 'ids outside the workspace',
      field: 'task_ids',
      ids: [theirs.id, 99999999],
    });
    expect((await ok(w.api.get(`/v1/tasks/${mine.id}`))).data.status).toBe('open');
    const r = await other.reminder();
    const mineR = await reminder();
    const rr = await bulk(w, { action: 'snooze', snooze: '1h', reminder_ids: [mineR.id, r.id] });
    expect(rr.body).toMatchObject({ ids: [r.id], field: 'reminder_ids' });
    const at = await other.accountTask();
    expect((await bulk(w, { action: 'done', account_task_ids: [at.id] })).body).toMatchObject({
      error: 'ids outside the workspace',
      ids: [at.id],
    });
  });

  it('answers 400 naming the field for a malformed request', async () => {
    const { w, task } = await setup();
    const a = await task();
    const cases: [Record<string, unknown>, string][] = [
      [{ action: 'done' }, 'task_ids'],
      [{ action: 'done', task_ids: [a.id], reminder_ids: [1] }, 'reminder_ids'],
      [{ action: 'done', task_ids: [] }, 'task_ids'],
      [{ action: 'archive', task_ids: [a.id] }, 'action'],
      [{ task_ids: [a.id] }, 'action'],
      [{ action: 'snooze', task_ids: [a.id] }, 'snooze'],
      [{ action: 'snooze', snooze: 'later', task_ids: [a.id] }, 'snooze'],
      [{ action: 'done', snooze: '1h', task_ids: [a.id] }, 'snooze'],
      [{ action: 'reassign', task_ids: [a.id] }, 'assigned_to_user_id'],
      [{ action: 'done', assigned_to_user_id: w.ownerId, task_ids: [a.id] }, 'assigned_to_user_id'],
    ];
    for (const [body, field] of cases) {
      const res = await w.api.raw.post('/v1/follow-ups/bulk', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field, JSON.stringify(body)).toBe(field);
    }
    const unknown = await w.api.raw.post('/v1/follow-ups/bulk', { action: 'done', task_ids: [a.id], notes: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fields).toEqual(['notes']);
    const tooMany = await bulk(w, { action: 'done', task_ids: Array.from({ length: 201 }, (_, i) => i + 1) });
    expect(tooMany.status).toBe(400);
    expect((await ok(w.api.get(`/v1/tasks/${a.id}`))).data.status).toBe('open');
  });
});
