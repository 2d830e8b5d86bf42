// Which mail transport a process uses: SMTP when GROUNDWORK_SMTP_URL is set, the outbox otherwise.
import { DEFAULT_MAIL_FROM } from './message.ts';
import { OutboxTransport } from './outbox.ts';
import { SmtpTransport } from './smtp.ts';
import type { MailTransport } from './transport.ts';

export interface MailSettings {
  /** `smtp://user:pass@host:587` or `smtps://…:465`; null writes to the outbox. */
  smtpUrl: string | null;
  /** GROUNDWORK_MAIL_FROM. */
  from: string | null;
}

export function mailTransportFor(settings: MailSettings, dataDir: string): MailTransport {
  const from = settings.from ?? DEFAULT_MAIL_FROM;
  return settings.smtpUrl ? new SmtpTransport(settings.smtpUrl, from) : new OutboxTransport(dataDir, from);
}
