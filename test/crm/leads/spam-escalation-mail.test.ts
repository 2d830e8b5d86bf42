// Leads beyond the endpoints' happy paths: the auto-spam rule and the restore that runs intake
// again (replaced_lead_id); speed-to-lead escalation on an injected clock; the new-lead alert as a
// real SMTP server receives it; and a rolled-back write that queues nothing.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#platform/clock.ts';
import { SmtpTransport } from '#platform/mail/smtp.ts';
import { leadEscalationTask } from '#crm/leads/escalation.ts';
import { addressInCity, autoSpamReason, zipOf } from '#crm/leads/rules.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { created, ok } from '#test/helpers/records.ts';

const MINUTE = 60_000;
const mailRows = (t: TestApp, ref: string) =>
  t.database.db.selectFrom('outgoing_mail').selectAll().where('ref', '=', ref).orderBy('id').execute();

describe('the auto-spam rule (pure)', () => {
  it('flags links in the name, throwaway domains, more than two links, and a message of only links', () => {
    const ok = {
      name: 'Pat Jones',
      email: 'pat@example.com',
      message: 'Please quote our lot, see https://example.com/lot',
    };
    expect(autoSpamReason(ok)).toBeNull();
    expect(autoSpamReason({ ...ok, message: 'two links http://a.test and www.b.test are fine' })).toBeNull();
    expect(autoSpamReason({ ...ok, name: 'Cheap pills www.pills.test' })).toBe('the name holds a link');
    expect(autoSpamReason({ ...ok, email: 'x@Mailinator.com' })).toBe(
      'the email is at a throwaway domain (mailinator.com)',
    );
    expect(autoSpamReason({ ...ok, message: 'http://a.test http://b.test https://c.test' })).toBe(
      'the message holds 3 links',
    );
    expect(autoSpamReason({ ...ok, message: '  https://seo.test/offer  ' })).toBe('the message is only links');
    expect(autoSpamReason({ ...ok, email: null, message: null })).toBeNull();
  });

  it('territory parts: the last five-digit group is the ZIP; a comma part names the city', () => {
    expect(zipOf('100 Main St, Columbus, OH 43215-0001')).toBe('43215');
    expect(zipOf('12345 Long Rd, Dublin, OH 43017')).toBe('43017');
    expect(zipOf('No zip here')).toBeNull();
    expect(zipOf(null)).toBeNull();
    expect(addressInCity('1 A St, Columbus, OH 43215', 'columbus')).toBe(true);
    expect(addressInCity('1 A St, Columbus OH 43215', 'Columbus')).toBe(true);
    expect(addressInCity('1 A St, Columbus Grove, OH', 'Columbus')).toBe(false);
    expect(addressInCity('1 A St, Rancho Santa Fe, CA', 'Rancho Santa Fe')).toBe(true);
  });
});

describe('auto-spam leads and restoring them', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('is saved as spam with nothing made, not routed and not announced; restore runs intake as a new lead', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/leads', {
      name: 'Best SEO',
      email: 'seo@yopmail.com',
      company: 'SEO Co',
      address: '1 Spam Way, Columbus, OH 43215',
      message: 'Rank first!',
      services: ['Sealcoating'],
    });
    expect(res.status).toBe(201);
    const spam = res.body.data;
    expect(spam).toMatchObject({
      status: 'spam',
      auto_spam: true,
      contact_id: null,
      client_account_id: null,
      job_id: null,
      location_id: null,
      follow_up_task_id: null,
      assigned_to_user_id: w.ownerId,
      assignment_reason: 'Not routed: flagged as spam (the email is at a throwaway domain (yopmail.com))',
      created_records: { contact: false, account: false, job: false, location: false },
      answers: [
        { label: 'Services', value: 'Sealcoating' },
        { label: 'Message', value: 'Rank first!' },
      ],
    });
    expect(await mailRows(t, `lead:${spam.id}`)).toHaveLength(0);
    expect((await w.api.get('/v1/contacts')).body.pagination.total).toBe(0);
    expect((await w.api.get('/v1/leads?status=spam')).body.data.map((l: any) => l.id)).toEqual([spam.id]);

    const back = await w.api.post(`/v1/leads/${spam.id}/restore`);
    expect(back.status).toBe(200);
    const fresh = back.body.data;
    expect(fresh.id).not.toBe(spam.id);
    expect(fresh).toMatchObject({
      status: 'new',
      auto_spam: false,
      replaced_lead_id: spam.id,
      name: 'Best SEO',
      submitted_at: spam.submitted_at,
      created_records: { contact: true, account: true, job: true, location: true },
      assignment_reason: 'Round-robin among office teammates',
    });
    expect(fresh.follow_up_task_id).not.toBeNull();
    expect((await mailRows(t, `lead:${fresh.id}`)).map((m) => m.kind)).toEqual(['lead_alert']);
    // The flagged lead stays as it was, and cannot be restored a second time.
    expect((await ok(w.api.get(`/v1/leads/${spam.id}`))).data.status).toBe('spam');
    const again = await w.api.post(`/v1/leads/${spam.id}/restore`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'lead_closed', message: `This lead was restored as lead ${fresh.id}` });
  });

  it('a restore that fails after queueing its alert rolls back: no lead, no records, no mail', async () => {
    const w = await t.workspace();
    const spam = (await created(w, '/v1/leads', { name: 'Spam Sam', email: 'sam@mailinator.com' })) as any;
    const pg = t.database.dialect.engine === 'postgres';
    if (pg) {
      await sql`create function refuse_replace() returns trigger as $$ begin raise exception 'refused by test'; end $$ language plpgsql`.execute(
        t.database.db,
      );
      await sql`create trigger refuse_replace before update of replaced_by_lead_id on leads for each row execute function refuse_replace()`.execute(
        t.database.db,
      );
    } else {
      await sql`create trigger refuse_replace before update of replaced_by_lead_id on leads begin select raise(abort, 'refused by test'); end`.execute(
        t.database.db,
      );
    }
    try {
      const before = await t.database.db.selectFrom('outgoing_mail').select('id').execute();
      const res = await w.api.post(`/v1/leads/${spam.id}/restore`);
      expect(res.status).toBe(500);
      expect(await t.database.db.selectFrom('outgoing_mail').select('id').execute()).toEqual(before);
      expect((await w.api.get('/v1/leads')).body.data.map((l: any) => l.id)).toEqual([spam.id]);
      expect((await w.api.get('/v1/contacts')).body.pagination.total).toBe(0);
      expect((await w.api.get('/v1/jobs')).body.pagination.total).toBe(0);
      expect((await w.api.get('/v1/account-tasks?status=all')).body.pagination.total).toBe(0);
    } finally {
      await sql`drop trigger refuse_replace${pg ? sql` on leads` : sql``}`.execute(t.database.db);
      if (pg) await sql`drop function refuse_replace()`.execute(t.database.db);
    }
    expect((await w.api.post(`/v1/leads/${spam.id}/restore`)).status).toBe(200);
  });
});

describe('speed-to-lead escalation (worker, injected clock)', () => {
  let t: TestApp;
  let clock: ManualClock;
  beforeAll(async () => {
    clock = new ManualClock(Date.now());
    t = await startApp({ clock });
  });
  afterAll(() => t.close());

  it('marks escalated_at and emails the owner once when a lead is still new past the window', async () => {
    const w = await t.workspace({ name: 'Tarmac Bros', settings: { speed_to_lead_minutes: 15 } });
    const mate = await t.user(w.firmId, { role: 'member', name: 'Jamie Fox' });
    const waiting = (await created(w, '/v1/leads', {
      name: 'Waiting Walt',
      phone: '6145550123',
      notify: false,
    })) as any;
    await ok(w.api.post(`/v1/leads/${waiting.id}/assign`, { user_id: mate.id }));
    const called = (await created(w, '/v1/leads', { name: 'Called Cathy', phone: '6145550124', notify: false })) as any;
    await ok(w.api.post(`/v1/leads/${called.id}/contacted`, { how: 'call' }));
    const task = leadEscalationTask(t.env);

    clock.advance(14 * MINUTE);
    expect(await task.sweep()).toBe(0);
    clock.advance(2 * MINUTE);
    expect(await task.sweep()).toBe(1);
    expect(await task.sweep()).toBe(0);

    const lead = (await ok(w.api.get(`/v1/leads/${waiting.id}`))).data;
    expect(lead.status).toBe('new');
    expect(Date.parse(lead.escalated_at!)).toBe(Math.floor(clock.now() / 1000) * 1000);
    expect((await ok(w.api.get(`/v1/leads/${called.id}`))).data.escalated_at).toBeNull();
    const mails = (await mailRows(t, `lead:${waiting.id}`)).filter((m) => m.kind === 'lead_escalation');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      from_name: 'Tarmac Bros',
      reply_to: null,
      subject: 'Nobody has reached out to Waiting Walt yet',
    });
    const owner = await t.database.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', w.ownerId)
      .executeTakeFirstOrThrow();
    expect(mails[0]!.to_address).toBe(owner.email);
    expect(mails[0]!.text_body).toContain('within the 15-minute speed-to-lead window');
    expect(mails[0]!.text_body).toContain('The lead is assigned to Jamie Fox.');
  });
});

describe('the new-lead alert, as an SMTP server receives it', () => {
  let t: TestApp;
  let server: SMTPServer;
  const received: ParsedMail[] = [];
  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, done) {
        simpleParser(stream)
          .then((m) => {
            received.push(m);
            done();
          })
          .catch(done);
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    t = await startApp({ mail: new SmtpTransport(`smtp://127.0.0.1:${port}`, 'leads@groundwork.test') });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('goes to the assignee from the workspace, answers to the acting teammate, with the lead in the text; never to the lead', async () => {
    const w: Workspace = await t.workspace({ name: 'Blacktop & Sons' });
    const mate = await t.user(w.firmId, { role: 'member', name: 'Jamie Fox', email: 'jamie@blacktop.test' });
    await ok(
      t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, {
        settings: {
          lead_routing: {
            round_robin_user_ids: null,
            territory_rules: [],
            service_rules: [{ user_id: mate.id, job_types: ['Patching'] }],
          },
        },
      }),
    );
    const l = (await created(w, '/v1/leads', {
      name: 'Lee <b>Park</b>',
      email: 'lee@customer.test',
      phone: '614 555 0188',
      address: '3 Oak St, Columbus, OH 43215',
      services: ['Patching'],
      timing: 'asap',
      message: 'Pothole by the entrance.',
    })) as any;
    expect(await t.sendQueuedMail()).toBe(1);
    expect(received).toHaveLength(1);
    const m = received[0]!;
    const owner = await t.database.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', w.ownerId)
      .executeTakeFirstOrThrow();
    expect(m.to && !Array.isArray(m.to) ? m.to.value.map((a) => a.address) : []).toEqual(['jamie@blacktop.test']);
    expect(m.from?.value[0]).toMatchObject({ name: 'Blacktop & Sons', address: 'leads@groundwork.test' });
    expect(m.replyTo?.value[0]?.address).toBe(owner.email);
    expect(m.subject).toBe('New lead: Lee <b>Park</b>');
    expect(m.messageId).toBeTruthy();
    expect(m.text).toContain('Hi Jamie,');
    expect(m.text).toContain(
      'Lee <b>Park</b> asked about work through API, and the lead is yours (Service rule: Patching).',
    );
    expect(m.text).toContain('Phone: (614) 555-0188');
    expect(m.text).toContain('Services: Patching');
    expect(m.text).toContain('Timing: As soon as possible');
    expect(m.text).toContain('Message: Pothole by the entrance.');
    expect(m.text).toContain('Reach out by ');
    expect(m.html).toContain('Lee &lt;b&gt;Park&lt;/b&gt;');
    const rows = await mailRows(t, `lead:${l.id}`);
    expect(rows.map((r) => [r.kind, r.status, r.to_address])).toEqual([['lead_alert', 'sent', 'jamie@blacktop.test']]);
    expect(
      received.flatMap((r) => (r.to && !Array.isArray(r.to) ? r.to.value.map((a) => a.address) : [])),
    ).not.toContain('lee@customer.test');
  });
});
