// Follow-up sequence emails through a real SMTP server on loopback (smtp-server), each message
// parsed with mailparser: From shows the workspace's name, Reply-To the job's salesperson, To the
// job's customer, the subject and text filled from the templates, a Message-ID, and the footer
// naming the workspace; the HTML part escapes what the customer's name holds. A stop before the
// step's day sends nothing.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#platform/clock.ts';
import { SmtpTransport } from '#platform/mail/smtp.ts';
import { advanceClock } from '#platform/time.ts';
import { contributions } from '#src/area.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { job, ok } from '#test/helpers/records.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const FROM = 'mailer@groundwork.test';
const received: { envelopeTo: string[]; mail: ParsedMail }[] = [];
let server: SMTPServer;
let t: TestApp;
const clock = new ManualClock(Date.now());

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), mail });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  t = await startApp({ clock, mail: new SmtpTransport(`smtp://127.0.0.1:${port}?ignoreTLS=true`, FROM) });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function later(ms: number): void {
  clock.advance(ms);
  advanceClock(ms);
}

async function sweepSequences(): Promise<void> {
  const task = contributions()
    .workerTasks(t.env, { leaseMs: 60_000 })
    .find((k) => k.name === 'follow-up-sequences')!;
  while ((await task.sweep()) > 0);
}

describe('sequence emails over SMTP', () => {
  it('carry the workspace as sender, the salesperson as Reply-To, the filled templates and the footer', async () => {
    const w = await t.workspace({ name: 'Blacktop & Sons' });
    await ok(
      w.api.put('/v1/follow-up-sequence-settings', {
        enabled: true,
        steps: [
          {
            day: 1,
            kind: 'email',
            subject: 'About {{job_name}}',
            body: 'Hi {{customer_name}},\n\nJust checking in on {{job_name}} at {{job_address}}.\n\n{{salesperson_name}}, {{workspace_name}}',
          },
        ],
      }),
    );
    const sales = await t.user(w.firmId, { name: 'Sam Sales', email: 'sam@blacktop.test' });
    const j = await job(w, {
      name: 'Maple lot',
      address: '4 Maple Dr',
      contact_name: 'Dana <b>Reyes</b>',
      contact_email: 'dana@customer.test',
      assigned_to_user_id: sales.id,
    });
    await ok(w.api.post(`/v1/jobs/${j.id}/follow-up-sequence/start`, {}));

    later(DAY_MS / 2);
    await sweepSequences();
    await t.sendQueuedMail();
    expect(received).toHaveLength(0);

    later(DAY_MS);
    await sweepSequences();
    expect(await t.sendQueuedMail()).toBe(1);
    expect(received).toHaveLength(1);
    const { envelopeTo, mail } = received[0]!;
    expect(envelopeTo).toEqual(['dana@customer.test']);
    expect(mail.from?.value).toEqual([{ address: FROM, name: 'Blacktop & Sons' }]);
    expect(mail.replyTo?.value).toEqual([{ address: 'sam@blacktop.test', name: '' }]);
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((a) => a.address) : []).toEqual([
      'dana@customer.test',
    ]);
    expect(mail.subject).toBe('About Maple lot');
    expect(mail.messageId).toMatch(/^<.+@.+>$/);
    const row = await t.database.db
      .selectFrom('outgoing_mail')
      .selectAll()
      .where('ref', '=', `job:${j.id}`)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'sequence_step', status: 'sent' });
    expect(mail.messageId).toBe(row.message_id);
    expect(mail.text).toContain('Hi Dana <b>Reyes</b>,');
    expect(mail.text).toContain('Just checking in on Maple lot at 4 Maple Dr.');
    expect(mail.text).toContain('Sam Sales, Blacktop & Sons');
    expect(mail.text).toContain('Sent by Blacktop & Sons. Reply to this email to reach them.');
    expect(mail.html).toContain('Hi Dana &lt;b&gt;Reyes&lt;/b&gt;,');
    expect(mail.html).not.toContain('<b>Reyes</b>');
    expect(mail.html).toContain('Sent by Blacktop &amp; Sons.');
  });

  it('a sequence stopped before its day sends nothing', async () => {
    const w = await t.workspace({ name: 'Quiet Paving' });
    await ok(
      w.api.put('/v1/follow-up-sequence-settings', {
        enabled: true,
        steps: [{ day: 3, kind: 'email', subject: 'Hello', body: 'Hello {{customer_name}}' }],
      }),
    );
    const j = await job(w, { contact_name: 'Lee', contact_email: 'lee@customer.test' });
    await ok(w.api.post(`/v1/jobs/${j.id}/follow-up-sequence/start`, {}));
    const before = received.length;
    const stopped = await ok(w.api.post(`/v1/jobs/${j.id}/follow-up-sequence/stop`, {}));
    expect(stopped.data.steps_closed).toBe(1);
    later(5 * DAY_MS);
    await sweepSequences();
    await t.sendQueuedMail();
    expect(received.length).toBe(before);
  });
});
