// A message as MIME bytes (RFC 5322 with a multipart/alternative text and HTML body), built by
// nodemailer's composer so the outbox's .eml files and what SMTP carries are the same bytes.
import MailComposer from 'nodemailer/lib/mail-composer';
import type { MailMessage } from './message.ts';

export function mailOptions(message: MailMessage, fromAddress: string) {
  return {
    from: message.fromName ? { name: message.fromName, address: fromAddress } : fromAddress,
    to: message.to,
    replyTo: message.replyTo ?? undefined,
    subject: message.subject,
    text: message.text,
    html: message.html,
    messageId: message.messageId,
    date: new Date(),
  };
}

/** The complete message, as an .eml file holds it. */
export function composeMessage(message: MailMessage, fromAddress: string): Promise<Buffer> {
  const composer = new MailComposer(mailOptions(message, fromAddress));
  return new Promise((resolve, reject) => {
    composer.compile().build((err, raw) => (err ? reject(err) : resolve(raw)));
  });
}
