// Reminders: /v1/reminders (document 2, the Reminder resource and state table, the reminder rows of
// "Re-bids, reminders, follow-ups" and their errors). The app's clock is a ManualClock, so snoozes
// land on exact instants; the worker side (coming due, emails) is in due.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#platform/clock.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { account, contact, job, ok, Z_SECONDS } from '#test/helpers/records.ts';

const NY = 'America/New_York';
// Friday 6 March 2026, 10:00 AM in New York (EST, UTC-5).
const START = Date.UTC(2026, 2, 6, 15, 0, 0);

let t: TestApp;
let clock: ManualClock;
beforeAll(async () => {
  clock = new ManualClock(START);
  t = await startApp({ clock });
});
afterAll(() => t.close());

const nyWorkspace = () => t.workspace({ timezone: NY });

async function reminder(w: Workspace, body: Record<string, unknown> = {}) {
  return (await ok(w.api.post('/v1/reminders', { title: 'Check in', due: '2026-04-01', ...body }))).data;
}

const FIELDS = [
  'assigned_to',
  'assigned_to_user_id',
  'client_account_id',
  'contact_id',
  'created_at',
  'description',
  'due_at',
  'id',
  'job_id',
  'last_emailed_at',
  'lead_id',
  'reminder_type',
  'repeat_every_days',
  'status',
  'title',
];

describe('POST /v1/reminders', () => {
  it('needs a title and a due: pending follow_up, 9:00 AM local for a bare date, assigned to the key user', async () => {
    const w = await nyWorkspace();
    const res = await w.api.post('/v1/reminders', { title: 'Call about spring work', due: '2026-04-01' });
    expect(res.status).toBe(201);
    const r = res.body.data;
    expect(Object.keys(r).sort()).toEqual(FIELDS);
    expect(r).toMatchObject({
      id: expect.any(Number),
      title: 'Call about spring work',
      description: '',
      reminder_type: 'follow_up',
      status: 'pending',
      client_account_id: null,
      contact_id: null,
      job_id: null,
      lead_id: null,
      repeat_every_days: null,
      due_at: '2026-04-01T13:00:00Z', // 9:00 EDT
      last_emailed_at: null,
      assigned_to_user_id: w.ownerId,
      assigned_to: { id: w.ownerId, name: expect.any(String) },
    });
    expect(r.created_at).toMatch(Z_SECONDS);
    expect((await w.api.get(`/v1/reminders/${r.id}`)).body.data).toEqual(r);
  });

  it('reads a local date and time in the timezone sent, or the workspace one', async () => {
    const w = await nyWorkspace();
    expect((await reminder(w, { due: '2026-03-20T14:30' })).due_at).toBe('2026-03-20T18:30:00Z');
    expect((await reminder(w, { due: '2026-03-20T14:30', timezone: 'America/Denver' })).due_at).toBe(
      '2026-03-20T20:30:00Z',
    );
    expect((await reminder(w, { due: '2026-01-15', timezone: 'UTC' })).due_at).toBe('2026-01-15T09:00:00Z');
  });

  it('takes the renewal and maintenance kinds with their customer, from the job or the person when not sent', async () => {
    const w = await nyWorkspace();
    const ca = await account(w, 'Acme Paving');
    const j = await job(w, { client_account_id: ca.id });
    const renewal = await reminder(w, {
      title: 'Sealcoat contract renews',
      description: 'Two-year contract; ask about the north lot',
      reminder_type: 'contract_renewal',
      job_id: j.id,
    });
    expect(renewal).toMatchObject({
      reminder_type: 'contract_renewal',
      job_id: j.id,
      client_account_id: ca.id,
      description: 'Two-year contract; ask about the north lot',
    });
    const person = await contact(t, w, 'Pat Jones', ca.id);
    const checkin = await reminder(w, { reminder_type: 'maintenance_checkin', contact_id: person });
    expect(checkin).toMatchObject({ contact_id: person, client_account_id: ca.id });
    const other = await account(w, 'Other Co');
    expect((await reminder(w, { client_account_id: other.id, job_id: j.id })).client_account_id).toBe(other.id);
    // A renewal or check-in is about a customer.
    const bare = await w.api.post('/v1/reminders', {
      title: 'x',
      due: '2026-04-01',
      reminder_type: 'contract_renewal',
    });
    expect(bare.status).toBe(400);
    expect(bare.body.field).toBe('client_account_id');
    const loose = await contact(t, w, 'No Company');
    const noCompany = await w.api.post('/v1/reminders', {
      title: 'x',
      due: '2026-04-01',
      reminder_type: 'maintenance_checkin',
      contact_id: loose,
    });
    expect(noCompany.status).toBe(400);
    // A plain follow-up needs no customer.
    expect((await reminder(w, { contact_id: loose })).client_account_id).toBeNull();
  });

  it('stores lead_id as given (leads are not checked)', async () => {
    const w = await nyWorkspace();
    expect((await reminder(w, { lead_id: 424242 })).lead_id).toBe(424242);
  });

  it('repeats: day, week and month (a month counts 30 days in repeat_every_days); 0 is one-off', async () => {
    const w = await nyWorkspace();
    expect((await reminder(w, { repeat_every: 3, repeat_unit: 'day' })).repeat_every_days).toBe(3);
    expect((await reminder(w, { repeat_every: 2, repeat_unit: 'week' })).repeat_every_days).toBe(14);
    expect((await reminder(w, { repeat_every: 1, repeat_unit: 'month' })).repeat_every_days).toBe(30);
    expect((await reminder(w, { repeat_every: 0 })).repeat_every_days).toBeNull();
  });

  it('assigns to a teammate', async () => {
    const w = await nyWorkspace();
    const mate = await t.user(w.firmId, { name: 'Dana Field' });
    expect((await reminder(w, { assigned_to_user_id: mate.id })).assigned_to).toEqual({
      id: mate.id,
      name: 'Dana Field',
    });
  });

  it('answers 400 naming the field, and 404 for records outside the workspace', async () => {
    const w = await nyWorkspace();
    const other = await nyWorkspace();
    const theirs = await account(other, 'Theirs');
    const theirJob = await job(other);
    const cases: [Record<string, unknown>, string][] = [
      [{ due: '2026-04-01' }, 'title'],
      [{ title: 'x' }, 'due'],
      [{ title: '   ', due: '2026-04-01' }, 'title'],
      [{ title: 'x', due: '2026-02-30' }, 'due'],
      [{ title: 'x', due: '04/01/2026' }, 'due'],
      [{ title: 'x', due: '2026-04-01T25:00' }, 'due'],
      [{ title: 'x', due: '2026-04-01T09:00:00Z' }, 'due'],
      [{ title: 'x', due: '2026-04-01', timezone: 'Mars/Olympus' }, 'timezone'],
      [{ title: 'x', due: '2026-04-01', reminder_type: 'birthday' }, 'reminder_type'],
      [{ title: 'x', due: '2026-04-01', repeat_every: 2 }, 'repeat_unit'],
      [{ title: 'x', due: '2026-04-01', repeat_unit: 'week' }, 'repeat_every'],
      [{ title: 'x', due: '2026-04-01', repeat_every: 2, repeat_unit: 'year' }, 'repeat_unit'],
      [{ title: 'x', due: '2026-04-01', repeat_every: -1, repeat_unit: 'day' }, 'repeat_every'],
    ];
    for (const [body, field] of cases) {
      const res = await w.api.raw.post('/v1/reminders', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field, JSON.stringify(body)).toBe(field);
    }
    const unknown = await w.api.raw.post('/v1/reminders', { title: 'x', due: '2026-04-01', status: 'sent' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: 'Unknown fields: status', code: 'unknown_fields', fields: ['status'] });
    const ca = await w.api.post('/v1/reminders', { title: 'x', due: '2026-04-01', client_account_id: theirs.id });
    expect(ca.status).toBe(404);
    expect(ca.body).toMatchObject({
      error: 'client_account_id not found in this workspace',
      field: 'client_account_id',
    });
    const j = await w.api.post('/v1/reminders', { title: 'x', due: '2026-04-01', job_id: theirJob.id });
    expect(j.status).toBe(404);
    expect(j.body).toMatchObject({ error: 'Job not found', field: 'job_id' });
    const c = await w.api.post('/v1/reminders', { title: 'x', due: '2026-04-01', contact_id: 99999999 });
    expect(c.body).toMatchObject({ error: 'Contact not found', field: 'contact_id' });
    const u = await w.api.post('/v1/reminders', { title: 'x', due: '2026-04-01', assigned_to_user_id: other.ownerId });
    expect(u.status).toBe(404);
    expect(u.body.error).toBe('assigned_to_user_id does not match a user in this workspace');
  });
});

describe('GET /v1/reminders', () => {
  it('lists open reminders (pending or sent) soonest due first, with every filter', async () => {
    const w = await nyWorkspace();
    const ca = await account(w, 'Acme');
    const person = await contact(t, w, 'Pat', ca.id);
    const j = await job(w);
    const mate = await t.user(w.firmId, {});
    const late = await reminder(w, { due: '2026-06-01', reminder_type: 'contract_renewal', client_account_id: ca.id });
    const soon = await reminder(w, { due: '2026-04-01', contact_id: person });
    const mid = await reminder(w, { due: '2026-05-01', job_id: j.id, assigned_to_user_id: mate.id });
    const done = await reminder(w, { due: '2026-03-20' });
    await ok(w.api.post(`/v1/reminders/${done.id}/complete`, {}));
    const dismissed = await reminder(w, { due: '2026-03-21' });
    await ok(w.api.post(`/v1/reminders/${dismissed.id}/dismiss`, {}));
    await t.database.db.updateTable('reminders').set({ status: 'sent' }).where('id', '=', mid.id).execute();

    const ids = async (q: string) => {
      const res = await w.api.get(`/v1/reminders${q}`);
      expect(res.status, q).toBe(200);
      return res.body.data.map((r: any) => r.id);
    };
    expect(await ids('')).toEqual([soon.id, mid.id, late.id]);
    expect((await w.api.get('/v1/reminders')).body.pagination).toEqual({
      total: 3,
      limit: expect.any(Number),
      offset: 0,
    });
    expect(await ids('?status=open')).toEqual([soon.id, mid.id, late.id]);
    expect(await ids('?status=pending')).toEqual([soon.id, late.id]);
    expect(await ids('?status=sent')).toEqual([mid.id]);
    expect(await ids('?status=done')).toEqual([done.id]);
    expect(await ids('?status=dismissed')).toEqual([dismissed.id]);
    expect(await ids('?status=all')).toEqual([done.id, dismissed.id, soon.id, mid.id, late.id]);
    expect(await ids('?reminder_type=contract_renewal')).toEqual([late.id]);
    expect(await ids(`?client_account_id=${ca.id}`)).toEqual([soon.id, late.id]);
    expect(await ids(`?contact_id=${person}`)).toEqual([soon.id]);
    expect(await ids(`?job_id=${j.id}`)).toEqual([mid.id]);
    expect(await ids(`?assigned_to_user_id=${mate.id}`)).toEqual([mid.id]);
    expect(await ids('?due_before=2026-05-01T13:00:00Z')).toEqual([soon.id]);
    expect(await ids('?due_after=2026-04-01T13:00:00Z')).toEqual([mid.id, late.id]);
    expect(await ids('?due_after=2026-04-01T00:00:00Z&due_before=2026-05-15')).toEqual([soon.id, mid.id]);
    expect(await ids('?limit=1&offset=1')).toEqual([mid.id]);
    const bad = await w.api.get('/v1/reminders?due_before=soon');
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('due_before');
    expect((await w.api.get('/v1/reminders?status=late')).status).toBe(400);
  });

  it('a member who sees only their own jobs sees no reminder on a job of someone else (404 on read)', async () => {
    const w = await nyWorkspace();
    const own = await t.user(w.firmId, { role: 'member', sees_own_jobs_only: true });
    const theirs = await job(w);
    const mine = await job(w, { assigned_to_user_id: own.id });
    const onTheirs = await reminder(w, { job_id: theirs.id });
    const onMine = await reminder(w, { job_id: mine.id });
    const loose = await reminder(w, {});
    const seen = (await own.api.get('/v1/reminders')).body.data.map((r: any) => r.id);
    expect(seen.sort()).toEqual([onMine.id, loose.id].sort());
    expect((await own.api.get(`/v1/reminders/${onTheirs.id}`)).body.error).toBe('Reminder not found');
    expect((await own.api.patch(`/v1/reminders/${onTheirs.id}`, { title: 'x' })).status).toBe(404);
    expect((await own.api.post(`/v1/reminders/${onTheirs.id}/complete`, {})).status).toBe(404);
    expect((await own.api.post(`/v1/reminders/${onTheirs.id}/dismiss`, {})).status).toBe(404);
    expect((await own.api.post('/v1/reminders', { title: 'x', due: '2026-04-01', job_id: theirs.id })).status).toBe(
      404,
    );
  });

  it('GET /v1/reminders/{id} is 404 for another workspace or no reminder', async () => {
    const w = await nyWorkspace();
    const other = await nyWorkspace();
    const r = await reminder(other);
    expect((await w.api.get(`/v1/reminders/${r.id}`)).status).toBe(404);
    expect((await w.api.get('/v1/reminders/99999999')).body).toMatchObject({ error: 'Reminder not found' });
  });
});

describe('PATCH /v1/reminders/{id}', () => {
  it('changes title and description; due is local, a bare date meaning 9:00 AM, in the timezone sent', async () => {
    const w = await nyWorkspace();
    const r = await reminder(w);
    const res = await w.api.patch(`/v1/reminders/${r.id}`, { title: 'Renewal call', description: 'Bring prices' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ title: 'Renewal call', description: 'Bring prices', due_at: r.due_at });
    expect((await ok(w.api.patch(`/v1/reminders/${r.id}`, { due: '2026-07-04' }))).data.due_at).toBe(
      '2026-07-04T13:00:00Z',
    );
    expect((await ok(w.api.patch(`/v1/reminders/${r.id}`, { due: '2026-07-04T16:45' }))).data.due_at).toBe(
      '2026-07-04T20:45:00Z',
    );
    expect(
      (await ok(w.api.patch(`/v1/reminders/${r.id}`, { due: '2026-07-04', timezone: 'America/Los_Angeles' }))).data
        .due_at,
    ).toBe('2026-07-04T16:00:00Z');
  });

  it('snoozes from now: 1h, tomorrow at 8 AM local, next Monday at 8 AM local', async () => {
    const w = await nyWorkspace();
    const r = await reminder(w);
    const at = (snooze: string, extra = {}) =>
      ok(w.api.raw.patch(`/v1/reminders/${r.id}`, { snooze, ...extra })).then((b) => b.data.due_at);
    // Now: Friday 6 March 2026, 10:00 EST.
    expect(await at('1h')).toBe('2026-03-06T16:00:00Z');
    expect(await at('tomorrow')).toBe('2026-03-07T13:00:00Z');
    expect(await at('next_week')).toBe('2026-03-09T12:00:00Z'); // Monday 8:00, now EDT
    expect(await at('tomorrow', { timezone: 'Europe/London' })).toBe('2026-03-07T08:00:00Z');
  });

  it('sets, changes and stops repeating; reassigns', async () => {
    const w = await nyWorkspace();
    const mate = await t.user(w.firmId, { name: 'Sam Office' });
    const r = await reminder(w);
    const patch = (body: Record<string, unknown>) => ok(w.api.patch(`/v1/reminders/${r.id}`, body)).then((b) => b.data);
    expect((await patch({ repeat_every: 2, repeat_unit: 'week' })).repeat_every_days).toBe(14);
    expect((await patch({ repeat_every: 3 })).repeat_every_days).toBe(21);
    expect((await patch({ repeat_unit: 'day' })).repeat_every_days).toBe(3);
    expect((await patch({ repeat_every: 0 })).repeat_every_days).toBeNull();
    const reassigned = await patch({ assigned_to_user_id: mate.id });
    expect(reassigned).toMatchObject({
      assigned_to_user_id: mate.id,
      assigned_to: { id: mate.id, name: 'Sam Office' },
    });
  });

  it('a new due time puts a sent reminder back to pending', async () => {
    const w = await nyWorkspace();
    const r = await reminder(w);
    await t.database.db.updateTable('reminders').set({ status: 'sent' }).where('id', '=', r.id).execute();
    expect((await ok(w.api.patch(`/v1/reminders/${r.id}`, { title: 'Still sent' }))).data.status).toBe('sent');
    expect((await ok(w.api.patch(`/v1/reminders/${r.id}`, { snooze: 'tomorrow' }))).data.status).toBe('pending');
  });

  it('answers 400 naming the field, 404 for another workspace and 409 moving a finished reminder', async () => {
    const w = await nyWorkspace();
    const other = await nyWorkspace();
    const r = await reminder(w);
    const cases: [Record<string, unknown>, string][] = [
      [{ due: '2026-04-01', snooze: '1h' }, 'snooze'],
      [{ snooze: '2h' }, 'snooze'],
      [{ due: 'tomorrow' }, 'due'],
      [{ timezone: 'Nowhere/Land' }, 'timezone'],
      [{ title: '' }, 'title'],
      [{ repeat_every: 2 }, 'repeat_unit'],
      [{ repeat_unit: 'month' }, 'repeat_every'],
    ];
    for (const [body, field] of cases) {
      const res = await w.api.patch(`/v1/reminders/${r.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field, JSON.stringify(body)).toBe(field);
    }
    const unknown = await w.api.raw.patch(`/v1/reminders/${r.id}`, { status: 'done', reminder_type: 'follow_up' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fields).toEqual(['status', 'reminder_type']);
    expect((await w.api.patch(`/v1/reminders/${r.id}`, { assigned_to_user_id: other.ownerId })).status).toBe(404);
    const theirs = await reminder(other);
    expect((await w.api.patch(`/v1/reminders/${theirs.id}`, { title: 'x' })).body.error).toBe('Reminder not found');
    await ok(w.api.post(`/v1/reminders/${r.id}/complete`, {}));
    const moved = await w.api.patch(`/v1/reminders/${r.id}`, { snooze: '1h' });
    expect(moved.status).toBe(409);
    expect(moved.body.error).toBe('reminder already done or dismissed');
    // Words can still change on a finished reminder.
    expect((await w.api.patch(`/v1/reminders/${r.id}`, { title: 'Done and renamed' })).status).toBe(200);
  });
});

describe('POST /v1/reminders/{id}/complete and /dismiss', () => {
  it('completes a one-off reminder; completing again, or a dismissed one, is 409', async () => {
    const w = await nyWorkspace();
    const r = await reminder(w);
    const res = await w.api.post(`/v1/reminders/${r.id}/complete`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: r.id, status: 'done', due_at: r.due_at });
    const again = await w.api.post(`/v1/reminders/${r.id}/complete`, {});
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('reminder already done or dismissed');
    const d = await reminder(w);
    await ok(w.api.post(`/v1/reminders/${d.id}/dismiss`));
    expect((await w.api.post(`/v1/reminders/${d.id}/complete`, {})).status).toBe(409);
  });

  it('a repeating reminder rolls to its next round after now and stays open', async () => {
    const w = await nyWorkspace();
    // Due two weeks ago, every week: the next round is the first one after now (Fri 6 March 10:00).
    const r = await reminder(w, { due: '2026-02-20T09:00', repeat_every: 1, repeat_unit: 'week' });
    await t.database.db.updateTable('reminders').set({ status: 'sent' }).where('id', '=', r.id).execute();
    const done = (await ok(w.api.post(`/v1/reminders/${r.id}/complete`, {}))).data;
    expect(done).toMatchObject({ status: 'pending', due_at: '2026-03-13T13:00:00Z', repeat_every_days: 7 });
    const monthly = await reminder(w, { due: '2026-01-31T09:00', repeat_every: 1, repeat_unit: 'month' });
    // 31 January -> 28 February (already past) -> 31 March: the day of month is kept.
    expect((await ok(w.api.post(`/v1/reminders/${monthly.id}/complete`, {}))).data.due_at).toBe('2026-03-31T13:00:00Z');
  });

  it('logs notes on the linked job, else the person, else the customer; nowhere to log them is 400', async () => {
    const w = await nyWorkspace();
    const ca = await account(w, 'Acme');
    const person = await contact(t, w, 'Pat', ca.id);
    const j = await job(w, { client_account_id: ca.id });
    const onJob = await reminder(w, { job_id: j.id, contact_id: person, title: 'Renewal' });
    await ok(w.api.post(`/v1/reminders/${onJob.id}/complete`, { notes: 'Renewed for two years' }));
    const jobNotes = (await ok(w.api.get(`/v1/jobs/${j.id}/notes`))).data;
    expect(jobNotes.map((n: any) => n.content)).toEqual(['Reminder "Renewal" done: Renewed for two years']);
    const onPerson = await reminder(w, { contact_id: person, title: 'Check in' });
    await ok(w.api.post(`/v1/reminders/${onPerson.id}/complete`, { notes: 'Left a voicemail' }));
    expect((await ok(w.api.get(`/v1/contacts/${person}/notes`))).data.map((n: any) => n.content)).toEqual([
      'Reminder "Check in" done: Left a voicemail',
    ]);
    const onCustomer = await reminder(w, { client_account_id: ca.id, title: 'Walk the lot' });
    await ok(w.api.post(`/v1/reminders/${onCustomer.id}/complete`, { notes: 'Cracks on the east side' }));
    expect((await ok(w.api.get(`/v1/client-accounts/${ca.id}/notes`))).data.map((n: any) => n.content)).toEqual([
      'Reminder "Walk the lot" done: Cracks on the east side',
    ]);
    const loose = await reminder(w, { lead_id: 7 });
    const res = await w.api.post(`/v1/reminders/${loose.id}/complete`, { notes: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('notes');
    // Nothing was saved: still pending.
    expect((await ok(w.api.get(`/v1/reminders/${loose.id}`))).data.status).toBe('pending');
    const unknown = await w.api.raw.post(`/v1/reminders/${loose.id}/complete`, { note: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fields).toEqual(['note']);
  });

  it('dismisses an open reminder; dismissing again answers it, a done one is 409; unknown fields are 400', async () => {
    const w = await nyWorkspace();
    const r = await reminder(w);
    const res = await w.api.post(`/v1/reminders/${r.id}/dismiss`);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('dismissed');
    expect((await ok(w.api.post(`/v1/reminders/${r.id}/dismiss`, {}))).data.status).toBe('dismissed');
    const done = await reminder(w);
    await ok(w.api.post(`/v1/reminders/${done.id}/complete`, {}));
    const refused = await w.api.post(`/v1/reminders/${done.id}/dismiss`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('reminder already done or dismissed');
    const bad = await w.api.raw.post(`/v1/reminders/${r.id}/dismiss`, { reason: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual(['reason']);
    expect((await w.api.post('/v1/reminders/99999999/dismiss', {})).status).toBe(404);
    expect((await w.api.post('/v1/reminders/99999999/complete', {})).status).toBe(404);
  });
});

describe('reminders follow their records', () => {
  it('merges of jobs, customers and people move reminders to the kept record', async () => {
    const w = await nyWorkspace();
    const keptCa = await account(w, 'Kept Co');
    const awayCa = await account(w, 'Away Co');
    const keptJob = await job(w);
    const awayJob = await job(w);
    const keptPerson = await contact(t, w, 'Kept Person');
    const awayPerson = await contact(t, w, 'Away Person');
    const r = await reminder(w, { client_account_id: awayCa.id, job_id: awayJob.id, contact_id: awayPerson });
    const preview = (await ok(w.api.get(`/v1/client-accounts/${awayCa.id}/merge-preview?into=${keptCa.id}`))).data;
    expect(preview.moves).toContainEqual({ count: 1, label: 'reminders' });
    await ok(w.api.post(`/v1/client-accounts/${awayCa.id}/merge`, { into_client_account_id: keptCa.id }));
    await ok(w.api.post(`/v1/jobs/${awayJob.id}/merge`, { into_job_id: keptJob.id }));
    await ok(w.api.post(`/v1/contacts/${awayPerson}/merge`, { into_contact_id: keptPerson }));
    expect((await ok(w.api.get(`/v1/reminders/${r.id}`))).data).toMatchObject({
      client_account_id: keptCa.id,
      job_id: keptJob.id,
      contact_id: keptPerson,
    });
  });

  it('a deleted job or person leaves the reminder without that link', async () => {
    const w = await nyWorkspace();
    const j = await job(w);
    const person = await contact(t, w, 'Gone Soon');
    const r = await reminder(w, { job_id: j.id, contact_id: person });
    expect((await w.api.delete(`/v1/jobs/${j.id}`)).status).toBe(204);
    expect((await w.api.delete(`/v1/contacts/${person}?hard=true`)).status).toBe(204);
    expect((await ok(w.api.get(`/v1/reminders/${r.id}`))).data).toMatchObject({ job_id: null, contact_id: null });
  });
});
