// The mail worker: a background task (worker/runner.ts) that claims queued messages with a lease,
// hands them to the transport a few at a time, and records each outcome. A worker killed mid-send
// lets its lease run out and the next sweep sends the message again (at least once; the
// Message-ID stays the same, so a receiving server or mail program can tell a repeat). A refused
// connection or a 4xx is tried again on a backoff; a 5xx refusal, or the last attempt, is `failed`
// with the server's answer in last_error, which the operator reads (GET /admin/v1/mail).
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '#db/database.ts';
import type { Clock } from '#platform/clock.ts';
import { now, storedAt } from '#platform/time.ts';
import { whenWorkQueued } from '#platform/work-queued.ts';
import type { BackgroundTask } from '#worker/index.ts';
import { MAIL_QUEUE } from './queue.ts';
import { MailSendError, sendWithin, type MailTransport } from './transport.ts';

const MINUTE = 60_000;
/** After failure n the next attempt waits RETRY_DELAYS_MS[n-1]: about 19 hours in all. */
export const MAIL_RETRY_DELAYS_MS = [
  1 * MINUTE,
  5 * MINUTE,
  15 * MINUTE,
  60 * MINUTE,
  240 * MINUTE,
  720 * MINUTE,
] as const;
export const MAIL_MAX_ATTEMPTS = MAIL_RETRY_DELAYS_MS.length + 1;

export interface MailWorkerOptions {
  clock: Clock;
  leaseMs: number;
  /** Messages handed to the transport at once. */
  concurrency?: number;
  /** Per-message limit (at most a third of the lease): a hung server is a failed attempt. */
  timeoutMs?: number;
}

interface Claimed {
  id: number;
  to_address: string;
  from_name: string | null;
  reply_to: string | null;
  subject: string;
  text_body: string;
  html_body: string;
  message_id: string;
  attempts: number;
  lease_token: string | null;
}

interface Outcome {
  claimed: Claimed;
  error: MailSendError | null;
  at: number;
}

export class MailWorker implements BackgroundTask {
  readonly name = 'mail';
  private readonly concurrency: number;

  constructor(
    private readonly database: Database,
    private readonly transport: MailTransport,
    private readonly options: MailWorkerOptions,
  ) {
    this.concurrency = options.concurrency ?? 8;
  }

  /** Inside `serve`, a commit that queued a message wakes the loop (platform/work-queued.ts). */
  wakeWhen(wake: () => void): () => void {
    return whenWorkQueued(MAIL_QUEUE, wake);
  }

  async sweep(): Promise<number> {
    // Two messages per lane at most, each given at most a third of the lease: a claimed batch is
    // always done (or given up) before its lease runs out, so a slow server never lets a second
    // worker take over messages this one is still sending.
    const claimed = await this.claim(this.concurrency * 2);
    if (claimed.length === 0) return 0;
    const outcomes: Outcome[] = [];
    let next = 0;
    const lane = async () => {
      while (next < claimed.length) {
        const c = claimed[next++]!;
        outcomes.push({ claimed: c, error: await this.attempt(c), at: this.options.clock.now() });
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, claimed.length) }, lane));
    await this.record(outcomes);
    return claimed.length;
  }

  /** Sweeps until nothing is due (tests and benchmarks). */
  async drain(): Promise<number> {
    let total = 0;
    for (let n = await this.sweep(); n > 0; n = await this.sweep()) total += n;
    return total;
  }

  private async attempt(c: Claimed): Promise<MailSendError | null> {
    const message = {
      to: c.to_address,
      fromName: c.from_name,
      replyTo: c.reply_to,
      subject: c.subject,
      text: c.text_body,
      html: c.html_body,
      messageId: c.message_id,
    };
    const limit = Math.min(this.options.timeoutMs ?? 60_000, Math.floor(this.options.leaseMs / 3));
    try {
      await sendWithin(this.transport, message, limit);
      return null;
    } catch (err) {
      return err instanceof MailSendError ? err : new MailSendError(String((err as Error)?.message ?? err), false);
    }
  }

  private async claim(limit: number): Promise<Claimed[]> {
    const at = this.options.clock.now();
    const due = storedAt(at);
    const token = randomUUID();
    return this.database.db.transaction().execute(async (trx) => {
      // `status = 'queued'` as a literal so both engines use the partial due index.
      let candidates = trx
        .selectFrom('outgoing_mail')
        .select('id')
        .where(sql<boolean>`status = 'queued'`)
        .where('next_attempt_at', '<=', due)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', due)]))
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(limit);
      // Several workers may sweep at once on PostgreSQL: each skips rows another is claiming.
      if (this.database.dialect.engine === 'postgres') candidates = candidates.forUpdate().skipLocked();
      const ids = (await candidates.execute()).map((r) => r.id);
      if (ids.length === 0) return [];
      await trx
        .updateTable('outgoing_mail')
        .set({ locked_until: storedAt(at + this.options.leaseMs), lease_token: token })
        .where('id', 'in', ids)
        .execute();
      return trx
        .selectFrom('outgoing_mail')
        .select([
          'id',
          'to_address',
          'from_name',
          'reply_to',
          'subject',
          'text_body',
          'html_body',
          'message_id',
          'attempts',
          'lease_token',
        ])
        .where('id', 'in', ids)
        .orderBy('id')
        .execute();
    });
  }

  /** Records outcomes in one transaction; one whose lease another worker took over is dropped. */
  private async record(outcomes: Outcome[]): Promise<void> {
    await this.database.db.transaction().execute(async (trx) => {
      for (const { claimed, error, at } of outcomes) {
        const attempts = claimed.attempts + 1;
        const giveUp = error !== null && (error.permanent || attempts >= MAIL_MAX_ATTEMPTS);
        await trx
          .updateTable('outgoing_mail')
          .set(
            error === null
              ? { status: 'sent', attempts, sent_at: now(), locked_until: null, lease_token: null, last_error: null }
              : {
                  status: giveUp ? 'failed' : 'queued',
                  attempts,
                  last_error: error.message.slice(0, 1000),
                  next_attempt_at: giveUp ? storedAt(at) : storedAt(at + MAIL_RETRY_DELAYS_MS[attempts - 1]!),
                  locked_until: null,
                  lease_token: null,
                },
          )
          .where('id', '=', claimed.id)
          .where('lease_token', '=', claimed.lease_token)
          .execute();
      }
    });
  }
}
