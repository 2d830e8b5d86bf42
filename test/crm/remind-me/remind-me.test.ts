// Remind-me on customers and people, and the birthday reminder (document 2, "Re-bids, reminders,
// follow-ups"): each makes a company follow-up (the /v1/account-tasks object). The clock is a
// ManualClock so the next birthday is a known day.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#platform/clock.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { account, contact, contactVia, ok } from '#test/helpers/records.ts';

const DENVER = 'America/Denver';
let t: TestApp;
let clock: ManualClock;
beforeAll(async () => {
  // Tuesday 10 March 2026, 18:00 UTC (noon in Denver, MDT).
  clock = new ManualClock(Date.parse('2026-03-10T18:00:00Z'));
  t = await startApp({ clock });
});
afterAll(() => t.close());

describe('POST /v1/client-accounts/{account_id}/remind-me', () => {
  it('needs only due_date: "Call <name>" at 9:00 local, a call, no repeat, no email, assigned to the key user', async () => {
    const w = await t.workspace({ timezone: DENVER });
    const ca = await account(w, 'Acme Paving');
    const res = await w.api.post(`/v1/client-accounts/${ca.id}/remind-me`, { due_date: '2026-04-02' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      id: expect.any(Number),
      client_account_id: ca.id,
      contact_id: null,
      title: 'Call Acme Paving',
      task_type: 'call',
      notes: null,
      due_at: '2026-04-02T15:00:00Z',
      due_date: '2026-04-02',
      due_time: '09:00',
      repeat: 'none',
      email_me: 'none',
      status: 'open',
      assigned_to_user_id: w.ownerId,
    });
    // It is a company follow-up like any other.
    expect((await ok(w.api.get(`/v1/account-tasks/${res.body.data.id}`))).data).toEqual(res.body.data);
  });

  it('takes due_time, title, repeat, email_me, task_type and note', async () => {
    const w = await t.workspace({ timezone: DENVER });
    const ca = await account(w, 'Acme Paving');
    const f = (
      await ok(
        w.api.post(`/v1/client-accounts/${ca.id}/remind-me`, {
          due_date: '2026-04-02',
          due_time: '14:15',
          title: 'Renewal chat',
          repeat: 'monthly',
          email_me: 'day_before',
          task_type: 'email',
          note: 'Mention the fall discount',
        }),
      )
    ).data;
    expect(f).toMatchObject({
      title: 'Renewal chat',
      due_at: '2026-04-02T20:15:00Z',
      due_time: '14:15',
      repeat: 'monthly',
      email_me: 'day_before',
      task_type: 'email',
      notes: 'Mention the fall discount',
    });
    const emailed = (
      await ok(w.api.post(`/v1/client-accounts/${ca.id}/remind-me`, { due_date: '2026-04-02', task_type: 'email' }))
    ).data;
    expect(emailed.title).toBe('Email Acme Paving');
    const followUp = (
      await ok(w.api.post(`/v1/client-accounts/${ca.id}/remind-me`, { due_date: '2026-04-02', task_type: 'follow_up' }))
    ).data;
    expect(followUp.title).toBe('Follow up with Acme Paving');
  });

  it('answers 400 naming the field and 404 for a customer outside the workspace', async () => {
    const w = await t.workspace({ timezone: DENVER });
    const other = await t.workspace();
    const ca = await account(w);
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'due_date'],
      [{ due_date: '2026-02-30' }, 'due_date'],
      [{ due_date: '2026-04-02', due_time: '9am' }, 'due_time'],
      [{ due_date: '2026-04-02', repeat: 'daily' }, 'repeat'],
      [{ due_date: '2026-04-02', email_me: 'hourly' }, 'email_me'],
      [{ due_date: '2026-04-02', task_type: 'meeting' }, 'task_type'],
      [{ due_date: '2026-04-02', title: ' ' }, 'title'],
    ];
    for (const [body, field] of cases) {
      const res = await w.api.raw.post(`/v1/client-accounts/${ca.id}/remind-me`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field, JSON.stringify(body)).toBe(field);
    }
    const unknown = await w.api.raw.post(`/v1/client-accounts/${ca.id}/remind-me`, {
      due_date: '2026-04-02',
      notes: 'x',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fields).toEqual(['notes']);
    const theirs = await account(other, 'Theirs');
    const res = await w.api.post(`/v1/client-accounts/${theirs.id}/remind-me`, { due_date: '2026-04-02' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Client account not found');
  });
});

describe('POST /v1/contacts/{contact_id}/remind-me', () => {
  it("goes on the person's company, titled with the person's name", async () => {
    const w = await t.workspace({ timezone: DENVER });
    const ca = await account(w, 'Acme Paving');
    const person = await contactVia(w, { name: 'Pat Jones', client_account_id: ca.id });
    const res = await w.api.post(`/v1/contacts/${person.id}/remind-me`, {
      due_date: '2026-04-02',
      email_me: 'that_day',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      client_account_id: ca.id,
      contact_id: person.id,
      title: 'Call Pat Jones',
      email_me: 'that_day',
    });
    const listed = (await ok(w.api.get(`/v1/account-tasks?client_account_id=${ca.id}`))).data;
    expect(listed.map((x: any) => x.id)).toEqual([res.body.data.id]);
  });

  it('is 422 company_required for a person with no company, and 404 for one outside the workspace', async () => {
    const w = await t.workspace({ timezone: DENVER });
    const other = await t.workspace();
    const loose = await contact(t, w, 'No Company');
    const res = await w.api.post(`/v1/contacts/${loose}/remind-me`, { due_date: '2026-04-02' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      error: 'Person has no company',
      code: 'company_required',
      missing_fields: ['client_account_id'],
    });
    const theirs = await contact(t, other, 'Theirs');
    const missing = await w.api.post(`/v1/contacts/${theirs}/remind-me`, { due_date: '2026-04-02' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Contact not found');
  });
});

describe('POST /v1/contacts/{contact_id}/birthday-reminder', () => {
  it('makes a yearly call on the next birthday at 9 AM the first time (201), answers it after (200)', async () => {
    const w = await t.workspace({ timezone: DENVER });
    const ca = await account(w, 'Acme Paving');
    const person = await contactVia(w, { name: 'Pat Jones', client_account_id: ca.id, birthday: '1980-06-15' });
    const first = await w.api.post(`/v1/contacts/${person.id}/birthday-reminder`);
    expect(first.status).toBe(201);
    expect(first.body.created).toBe(true);
    expect(first.body.data).toMatchObject({
      client_account_id: ca.id,
      contact_id: person.id,
      title: 'Call Pat Jones for their birthday',
      task_type: 'call',
      due_date: '2026-06-15',
      due_time: '09:00',
      due_at: '2026-06-15T15:00:00Z',
      repeat: 'yearly',
      email_me: 'that_day',
      status: 'open',
    });
    const again = await w.api.post(`/v1/contacts/${person.id}/birthday-reminder`, {});
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ created: false, data: first.body.data });
    // Completing it moves it to next year's birthday.
    const done = (await ok(w.api.patch(`/v1/account-tasks/${first.body.data.id}`, { status: 'done' }))).data;
    expect(done).toMatchObject({ status: 'open', due_date: '2027-06-15' });
  });

  it('a birthday already past this year is next year; today before 9 AM is today', async () => {
    const w = await t.workspace({ timezone: DENVER });
    const ca = await account(w);
    const past = await contactVia(w, { name: 'Early', client_account_id: ca.id, birthday: '1975-01-05' });
    expect((await ok(w.api.post(`/v1/contacts/${past.id}/birthday-reminder`))).data.due_date).toBe('2027-01-05');
    const today = await contactVia(w, { name: 'Today', client_account_id: ca.id, birthday: '1990-03-10' });
    // Noon in Denver: today's 9 AM has gone.
    expect((await ok(w.api.post(`/v1/contacts/${today.id}/birthday-reminder`))).data.due_date).toBe('2027-03-10');
    const tomorrow = await contactVia(w, { name: 'Tomorrow', client_account_id: ca.id, birthday: '1990-03-11' });
    expect((await ok(w.api.post(`/v1/contacts/${tomorrow.id}/birthday-reminder`))).data.due_date).toBe('2026-03-11');
  });

  it('a 29 February birthday falls on 28 February in a common year', async () => {
    const w = await t.workspace({ timezone: DENVER });
    const ca = await account(w);
    const leap = await contactVia(w, { name: 'Leap', client_account_id: ca.id, birthday: '1992-02-29' });
    // 2026 has gone past February; 2027 is a common year.
    expect((await ok(w.api.post(`/v1/contacts/${leap.id}/birthday-reminder`))).data.due_date).toBe('2027-02-28');
  });

  it('moves the open follow-up when the saved birthday changed', async () => {
    const w = await t.workspace({ timezone: DENVER });
    const ca = await account(w);
    const p = await contactVia(w, { name: 'Mover', client_account_id: ca.id, birthday: '1980-06-15' });
    const first = (await ok(w.api.post(`/v1/contacts/${p.id}/birthday-reminder`))).data;
    await ok(w.api.patch(`/v1/contacts/${p.id}`, { birthday: '1980-07-04' }));
    const again = await w.api.post(`/v1/contacts/${p.id}/birthday-reminder`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: false, data: { id: first.id, due_date: '2026-07-04' } });
  });

  it('after the follow-up is deleted, the next call makes a new one', async () => {
    const w = await t.workspace({ timezone: DENVER });
    const ca = await account(w);
    const p = await contactVia(w, { name: 'Again', client_account_id: ca.id, birthday: '1980-06-15' });
    const first = (await ok(w.api.post(`/v1/contacts/${p.id}/birthday-reminder`))).data;
    expect((await w.api.delete(`/v1/account-tasks/${first.id}`)).status).toBe(204);
    const again = await w.api.post(`/v1/contacts/${p.id}/birthday-reminder`);
    expect(again.status).toBe(201);
    expect(again.body.data.id).not.toBe(first.id);
  });

  it('is 422 without a saved birthday or without a company, 404 outside the workspace, 400 with a body field', async () => {
    const w = await t.workspace({ timezone: DENVER });
    const other = await t.workspace();
    const ca = await account(w);
    const noBirthday = await contactVia(w, { name: 'No Birthday', client_account_id: ca.id });
    const res = await w.api.post(`/v1/contacts/${noBirthday.id}/birthday-reminder`);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      error: 'Birthday not saved',
      code: 'missing_required_fields',
      missing_fields: ['birthday'],
    });
    const noCompany = await contactVia(w, { name: 'Loose', birthday: '1980-06-15' });
    const nc = await w.api.post(`/v1/contacts/${noCompany.id}/birthday-reminder`);
    expect(nc.status).toBe(422);
    expect(nc.body.code).toBe('company_required');
    const theirs = await contact(t, other, 'Theirs');
    expect((await w.api.post(`/v1/contacts/${theirs}/birthday-reminder`)).status).toBe(404);
    const bad = await w.api.raw.post(`/v1/contacts/${noBirthday.id}/birthday-reminder`, { birthday: '1980-06-15' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual(['birthday']);
  });

  it('a contact merge keeps one birthday follow-up on the kept person', async () => {
    const w = await t.workspace({ timezone: DENVER });
    const ca = await account(w);
    const kept = await contactVia(w, { name: 'Kept', client_account_id: ca.id, birthday: '1980-06-15' });
    const away = await contactVia(w, { name: 'Away', client_account_id: ca.id, birthday: '1980-06-15' });
    const awayTask = (await ok(w.api.post(`/v1/contacts/${away.id}/birthday-reminder`))).data;
    await ok(w.api.post(`/v1/contacts/${away.id}/merge`, { into_contact_id: kept.id }));
    const again = await w.api.post(`/v1/contacts/${kept.id}/birthday-reminder`);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id: awayTask.id, contact_id: kept.id });
  });
});
