// The mail transport: one small interface with the embedded default (an outbox folder of .eml
// files, outbox.ts) and SMTP (smtp.ts, nodemailer) when GROUNDWORK_SMTP_URL is set (select.ts).
import { ApiError } from '#platform/errors.ts';
import type { MailMessage } from './message.ts';

export interface MailTransport {
  /** `outbox` or `smtp`, for the operator. */
  readonly kind: 'outbox' | 'smtp';
  /** The envelope and From address (GROUNDWORK_MAIL_FROM). */
  readonly fromAddress: string;
  /** Hands the message on; throws MailSendError when it could not. */
  send(message: MailMessage): Promise<SentMail>;
  /** Closes pooled connections (on stop). */
  close(): Promise<void>;
}

export interface SentMail {
  /** The peer's answer (`250 2.0.0 Ok: queued`), or where the outbox wrote the message. */
  response: string;
}

/**
 * Why a message did not go. `permanent` is a refusal that sending again will not change (an SMTP
 * 5xx: unknown recipient, rejected sender); anything else (a refused connection, a timeout, a 4xx)
 * is worth another attempt later.
 */
export class MailSendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'MailSendError';
  }
}

/** Sends now, giving up after `timeoutMs` (calls whose answer reports the outcome: `emailed`, 502). */
export async function sendWithin(transport: MailTransport, message: MailMessage, timeoutMs: number): Promise<SentMail> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new MailSendError(`no answer in ${timeoutMs} ms from the mail server`, false)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([transport.send(message), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The 502 of a call that reports whether its email went (proposal, invoice and change-order sends):
 * the mail server did not take the message, so the call recorded nothing and may be sent again.
 */
export function mailNotDelivered(what: string, err: MailSendError, kept = 'nothing was recorded'): ApiError {
  return new ApiError(502, `${what} email not delivered`, {
    code: 'mail_not_delivered',
    message: `The mail server did not take the message (${err.message}); ${kept}, send again`,
    retryable: !err.permanent,
  });
}
