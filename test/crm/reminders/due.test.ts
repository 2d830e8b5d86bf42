// Reminders and remind-me follow-ups coming due (document 2: "Reminders and remind-me follow-ups
// email the teammate when due, never the customer"; Reminder state table: pending -> sent, assignee
// emailed). The app's clock is a ManualClock the worker task and the API share, walked forward
// through New York's daylight-saving changes (8 March and 1 November 2026).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#platform/clock.ts';
import { listOutbox } from '#platform/mail/outbox.ts';
import { dueMailTask } from '#crm/reminders/due-mail.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { account, contactVia, ok } from '#test/helpers/records.ts';

const NY = 'America/New_York';

let t: TestApp;
let clock: ManualClock;
let w: Workspace;
let ownerEmail: string;
let ownerName: string;
let sweep: () => Promise<number>;

beforeAll(async () => {
  clock = new ManualClock(Date.parse('2026-03-06T15:00:00Z'));
  t = await startApp({ clock });
  w = await t.workspace({ timezone: NY, name: 'Northside Paving' });
  const owner = await t.database.db
    .selectFrom('users')
    .select(['email', 'name'])
    .where('id', '=', w.ownerId)
    .executeTakeFirstOrThrow();
  ownerEmail = owner.email;
  ownerName = owner.name;
  const task = dueMailTask(t.env);
  sweep = () => task.sweep();
});
afterAll(() => t.close());

/** Moves the shared clock forward to `iso` (never back). */
function moveTo(iso: string) {
  const target = Date.parse(iso);
  expect(target).toBeGreaterThanOrEqual(clock.now());
  clock.advance(target - clock.now());
}

const mailOf = (ref: string) =>
  t.database.db.selectFrom('outgoing_mail').selectAll().where('ref', '=', ref).orderBy('id').execute();

const reminderOf = async (id: number) => (await ok(w.api.get(`/v1/reminders/${id}`))).data;

async function reminder(body: Record<string, unknown>) {
  return (await ok(w.api.raw.post('/v1/reminders', { title: 'Check in', ...body }))).data;
}

describe('snooze and repeats across the spring daylight-saving change (8 March 2026)', () => {
  it('tomorrow and next_week land on 8:00 AM local wall time; 1h is one hour of real time', async () => {
    moveTo('2026-03-07T20:00:00Z'); // Saturday 3:00 PM EST
    const r = await reminder({ due: '2026-03-07T16:00' });
    const snooze = async (s: string) => (await ok(w.api.raw.patch(`/v1/reminders/${r.id}`, { snooze: s }))).data.due_at;
    expect(await snooze('tomorrow')).toBe('2026-03-08T12:00:00Z'); // Sunday 8:00 EDT, not 13:00Z (EST)
    expect(await snooze('next_week')).toBe('2026-03-09T12:00:00Z'); // Monday 8:00 EDT
    moveTo('2026-03-08T06:30:00Z'); // 1:30 AM EST, half an hour before the clocks jump
    expect(await snooze('1h')).toBe('2026-03-08T07:30:00Z'); // 3:30 AM EDT on the wall
    expect(await snooze('tomorrow')).toBe('2026-03-09T12:00:00Z');
  });

  it('a daily reminder completed the day before the change keeps 9:00 AM on the wall', async () => {
    const r = await reminder({ due: '2026-03-07T09:00', repeat_every: 1, repeat_unit: 'day' });
    expect(r.due_at).toBe('2026-03-07T14:00:00Z');
    // Now 8 March 1:30 AM EST: the next round is 8 March 9:00 AM, which is EDT.
    const next = (await ok(w.api.post(`/v1/reminders/${r.id}/complete`, {}))).data;
    expect(next).toMatchObject({ status: 'pending', due_at: '2026-03-08T13:00:00Z' });
  });

  it('a reminder snoozed to Sunday 8:00 AM EDT comes due then, not an hour later', async () => {
    const r = await reminder({ due: '2026-03-08T08:00', title: 'Sunday check' });
    expect(r.due_at).toBe('2026-03-08T12:00:00Z');
    moveTo('2026-03-08T11:59:00Z');
    await sweep();
    expect((await reminderOf(r.id)).status).toBe('pending');
    moveTo('2026-03-08T12:00:00Z');
    await sweep();
    expect(await reminderOf(r.id)).toMatchObject({ status: 'sent', last_emailed_at: '2026-03-08T12:00:00Z' });
    const [mail] = await mailOf(`reminder:${r.id}`);
    expect(mail!.text_body).toContain('due Sun, Mar 8, 2026 at 8:00 AM (America/New_York)');
  });
});

describe('a reminder coming due', () => {
  it('moves from pending to sent and emails the assignee once, never the customer', async () => {
    const ca = await account(w, 'Acme Lots', { email: 'billing@acme.test' });
    const person = await contactVia(w, { name: 'Pat Jones', email: 'pat@acme.test', client_account_id: ca.id });
    const r = await reminder({
      title: 'Sealcoat contract renews',
      description: 'Two-year contract; ask about the north lot.',
      reminder_type: 'contract_renewal',
      client_account_id: ca.id,
      contact_id: person.id,
      due: '2026-03-09T09:00',
      repeat_every: 1,
      repeat_unit: 'month',
    });
    expect(r.due_at).toBe('2026-03-09T13:00:00Z');
    moveTo('2026-03-09T12:59:59Z');
    await sweep();
    expect(await reminderOf(r.id)).toMatchObject({ status: 'pending', last_emailed_at: null });
    expect(await mailOf(`reminder:${r.id}`)).toEqual([]);

    moveTo('2026-03-09T13:00:00Z');
    expect(await sweep()).toBeGreaterThanOrEqual(1);
    expect(await reminderOf(r.id)).toMatchObject({ status: 'sent', last_emailed_at: '2026-03-09T13:00:00Z' });
    await sweep();
    const mails = await mailOf(`reminder:${r.id}`);
    expect(mails).toHaveLength(1);
    const m = mails[0]!;
    expect(m).toMatchObject({
      kind: 'reminder_due',
      to_address: ownerEmail,
      from_name: 'Northside Paving',
      reply_to: null,
      subject: 'Reminder: Sealcoat contract renews',
      status: 'queued',
    });
    expect(m.text_body).toBe(
      [
        `Hi ${ownerName},`,
        '',
        'Your contract renewal reminder "Sealcoat contract renews" is due Mon, Mar 9, 2026 at 9:00 AM (America/New_York).',
        '',
        'Two-year contract; ask about the north lot.',
        '',
        'Kind: Contract renewal\nCustomer: Acme Lots\nContact: Pat Jones\nRepeats: Every month',
        '',
        '--\nYou get this because you are a teammate in Northside Paving on Groundwork.',
        '',
      ].join('\n'),
    );
    // Never the customer or the person.
    const toCustomer = await t.database.db
      .selectFrom('outgoing_mail')
      .select('id')
      .where('to_address', 'in', ['billing@acme.test', 'pat@acme.test'])
      .execute();
    expect(toCustomer).toEqual([]);

    await t.sendQueuedMail();
    const sent = (await listOutbox(t.dataDir)).filter((e) => e.subject === 'Reminder: Sealcoat contract renews');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toBe(ownerEmail);
    expect((await mailOf(`reminder:${r.id}`))[0]!.status).toBe('sent');
  });

  it('emails the reassigned teammate, and a repeating reminder emails again on its next round', async () => {
    const mate = await t.user(w.firmId, { name: 'Dana Office', email: 'dana@northside.test' });
    const r = await reminder({
      title: 'Weekly lot walk',
      due: '2026-03-10T09:00',
      repeat_every: 1,
      repeat_unit: 'day',
    });
    await ok(w.api.patch(`/v1/reminders/${r.id}`, { assigned_to_user_id: mate.id }));
    moveTo('2026-03-10T13:00:00Z');
    await sweep();
    expect((await reminderOf(r.id)).status).toBe('sent');
    const done = (await ok(w.api.post(`/v1/reminders/${r.id}/complete`, {}))).data;
    expect(done).toMatchObject({
      status: 'pending',
      due_at: '2026-03-11T13:00:00Z',
      last_emailed_at: '2026-03-10T13:00:00Z',
    });
    moveTo('2026-03-11T13:00:00Z');
    await sweep();
    expect(await reminderOf(r.id)).toMatchObject({ status: 'sent', last_emailed_at: '2026-03-11T13:00:00Z' });
    const mails = await mailOf(`reminder:${r.id}`);
    expect(mails.map((m) => [m.to_address, m.subject])).toEqual([
      ['dana@northside.test', 'Reminder: Weekly lot walk'],
      ['dana@northside.test', 'Reminder: Weekly lot walk'],
    ]);
    expect(mails[1]!.text_body).toContain('due Wed, Mar 11, 2026 at 9:00 AM');
  });

  it('a dismissed reminder never emails; a snoozed sent one emails again at its new time', async () => {
    const dismissed = await reminder({ due: '2026-03-12T09:00' });
    await ok(w.api.post(`/v1/reminders/${dismissed.id}/dismiss`, {}));
    const snoozed = await reminder({ due: '2026-03-12T09:00' });
    moveTo('2026-03-12T13:00:00Z');
    await sweep();
    expect((await reminderOf(dismissed.id)).status).toBe('dismissed');
    expect(await mailOf(`reminder:${dismissed.id}`)).toEqual([]);
    expect((await reminderOf(snoozed.id)).status).toBe('sent');
    expect((await ok(w.api.patch(`/v1/reminders/${snoozed.id}`, { snooze: '1h' }))).data).toMatchObject({
      status: 'pending',
      due_at: '2026-03-12T14:00:00Z',
    });
    moveTo('2026-03-12T14:00:00Z');
    await sweep();
    expect(await mailOf(`reminder:${snoozed.id}`)).toHaveLength(2);
  });
});

describe('a removed assignee', () => {
  it('is not emailed; the reminder still moves to sent', async () => {
    const gone = await t.user(w.firmId, { name: 'Former Teammate', email: 'former@northside.test' });
    const r = await reminder({ due: '2026-03-13T09:00', assigned_to_user_id: gone.id });
    expect((await t.admin.delete(`/admin/v1/workspaces/${w.firmId}/users/${gone.id}`)).status).toBe(200);
    moveTo('2026-03-13T13:00:00Z');
    await sweep();
    expect((await reminderOf(r.id)).status).toBe('sent');
    expect(await mailOf(`reminder:${r.id}`)).toEqual([]);
  });
});

describe('remind-me follow-ups coming due', () => {
  it('that_day emails at the due time, day_before at the same local time the day before, once per round', async () => {
    const ca = await account(w, 'Birch Apartments', { email: 'office@birch.test' });
    const thatDay = (
      await ok(w.api.post(`/v1/client-accounts/${ca.id}/remind-me`, { due_date: '2026-03-16', email_me: 'that_day' }))
    ).data;
    const dayBefore = (
      await ok(
        w.api.post(`/v1/client-accounts/${ca.id}/remind-me`, {
          due_date: '2026-03-16',
          due_time: '10:30',
          email_me: 'day_before',
          title: 'Send the spring price list',
          task_type: 'email',
          note: 'Include crack fill',
        }),
      )
    ).data;
    const silent = (await ok(w.api.post(`/v1/client-accounts/${ca.id}/remind-me`, { due_date: '2026-03-16' }))).data;
    moveTo('2026-03-15T14:29:59Z'); // Sunday 10:29:59 EDT
    await sweep();
    expect(await mailOf(`account_task:${dayBefore.id}`)).toEqual([]);
    moveTo('2026-03-15T14:30:00Z');
    await sweep();
    await sweep();
    const before = await mailOf(`account_task:${dayBefore.id}`);
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({
      kind: 'follow_up_due',
      to_address: ownerEmail,
      subject: 'Follow-up due tomorrow: Send the spring price list',
      from_name: 'Northside Paving',
      reply_to: null,
    });
    expect(before[0]!.text_body).toContain(
      'Your follow-up "Send the spring price list" with Birch Apartments is due Mon, Mar 16, 2026 at 10:30 AM (America/New_York).',
    );
    expect(before[0]!.text_body).toContain('Type: Email\nCustomer: Birch Apartments\nNotes: Include crack fill');
    expect(await mailOf(`account_task:${thatDay.id}`)).toEqual([]);
    moveTo('2026-03-16T13:00:00Z'); // Monday 9:00 EDT
    await sweep();
    await sweep();
    const onDay = await mailOf(`account_task:${thatDay.id}`);
    expect(onDay.map((m) => m.subject)).toEqual(['Follow-up due: Call Birch Apartments']);
    expect(await mailOf(`account_task:${dayBefore.id}`)).toHaveLength(1);
    expect(await mailOf(`account_task:${silent.id}`)).toEqual([]);
    const toCustomer = await t.database.db
      .selectFrom('outgoing_mail')
      .select('id')
      .where('to_address', '=', 'office@birch.test')
      .execute();
    expect(toCustomer).toEqual([]);
  });

  it('a repeating follow-up completed (PATCH or bulk) emails again on its next round; a snooze re-arms it', async () => {
    const ca = await account(w, 'Cedar Court');
    const weekly = (
      await ok(
        w.api.post(`/v1/client-accounts/${ca.id}/remind-me`, {
          due_date: '2026-03-17',
          repeat: 'weekly',
          email_me: 'that_day',
        }),
      )
    ).data;
    moveTo('2026-03-17T13:00:00Z');
    await sweep();
    expect(await mailOf(`account_task:${weekly.id}`)).toHaveLength(1);
    const rolled = (await ok(w.api.patch(`/v1/account-tasks/${weekly.id}`, { status: 'done' }))).data;
    expect(rolled).toMatchObject({ status: 'open', due_date: '2026-03-24', due_time: '09:00' });
    await sweep();
    expect(await mailOf(`account_task:${weekly.id}`)).toHaveLength(1);
    moveTo('2026-03-24T13:00:00Z');
    await sweep();
    expect(await mailOf(`account_task:${weekly.id}`)).toHaveLength(2);
    const bulk = (await ok(w.api.post('/v1/follow-ups/bulk', { action: 'done', account_task_ids: [weekly.id] }))).data;
    expect(bulk.changed).toEqual([weekly.id]);
    expect((await ok(w.api.get(`/v1/account-tasks/${weekly.id}`))).data.due_date).toBe('2026-03-31');
    const snoozed = (
      await ok(w.api.post('/v1/follow-ups/bulk', { action: 'snooze', snooze: '1h', account_task_ids: [weekly.id] }))
    ).data;
    expect(snoozed.changed).toEqual([weekly.id]);
    moveTo('2026-03-24T14:00:00Z');
    await sweep();
    expect(await mailOf(`account_task:${weekly.id}`)).toHaveLength(3);
  });
});

describe('the autumn daylight-saving change (1 November 2026)', () => {
  it('day_before sends 25 hours ahead across the change', async () => {
    moveTo('2026-10-30T12:00:00Z');
    const ca = await account(w, 'Dogwood Plaza');
    const f = (
      await ok(w.api.post(`/v1/client-accounts/${ca.id}/remind-me`, { due_date: '2026-11-01', email_me: 'day_before' }))
    ).data;
    expect(f.due_at).toBe('2026-11-01T14:00:00Z'); // Sunday 9:00 EST
    moveTo('2026-10-31T12:59:00Z');
    await sweep();
    expect(await mailOf(`account_task:${f.id}`)).toEqual([]);
    moveTo('2026-10-31T13:00:00Z'); // Saturday 9:00 EDT
    await sweep();
    expect(await mailOf(`account_task:${f.id}`)).toHaveLength(1);
  });

  it('snoozes to 8:00 AM EST after the change', async () => {
    moveTo('2026-10-31T16:00:00Z'); // Saturday noon EDT
    const r = await reminder({ due: '2026-10-31T15:00' });
    const snooze = async (s: string) => (await ok(w.api.raw.patch(`/v1/reminders/${r.id}`, { snooze: s }))).data.due_at;
    expect(await snooze('tomorrow')).toBe('2026-11-01T13:00:00Z'); // Sunday 8:00 EST
    expect(await snooze('next_week')).toBe('2026-11-02T13:00:00Z'); // Monday 8:00 EST
    expect(await snooze('1h')).toBe('2026-10-31T17:00:00Z');
  });
});
