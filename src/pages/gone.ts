// The pages a link shows when it cannot show its content: 410 for a link that expired or was
// turned off, rotated, replaced or revoked (each says so, and that the sender can make a new
// one), 404 for a token that was never a link. Neither names the workspace or the record: whoever
// holds a dead link learns nothing from it.
import type { FastifyReply } from 'fastify';
import { html } from '#platform/html.ts';
import type { RetiredReason } from '#platform/customer-links.ts';
import { sendPage } from './respond.ts';

const WHY: Record<RetiredReason | 'expired', string> = {
  expired: 'This link has expired.',
  disabled: 'This link has been turned off by the sender.',
  rotated: 'This link has been replaced by a newer one.',
  replaced: 'This link has been replaced by a newer one.',
  revoked: 'This link has been revoked by the sender.',
};

export function sendGone(reply: FastifyReply, why: RetiredReason | 'expired'): FastifyReply {
  return sendPage(reply, {
    status: 410,
    title: 'Link no longer available',
    body: html`<p>${WHY[why]}</p><p class="muted">Ask the company that sent it for a new link.</p>`,
  });
}

export function sendUnknownLink(reply: FastifyReply): FastifyReply {
  return sendPage(reply, {
    status: 404,
    title: 'Link not found',
    body: html`<p>This link does not exist. Check that it was copied whole.</p>`,
  });
}
