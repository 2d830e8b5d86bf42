// Reminder email over real SMTP (issue 14, Proof): a local smtp-server on loopback receives what the
// worker sends through SmtpTransport (nodemailer), and mailparser reads it back: From shows the
// workspace, To the assignee, no Reply-To (no one acted), the subject and the plain text.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '#platform/clock.ts';
import { SmtpTransport } from '#platform/mail/smtp.ts';
import { dueMailTask } from '#crm/reminders/due-mail.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { account, ok } from '#test/helpers/records.ts';

let t: TestApp;
let server: SMTPServer;
const clock = new ManualClock(Date.parse('2026-05-04T12:00:00Z'));
const received: { envelopeTo: string[]; mail: ParsedMail }[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), mail });
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  const mail = new SmtpTransport(`smtp://127.0.0.1:${port}?tls.rejectUnauthorized=false`, 'groundwork@mail.test');
  t = await startApp({ clock, mail });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

it('sends the reminder email to the assignee with its headers and text', async () => {
  const w = await t.workspace({ timezone: 'America/Chicago', name: 'Prairie Sealcoating' });
  const mate = await t.user(w.firmId, { name: 'Dana Office', email: 'dana@prairie.test' });
  const ca = await account(w, 'Elm Street Church', { email: 'office@elm.test' });
  const r = (
    await ok(
      w.api.post('/v1/reminders', {
        title: 'Maintenance check on the lot',
        description: 'Look at the crack fill from last fall.',
        reminder_type: 'maintenance_checkin',
        client_account_id: ca.id,
        due: '2026-05-05T07:30',
        assigned_to_user_id: mate.id,
      }),
    )
  ).data;
  clock.advance(Date.parse('2026-05-05T12:30:00Z') - clock.now()); // 7:30 CDT
  await dueMailTask(t.env).sweep();
  expect(await t.sendQueuedMail()).toBe(1);
  expect(received).toHaveLength(1);
  const { envelopeTo, mail } = received[0]!;
  expect(envelopeTo).toEqual(['dana@prairie.test']);
  expect(mail.from?.value).toEqual([{ name: 'Prairie Sealcoating', address: 'groundwork@mail.test' }]);
  expect(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((a) => a.address) : null).toEqual([
    'dana@prairie.test',
  ]);
  expect(mail.replyTo).toBeUndefined();
  expect(mail.subject).toBe('Reminder: Maintenance check on the lot');
  expect(mail.messageId).toMatch(/@/);
  expect(mail.text).toContain('Hi Dana Office,');
  expect(mail.text).toContain(
    'Your maintenance check-in reminder "Maintenance check on the lot" is due Tue, May 5, 2026 at 7:30 AM (America/Chicago).',
  );
  expect(mail.text).toContain('Look at the crack fill from last fall.');
  expect(mail.text).toContain('Customer: Elm Street Church');
  expect(mail.html).toContain('Maintenance check on the lot');
  const row = await t.database.db
    .selectFrom('outgoing_mail')
    .selectAll()
    .where('ref', '=', `reminder:${r.id}`)
    .executeTakeFirstOrThrow();
  expect(row).toMatchObject({ status: 'sent', kind: 'reminder_due' });
});
