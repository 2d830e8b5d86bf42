// Sending a customer page: the HTML with the headers every page kind shares (GUIDE "Customer
// pages"). The Content-Security-Policy allows the page's own inline style (by a nonce made for this
// answer), images from this server and from the origins the page names (an S3 endpoint serving
// presigned photo links), forms posted back to this server, and nothing else: no script, no frame,
// no plugin, no other origin. A page that needs a script (the proposal's signature pad) brings it
// inline, and only its answer allows script, by the same nonce.
import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { HtmlValue } from '#platform/html.ts';
import { layout } from './layout.ts';

export interface PageAnswer {
  status?: number;
  title: string;
  /** The workspace that sent the link, shown in the header. */
  from?: string | null;
  body: HtmlValue;
  /** Absolute URLs of the images the page shows (their origins join img-src). */
  images?: readonly string[];
  /** CSS of the page's own, after the shared stylesheet (our code or validated values only). */
  style?: string;
  /** An inline script the page needs (our code only); its answer then allows script by the nonce. */
  script?: string;
}

function policy(nonce: string, images: readonly string[], script: boolean): string {
  const origins = new Set<string>();
  for (const url of images) {
    const origin = new URL(url).origin;
    if (origin !== 'null') origins.add(origin);
  }
  const img = ["'self'", ...origins].join(' ');
  return [
    "default-src 'none'",
    ...(script ? [`script-src 'nonce-${nonce}'`] : []),
    `style-src 'nonce-${nonce}'`,
    `img-src ${img}`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function sendPage(reply: FastifyReply, answer: PageAnswer): FastifyReply {
  const nonce = randomBytes(16).toString('base64');
  const document = layout({
    title: answer.title,
    from: answer.from,
    body: answer.body,
    nonce,
    style: answer.style,
    script: answer.script,
  });
  return privately(reply)
    .status(answer.status ?? 200)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', policy(nonce, answer.images ?? [], answer.script !== undefined))
    .send(document.markup);
}

/** What every answer behind a customer link carries: no referrer, no indexing, no cache. */
function privately(reply: FastifyReply): FastifyReply {
  return (
    reply
      .header('referrer-policy', 'no-referrer')
      .header('x-robots-tag', 'noindex, nofollow')
      // A page carries links that expire and may sit behind an access code: no cache keeps it.
      .header('cache-control', 'no-store')
  );
}

/** A document a page offers (an invoice's PDF), shown in the browser, with the pages' headers. */
export function sendPageFile(
  reply: FastifyReply,
  file: { contentType: string; filename: string; body: Buffer },
): FastifyReply {
  return privately(reply)
    .header('content-type', file.contentType)
    .header('content-disposition', `inline; filename="${file.filename}"`)
    .send(file.body);
}
