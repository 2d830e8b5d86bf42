// Queued mail over real SMTP (smtp-server on loopback, messages parsed by mailparser): what a
// message carries, that a rolled-back write sends nothing, that a worker dying mid-send loses
// nothing, and that an unreachable or refusing server leaves the message visible to the operator.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#platform/clock.ts';
import { inTransaction } from '#platform/context.ts';
import { queueMail, type QueuedMail } from '#platform/mail/queue.ts';
import { SmtpTransport } from '#platform/mail/smtp.ts';
import { customerFooter, renderMail } from '#platform/mail/templates.ts';
import { sendWithin } from '#platform/mail/transport.ts';
import { MAIL_MAX_ATTEMPTS, MAIL_RETRY_DELAYS_MS, MailWorker } from '#platform/mail/worker.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { startSmtpPeer, type SmtpPeer } from '#test/helpers/smtp.ts';

let peer: SmtpPeer;
let t: TestApp;
let firmId: number;
const clock = new ManualClock(Date.parse('2026-11-24T12:00:00Z'));

beforeAll(async () => {
  peer = await startSmtpPeer();
  t = await startApp({ mail: peer.transport(), clock });
  firmId = (await t.workspace({ name: 'Acme Paving' })).firmId;
});
afterAll(async () => {
  await t.close();
  await peer.close();
});
afterEach(() => {
  peer.refuse.clear();
  peer.stall = false;
});

function message(n: number, over: Partial<QueuedMail> = {}): QueuedMail {
  return {
    firmId,
    kind: 'test',
    ref: `test:${n}`,
    to: `dana${n}@customer.test`,
    fromName: 'Acme Paving',
    replyTo: 'sam@acme.test',
    mail: renderMail({
      subject: `Your estimate ${n} — résumé`,
      greeting: 'Hi Dana,',
      paragraphs: ['Thanks for asking <us> & not them.'],
      facts: [['Job', 'Lot 4']],
      action: { label: 'Open it', url: 'https://acme.test/p/1' },
      footer: customerFooter('Acme Paving'),
    }),
    ...over,
  };
}

const queue = (...mails: QueuedMail[]) =>
  inTransaction(t.database, async (trx) => {
    const ids: number[] = [];
    for (const m of mails) ids.push(await queueMail(trx, t.env.deps.mail, m));
    return ids;
  });

const rowOf = (id: number) =>
  t.database.db.selectFrom('outgoing_mail').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('queued mail over SMTP', () => {
  it('sends the message with its headers, both parts and the workspace footer, over STARTTLS', async () => {
    const before = peer.received.length;
    const [id] = await queue(message(1));
    expect(await t.sendQueuedMail()).toBe(1);
    const [got] = (await peer.waitFor(before + 1)).slice(before);
    const row = await rowOf(id!);
    expect(row.status).toBe('sent');
    expect(row.attempts).toBe(1);
    expect(got!.secure).toBe(true);
    expect(got!.envelopeFrom).toBe('quotes@groundwork.test');
    expect(got!.envelopeTo).toEqual(['dana1@customer.test']);
    const p = got!.parsed;
    expect(p.from?.value).toEqual([{ address: 'quotes@groundwork.test', name: 'Acme Paving' }]);
    expect(p.replyTo?.value[0]?.address).toBe('sam@acme.test');
    expect(p.subject).toBe('Your estimate 1 — résumé');
    expect(p.messageId).toBe(row.message_id);
    expect(p.text).toContain('Thanks for asking <us> & not them.');
    expect(p.text).toContain('Job: Lot 4');
    expect(p.text).toContain('Open it: https://acme.test/p/1');
    expect(p.text).toContain('Sent by Acme Paving.');
    expect(p.html).toContain('Thanks for asking &lt;us&gt; &amp; not them.');
    expect(p.html).not.toContain('<us>');
    expect(p.html).toContain('href="https://acme.test/p/1"');
  });

  it('sends nothing for a write that rolled back', async () => {
    const before = peer.received.length;
    const count = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('outgoing_mail')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const rows = await count();
    await expect(
      inTransaction(t.database, async (trx) => {
        await queueMail(trx, t.env.deps.mail, message(2));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await count()).toBe(rows);
    expect(await t.sendQueuedMail()).toBe(0);
    expect(peer.received.length).toBe(before);
  });

  it('sends every message at least once when a worker dies mid-send', async () => {
    const before = peer.received.length;
    const ids = await queue(message(3), message(4), message(5));
    // The first worker hands the messages to a server that never answers DATA, then "dies": its
    // sweep is abandoned and it records nothing.
    peer.stall = true;
    const dying = new MailWorker(t.database, peer.transport('quotes@groundwork.test', 60_000), {
      clock,
      leaseMs: 30_000,
      concurrency: 3,
      timeoutMs: 120_000,
    });
    const abandoned = dying.sweep();
    // Every message has reached the hung DATA (a fixed wait was too short beside the whole suite).
    await peer.waitForStalled(3);
    for (const id of ids) expect((await rowOf(id)).lease_token).not.toBeNull();
    // A restarted worker finds them held until the lease runs out, then sends them all.
    peer.stall = false;
    const restarted = new MailWorker(t.database, t.env.deps.mail, { clock, leaseMs: 30_000 });
    expect(await restarted.drain()).toBe(0);
    clock.advance(30_001);
    expect(await restarted.drain()).toBe(3);
    const got = (await peer.waitFor(before + 3)).slice(before);
    expect(
      got.map((m) => (m.parsed.to && 'value' in m.parsed.to ? m.parsed.to.value[0]?.address : null)).sort(),
    ).toEqual(['dana3@customer.test', 'dana4@customer.test', 'dana5@customer.test']);
    for (const id of ids) expect((await rowOf(id)).status).toBe('sent');
    // The dead worker's late outcome (a failure, recorded under a lease taken over) changes nothing.
    peer.release();
    await abandoned;
    for (const id of ids) expect((await rowOf(id)).status).toBe('sent');
  });

  it('keeps messages queued and visible while the server is unreachable, then gives up', async () => {
    const closedPort = await unusedPort();
    const unreachable = new SmtpTransport(`smtp://127.0.0.1:${closedPort}`, 'quotes@groundwork.test', {
      timeoutMs: 2000,
    });
    const worker = new MailWorker(t.database, unreachable, { clock, leaseMs: 30_000 });
    const [id] = await queue(message(6));
    expect(await worker.drain()).toBe(1);
    let row = await rowOf(id!);
    expect(row.status).toBe('queued');
    expect(row.attempts).toBe(1);
    expect(row.last_error).toMatch(/ECONNREFUSED/);
    const seen = await t.admin.get('/admin/v1/mail?status=queued');
    expect(seen.status).toBe(200);
    const listed = seen.body.data.messages.find((m: { id: number }) => m.id === id);
    expect(listed).toMatchObject({ status: 'queued', attempts: 1, kind: 'test', to_address: 'dana6@customer.test' });
    expect(listed.last_error).toMatch(/ECONNREFUSED/);
    expect(Date.parse(listed.next_attempt_at) - clock.now()).toBeGreaterThanOrEqual(MAIL_RETRY_DELAYS_MS[0] - 1000);
    // Not due again until its backoff passes; then each attempt waits longer, until the last.
    expect(await worker.drain()).toBe(0);
    for (let n = 1; n < MAIL_MAX_ATTEMPTS; n++) {
      clock.advance(MAIL_RETRY_DELAYS_MS[n - 1]!);
      expect(await worker.drain()).toBe(1);
    }
    row = await rowOf(id!);
    expect(row.status).toBe('failed');
    expect(row.attempts).toBe(MAIL_MAX_ATTEMPTS);
    // Once the server is back, the operator queues it again and it goes.
    const before = peer.received.length;
    expect((await t.admin.post(`/admin/v1/mail/${id}/retry`, {})).status).toBe(200);
    expect(await t.sendQueuedMail()).toBe(1);
    await peer.waitFor(before + 1);
    expect((await rowOf(id!)).status).toBe('sent');
    await unreachable.close();
  });

  it('marks a refused recipient failed at once with the server’s answer', async () => {
    peer.refuse.add('gone@customer.test');
    const [id] = await queue(message(7, { to: 'gone@customer.test' }));
    expect(await t.sendQueuedMail()).toBe(1);
    const row = await rowOf(id!);
    expect(row.status).toBe('failed');
    expect(row.attempts).toBe(1);
    expect(row.last_error).toMatch(/550|User unknown/);
    const failed = await t.admin.get('/admin/v1/mail?status=failed');
    expect(failed.body.data.counts.failed).toBeGreaterThanOrEqual(1);
    expect(failed.body.data.messages.map((m: { id: number }) => m.id)).toContain(id);
    const again = await t.admin.post(`/admin/v1/mail/${(await queue(message(8)))[0]}/retry`, {});
    expect(again.status).toBe(409);
  });

  it('gives a hung server at most a third of the lease per message, so a claim never outlives its lease', async () => {
    await t.sendQueuedMail(); // what earlier tests left queued
    peer.stall = true;
    const hung = peer.transport('quotes@groundwork.test', 60_000);
    const worker = new MailWorker(t.database, hung, { clock, leaseMs: 1500, timeoutMs: 60_000 });
    const [id] = await queue(message(10));
    const started = Date.now();
    expect(await worker.sweep()).toBe(1);
    expect(Date.now() - started).toBeLessThan(1500);
    const row = await rowOf(id!);
    expect(row).toMatchObject({ status: 'queued', attempts: 1, lease_token: null });
    expect(row.last_error).toMatch(/no answer in 500 ms/);
    peer.release();
    await hung.close();
  });

  it('gives up an inline send after its timeout', async () => {
    peer.stall = true;
    const slow = peer.transport('quotes@groundwork.test', 60_000);
    const m = message(9);
    await expect(
      sendWithin(
        slow,
        { to: m.to, subject: m.mail.subject, text: m.mail.text, html: m.mail.html, messageId: '<x@t>' },
        500,
      ),
    ).rejects.toThrow(/no answer/);
    await slow.close();
  });
});

async function unusedPort(): Promise<number> {
  const net = await import('node:net');
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as import('node:net').AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
