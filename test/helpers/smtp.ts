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

export async function startSmtpPeer(): Promise<SmtpPeer> {
  const received: ReceivedMail[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const stalled: (() => void)[] = [];
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
        for (const w of [...waiters]) if (received.length >= w.n) w.resolve();
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
    waitFor(n: number, timeoutMs = 10_000) {
      if (received.length >= n) return Promise.resolve(received);
      return new Promise<ReceivedMail[]>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`only ${received.length} of ${n} messages arrived`)),
          timeoutMs,
        );
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve(received);
          },
        });
      });
    },
    transport(from = 'quotes@groundwork.test', timeoutMs = 5_000) {
      return new SmtpTransport(url, from, { timeoutMs });
    },
    release() {
      for (const fail of stalled.splice(0)) fail();
    },
    async waitForStalled(n: number, timeoutMs = 10_000) {
      // Polled: a stalled message has reached the end of its DATA, which no event announces.
      const until = Date.now() + timeoutMs;
      while (stalled.length < n) {
        if (Date.now() > until) throw new Error(`only ${stalled.length} of ${n} messages stalled`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      for (const fail of stalled.splice(0)) fail();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
