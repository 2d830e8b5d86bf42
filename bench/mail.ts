// Mail benchmark (docs/performance.md, "Mail"): how fast the worker sends queued mail to a local
// SMTP server, against nodemailer alone sending the same messages to the same server.
//
//   npm run bench:mail                              SQLite file database in a temp dir
//   DATABASE_URL=postgres://… npm run bench:mail    PostgreSQL (a fresh schema, dropped afterwards)
//   npm run bench:mail -- --messages=2000           messages per round (default 1000)
//   npm run bench:mail -- --quick                   300 messages per round
//   npm run bench:mail -- --smoke                   seconds, for CI (bench/mode.ts): 50 messages, one round
//
// Both sides use the same pooled SMTP transport settings (4 connections) and keep 8 messages in
// flight. The baseline hands composed messages straight to nodemailer; the worker side claims
// them from outgoing_mail with leases, sends, and records each outcome, which is the cost the
// ratio shows. Queueing (done inside the writes that cause mail) is not timed. Rounds alternate
// so a change in the machine's other load falls on both sides.
import { performance } from 'node:perf_hooks';
import { SMTPServer } from 'smtp-server';
import { isPostgresUrl } from '#src/config.ts';
import { systemClock } from '#platform/clock.ts';
import { inTransaction } from '#platform/context.ts';
import { newMessageId, type MailMessage } from '#platform/mail/message.ts';
import { queueMail } from '#platform/mail/queue.ts';
import { SmtpTransport } from '#platform/mail/smtp.ts';
import { renderMail, teammateFooter } from '#platform/mail/templates.ts';
import { MailWorker } from '#platform/mail/worker.ts';
import { dropOnInterrupt, openBenchDatabase } from './database.ts';
import { fmt, loadNow, revision } from './load.ts';
import { MODE_LABEL, saveReport, sized, warnOrFail } from './mode.ts';
import { benchWorkspace } from './workspace.ts';

const MESSAGES = Number(process.argv.find((a) => a.startsWith('--messages='))?.slice(11) ?? sized(1000, 300, 50));
const ROUNDS = sized(3, 3, 1);
const IN_FLIGHT = 8;
const FROM = 'bench@groundwork.test';

function content(n: number) {
  return renderMail({
    subject: `Reminder ${n}: call Dana about the Lot 4 sealcoat`,
    greeting: 'Hi Sam,',
    paragraphs: ['This reminder is due now.', 'Dana asked for a call before Friday about the east lot.'],
    facts: [
      ['Customer', 'Riverside Plaza'],
      ['Due', 'Nov 24, 2026 9:00 AM'],
    ],
    action: { label: 'Open the reminder', url: `https://groundwork.test/reminders/${n}` },
    footer: teammateFooter('Bench Paving'),
  });
}

async function main() {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    logger: false,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        received++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as import('node:net').AddressInfo).port;
  const url = `smtp://127.0.0.1:${port}`;

  const databaseUrl = process.env.DATABASE_URL;
  const bench = await openBenchDatabase({
    url: databaseUrl && isPostgresUrl(databaseUrl) ? databaseUrl : null,
    label: 'mail',
  });
  dropOnInterrupt(bench.drop);
  const { firmId } = await benchWorkspace(bench.database);

  /** nodemailer alone: composed messages straight into the pooled transport. */
  async function baseline(): Promise<number> {
    const transport = new SmtpTransport(url, FROM);
    const messages: MailMessage[] = Array.from({ length: MESSAGES }, (_, n) => ({
      to: `sam${n}@bench.test`,
      fromName: 'Bench Paving',
      ...content(n),
      messageId: newMessageId(FROM),
    }));
    const start = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < messages.length) await transport.send(messages[next++]!);
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    await transport.close();
    return MESSAGES / seconds;
  }

  /** The worker: queued rows claimed, sent and recorded. */
  async function worker(): Promise<number> {
    await inTransaction(bench.database, async (trx) => {
      for (let n = 0; n < MESSAGES; n++)
        await queueMail(
          trx,
          { fromAddress: FROM },
          {
            firmId,
            kind: 'bench',
            to: `sam${n}@bench.test`,
            fromName: 'Bench Paving',
            mail: content(n),
          },
        );
    });
    const transport = new SmtpTransport(url, FROM);
    const w = new MailWorker(bench.database, transport, {
      clock: systemClock,
      leaseMs: 60_000,
      concurrency: IN_FLIGHT,
    });
    const start = performance.now();
    const sent = await w.drain();
    const seconds = (performance.now() - start) / 1000;
    await transport.close();
    if (sent !== MESSAGES) throw new Error(`worker sent ${sent} of ${MESSAGES}`);
    return MESSAGES / seconds;
  }

  await baseline(); // warm-up: connections, JIT
  const rows: string[] = [];
  const ratios: number[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    const b = await baseline();
    const w = await worker();
    ratios.push(w / b);
    rows.push(`| ${r} | ${fmt(b)} | ${fmt(w)} | ${fmt(w / b, 2)}× |`);
  }
  const failed = await bench.database.db
    .selectFrom('outgoing_mail')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('status', '!=', 'sent')
    .executeTakeFirstOrThrow();
  if (Number(failed.n) > 0) warnOrFail(console.error, `${Number(failed.n)} queued messages not sent`);
  const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
  const report = [
    `### Mail (${bench.engine})${MODE_LABEL}`,
    '',
    `${bench.describe}; ${MESSAGES} messages per side per round, ${IN_FLIGHT} in flight, pooled SMTP (4 connections) to smtp-server on loopback; ${revision()}; load ${loadNow()}.`,
    '',
    '| round | nodemailer alone (msg/s) | worker from the queue (msg/s) | ratio |',
    '|---|---|---|---|',
    ...rows,
    '',
    `Median ratio ${fmt(median, 2)}× (target ≥ 0.5×). Messages received by the server: ${received}; queue rows not sent: ${Number(failed.n)}.`,
    '',
  ].join('\n');
  console.log(report);
  saveReport(`mail-${bench.engine}.md`, report);
  await bench.drop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
