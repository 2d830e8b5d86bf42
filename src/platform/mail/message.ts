// One outgoing message as the mail code passes it around: who it goes to, the two bodies and the
// identity it keeps across retries. The envelope sender is the server's (GROUNDWORK_MAIL_FROM);
// `fromName` is the display name (the workspace's name), `replyTo` the acting teammate.
import { randomUUID } from 'node:crypto';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The display name on From (the workspace's name); the address is always the server's. */
  fromName?: string | null;
  /** Where answers go: the acting teammate's address. */
  replyTo?: string | null;
  /** `<…@…>`: set once when the message is made, so every retry sends the same message. */
  messageId: string;
}

/** A fresh Message-ID in the sender's domain (RFC 5322 §3.6.4). */
export function newMessageId(fromAddress: string): string {
  const domain = fromAddress.includes('@') ? fromAddress.slice(fromAddress.lastIndexOf('@') + 1) : 'localhost';
  return `<${randomUUID()}@${domain}>`;
}

/** What the server signs its mail with: GROUNDWORK_MAIL_FROM, or a local address that says where it came from. */
export const DEFAULT_MAIL_FROM = 'groundwork@localhost';
