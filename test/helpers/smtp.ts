// A real SMTP server on loopback (smtp-server) for mail tests: it accepts (or refuses, or stalls)
// what the server's transport sends and keeps each message parsed by mailparser, so tests read the
// headers and text a mail program would show.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { SmtpTransport } from '#platform/mail/smtp.ts';

export interface ReceivedMail {
  parsed: ParsedMail;
  raw: string;
  /** Whether the session had switched to TLS (STARTTLS) before the message. */
  secure: boolean;
  envelopeFrom: string | null;
  envelopeTo: string[];
}

export interface SmtpPeer {
  port: number;
  url: string;
  received: ReceivedMail[];
  /** Recipients answered 550 (a bounce the server gives at RCPT TO). */
  refuse: Set<string>;
  /** While set, DATA is never answered (a hung server). */
  stall: boolean;
  /** Answers every stalled DATA with a failure (the hung sessions end). */
  release(): void;
  /** Resolves once `n` messages are held unanswered by `stall`. */
  waitForStalled(n: number, timeoutMs?: number): Promise<void>;
  /** Resolves once `n` messages have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** A transport aimed at this server (self-signed STARTTLS accepted). */
  transport(from?: string, timeoutMs?: number): SmtpTransport;
  close(): Promise<void>;
}

/** Waits on a list that grows: `wait(n)` resolves once it holds `n`; `grew()` is called on each add. */
function growing(list: readonly unknown[], what: string) {
  const waiters: { n: number; resolve: () => void }[] = [];
  return {
    grew() {
      for (const w of [...waiters]) if (list.length >= w.n) w.resolve();
    },
    wait(n: number, timeoutMs: number): Promise<void> {
      if (list.length >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${list.length} of ${n} messages ${what}`)), timeoutMs);
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
  };
}

export async function startSmtpPeer(): Promise<SmtpPeer> {
  const received: ReceivedMail[] = [];
  const stalled: (() => void)[] = [];
  const arrivals = growing(received, 'arrived');
  const stalls = growing(stalled, 'stalled');
  const peer = {
    refuse: new Set<string>(),
    stall: false,
  };
  const server = new SMTPServer({
    authOptional: true,
    logger: false,
    // smtp-server offers STARTTLS with its built-in self-signed certificate.
    onRcptTo(address, _session, callback) {
      if (peer.refuse.has(address.address.toLowerCase())) {
        const err = new Error(`5.1.1 <${address.address}>: Recipient address rejected: User unknown`) as Error & {
          responseCode: number;
        };
        err.responseCode = 550;
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        if (peer.stall) {
          stalled.push(() => callback(new Error('closing')));
          stalls.grew();
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          parsed: await simpleParser(raw),
          raw,
          secure: session.secure,
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
        });
        arrivals.grew();
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const port = (server.server.address() as AddressInfo).port;
  const url = `smtp://127.0.0.1:${port}?tls.rejectUnauthorized=false`;
  return Object.assign(peer, {
    port,
    url,
    received,
    async waitFor(n: number, timeoutMs = 10_000) {
      await arrivals.wait(n, timeoutMs);
      return received;
    },
    transport(from = 'quotes@groundwork.test', timeoutMs = 5_000) {
      return new SmtpTransport(url, from, { timeoutMs });
    },
    release() {
      for (const fail of stalled.splice(0)) fail();
    },
    waitForStalled(n: number, timeoutMs = 10_000) {
      return stalls.wait(n, timeoutMs);
    },
    async close() {
      for (const fail of stalled.splice(0)) fail();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
