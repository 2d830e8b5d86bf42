// Every message's two bodies come from one content description, so the plain-text and HTML parts
// always say the same thing. Values are escaped in the HTML part (pages/html.ts), so a lead's name
// or a reminder's title can never become markup in a teammate's or a customer's mail program.
import { html, type Html } from '#platform/html.ts';

export interface MailContent {
  subject: string;
  /** Opening line ("Hi Dana,"). */
  greeting?: string;
  /** Paragraphs of plain text, in order. */
  paragraphs: readonly string[];
  /** Label and value rows (Name, Phone, Services …); empty values are left out. */
  facts?: readonly (readonly [string, string | null | undefined])[];
  /** The one link the message is about. */
  action?: { label: string; url: string };
  /** Customer mail names the workspace that sent it (customerFooter). */
  footer?: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** The footer of every message to a customer: who sent it and why they got it. */
export function customerFooter(workspaceName: string): string {
  return `Sent by ${workspaceName}. Reply to this email to reach them.`;
}

/** The footer of mail to a teammate. */
export function teammateFooter(workspaceName: string): string {
  return `You get this because you are a teammate in ${workspaceName} on Groundwork.`;
}

function factsOf(content: MailContent): [string, string][] {
  return (content.facts ?? []).filter((f): f is [string, string] => typeof f[1] === 'string' && f[1].trim() !== '');
}

function textOf(content: MailContent): string {
  const parts: string[] = [];
  if (content.greeting) parts.push(content.greeting);
  parts.push(...content.paragraphs);
  const facts = factsOf(content);
  if (facts.length > 0) parts.push(facts.map(([label, value]) => `${label}: ${value}`).join('\n'));
  if (content.action) parts.push(`${content.action.label}: ${content.action.url}`);
  if (content.footer) parts.push(`--\n${content.footer}`);
  return `${parts.join('\n\n')}\n`;
}

function htmlOf(content: MailContent): string {
  const facts = factsOf(content);
  const body: Html = html`<!doctype html>
<html><head><meta charset="utf-8"><title>${content.subject}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2933;max-width:600px">
${content.greeting ? html`<p>${content.greeting}</p>` : ''}
${content.paragraphs.map((p) => html`<p>${p}</p>\n`)}
${
  facts.length > 0
    ? html`<table cellpadding="4" style="border-collapse:collapse">${facts.map(
        ([label, value]) =>
          html`<tr><th align="left" style="color:#52606d;font-weight:normal">${label}</th><td>${value}</td></tr>`,
      )}</table>`
    : ''
}
${
  content.action
    ? html`<p><a href="${content.action.url}" style="display:inline-block;padding:10px 18px;background:#1f6feb;color:#fff;text-decoration:none;border-radius:4px">${content.action.label}</a></p>`
    : ''
}
${content.footer ? html`<hr style="border:none;border-top:1px solid #e4e7eb"><p style="color:#7b8794;font-size:13px">${content.footer}</p>` : ''}
</body></html>
`;
  return body.markup;
}

export function renderMail(content: MailContent): RenderedMail {
  return { subject: content.subject, text: textOf(content), html: htmlOf(content) };
}
