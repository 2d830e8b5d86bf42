// The production mail adapter: SMTP through nodemailer (GROUNDWORK_SMTP_URL, `smtp://` with
// STARTTLS when the server offers it, or `smtps://`; user and password in the URL). Connections are
// pooled so the worker does not open one per message.
import nodemailer, { type Transporter } from 'nodemailer';
import { mailOptions } from './compose.ts';
import type { MailMessage } from './message.ts';
import { MailSendError, type MailTransport, type SentMail } from './transport.ts';

export interface SmtpOptions {
  /** Connection, greeting and socket timeouts (ms): a hung server is a failed attempt, not a stuck worker. */
  timeoutMs?: number;
  /** Connections the pool keeps open at most. */
  maxConnections?: number;
}

/**
 * Tells a refusal (try no more) from a failure worth trying again (no connection, 4xx, timeout). A
 * refusal is the server's 5xx, or nodemailer's own EENVELOPE without a server reply: it refused the
 * envelope before sending (`No recipients defined` for "not an email", `Invalid recipient`), and the
 * same address will be refused every time.
 */
export function mailErrorOf(err: unknown): MailSendError {
  const e = err as { responseCode?: number; response?: string; code?: string; message?: string };
  const code = typeof e.responseCode === 'number' ? e.responseCode : null;
  const what = e.response ?? e.message ?? String(err);
  const detail = code === null && e.code ? `${e.code}: ${what}` : what;
  const permanent = code !== null ? code >= 500 : e.code === 'EENVELOPE';
  return new MailSendError(detail, permanent);
}

export class SmtpTransport implements MailTransport {
  readonly kind = 'smtp' as const;
  private readonly transporter: Transporter;

  constructor(
    url: string,
    readonly fromAddress: string,
    options: SmtpOptions = {},
  ) {
    const timeout = options.timeoutMs ?? 30_000;
    this.transporter = nodemailer.createTransport(url, {
      pool: true,
      maxConnections: options.maxConnections ?? 4,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    } as never);
  }

  async send(message: MailMessage): Promise<SentMail> {
    try {
      const info = await this.transporter.sendMail(mailOptions(message, this.fromAddress));
      return { response: String(info.response ?? 'sent') };
    } catch (err) {
      throw mailErrorOf(err);
    }
  }

  async close(): Promise<void> {
    this.transporter.close();
  }
}
