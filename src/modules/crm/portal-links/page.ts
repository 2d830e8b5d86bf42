// The customer portal page (docs/api-decisions.md, Customer portal): GET /share/portal/<token>
// shows the customer's jobs under the workspace's name, each with its messages (the most recent
// 100, oldest first). Under each job the customer can answer (a message signed with the
// customer's name) or comment on the map of the job's site: no script, so the spot is given by
// its latitude and longitude (typed, or copied from a phone's map app), and each map comment links
// to the point on OpenStreetMap. Posts answer 303 back to the job (post, redirect, get); a blank or
// over-long message or a point off the globe shows the form again (400) with what was typed; past
// the link's allowance of posts the page answers 429. A link turned off or rotated, or a
// workspace with the portal off, answers 410.
import type { FastifyReply } from 'fastify';
import { type Static, Type } from '@sinclair/typebox';
import { type Portal, type PortalJob, postCustomerMessage, visitPortal } from './visit.ts';
import { MESSAGE_MAX } from '#crm/portal-messages/schemas.ts';
import type { PortalMessage } from '#crm/portal-messages/serialize.ts';
import { zWire } from '#platform/time.ts';
import { acceptForms, formBody } from '#pages/form.ts';
import { sendGone, sendUnknownLink } from '#pages/gone.ts';
import { html, type Html } from '#platform/html.ts';
import { type PageModule, pageScope, TokenParams } from '#pages/pages.ts';
import { sendPage } from '#pages/respond.ts';

/** A job of the portal: an id that is not a positive integer names none (the unknown-link page). */
const JobParams = Type.Object({ ...TokenParams.properties, job_id: Type.Integer({ minimum: 1 }) });
const MessageForm = formBody('body', 'latitude', 'longitude');

const pathOf = (token: string) => `/share/portal/${token}`;

type FormKind = 'reply' | 'map';

interface Problem {
  jobId: number;
  form: FormKind;
  message: string;
  typed: { body: string; latitude: string; longitude: string };
}

/** When a message was posted, in UTC to the minute ("2026-11-24 05:30 UTC"). */
function postedAt(stored: string): string {
  return `${zWire(stored).slice(0, 16).replace('T', ' ')} UTC`;
}

function osmLink(lat: number, lng: number): string {
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=19/${lat}/${lng}`;
}

function messageItem(m: PortalMessage): Html {
  const mapLine =
    m.map_comment === 1 && m.latitude !== null && m.longitude !== null
      ? html`<p class="muted map-point">Map comment at ${m.latitude.toFixed(6)}, ${m.longitude.toFixed(6)}${
          m.location_name ? html` on ${m.location_name}` : null
        } · <a href="${osmLink(m.latitude, m.longitude)}" rel="noopener noreferrer" target="_blank">View on map</a></p>`
      : null;
  return html`<li class="${m.author_type === 'customer' ? 'from-customer' : 'from-staff'}">
<span class="who">${m.author_name}</span> <span class="muted">${postedAt(m.created_at)}</span>
${mapLine}<p class="body">${m.body}</p></li>`;
}

function jobSection(token: string, job: PortalJob, problem: Problem | null): Html {
  const mine = problem?.jobId === job.id ? problem : null;
  const typed = (form: FormKind, field: keyof Problem['typed']) => (mine?.form === form ? mine.typed[field] : '');
  const error = (form: FormKind) =>
    mine?.form === form ? html`<p class="error" role="alert">${mine.message}</p>` : null;
  const base = `${pathOf(token)}/jobs/${job.id}`;
  return html`<section class="job" id="job-${job.id}">
<h2>${job.name}</h2>
${job.address ? html`<p class="muted">${job.address}</p>` : null}
${
  job.messages.length > 0
    ? html`<ol class="thread">${job.messages.map(messageItem)}</ol>`
    : html`<p class="muted">No messages yet.</p>`
}
<form class="wide reply" method="post" action="${base}/messages">
<label for="reply-${job.id}">Your reply</label>
<textarea id="reply-${job.id}" name="body" required maxlength="${MESSAGE_MAX}">${typed('reply', 'body')}</textarea>
${error('reply')}
<button type="submit">Send reply</button>
</form>
<details${mine?.form === 'map' ? html` open` : null}>
<summary>Comment on the map of ${job.siteName ?? 'the site'}</summary>
<form class="wide map" method="post" action="${base}/map-comments">
<p class="muted">Give the spot by its coordinates: in your phone's map app, press and hold the spot to see them, then type them here.</p>
<label for="lat-${job.id}">Latitude</label>
<input id="lat-${job.id}" name="latitude" type="number" step="any" min="-90" max="90" required inputmode="decimal" value="${typed('map', 'latitude')}">
<label for="lng-${job.id}">Longitude</label>
<input id="lng-${job.id}" name="longitude" type="number" step="any" min="-180" max="180" required inputmode="decimal" value="${typed('map', 'longitude')}">
<label for="map-${job.id}">Your comment</label>
<textarea id="map-${job.id}" name="body" required maxlength="${MESSAGE_MAX}">${typed('map', 'body')}</textarea>
${error('map')}
<button type="submit">Post map comment</button>
</form>
</details>
</section>`;
}

function sendPortal(reply: FastifyReply, token: string, portal: Portal, problem: Problem | null, status = 200) {
  return sendPage(reply, {
    status,
    title: `Projects for ${portal.customerName}`,
    from: portal.firmName,
    body: html`<p>Messages between you and ${portal.firmName} about your projects. Your replies go to their team.</p>
${
  portal.jobs.length > 0
    ? portal.jobs.map((j) => jobSection(token, j, problem))
    : html`<p class="muted">There are no projects here yet.</p>`
}`,
  });
}

function minutes(seconds: number): string {
  const n = Math.max(1, Math.ceil(seconds / 60));
  return `${n} minute${n === 1 ? '' : 's'}`;
}

/** A coordinate typed on the form: a finite number within ±limit, else null. */
function coordinate(text: string, limit: number): number | null {
  const t = text.trim();
  if (!/^[-+]?\d+(\.\d+)?$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : null;
}

export const portalPage: PageModule = (app, env) => {
  pageScope(app, (scope) => {
    // Up to 12 bytes a character once percent-encoded (an emoji), and the other fields.
    acceptForms(scope, MESSAGE_MAX * 12 + 1024);

    scope.get('/share/portal/:token', { schema: { params: TokenParams } }, async (request, reply) => {
      const { token } = request.params;
      const visit = await visitPortal(env.database.db, token);
      if (visit.state === 'unknown') return sendUnknownLink(reply);
      if (visit.state === 'gone') return sendGone(reply, visit.why);
      return sendPortal(reply, token, visit.portal, null);
    });

    const post = async (
      form: FormKind,
      { token, job_id: jobId }: Static<typeof JobParams>,
      fields: Static<typeof MessageForm>,
      reply: FastifyReply,
    ) => {
      const visit = await visitPortal(env.database.db, token);
      if (visit.state === 'unknown') return sendUnknownLink(reply);
      if (visit.state === 'gone') return sendGone(reply, visit.why);
      const { portal } = visit;
      if (!portal.jobs.some((j) => j.id === jobId)) return sendUnknownLink(reply);
      const typed = {
        body: fields.body ?? '',
        latitude: fields.latitude ?? '',
        longitude: fields.longitude ?? '',
      };
      const refuse = (message: string) => sendPortal(reply, token, portal, { jobId, form, message, typed }, 400);
      const body = typed.body.trim();
      if (body === '') return refuse('Write a message first.');
      if (Array.from(body).length > MESSAGE_MAX)
        return refuse(`Messages can be at most ${MESSAGE_MAX.toLocaleString('en-US')} characters.`);
      let point: { latitude: number; longitude: number } | null = null;
      if (form === 'map') {
        const latitude = coordinate(typed.latitude, 90);
        const longitude = coordinate(typed.longitude, 180);
        if (latitude === null || longitude === null)
          return refuse(
            'Give the latitude (−90 to 90) and longitude (−180 to 180) as numbers, like 40.7128 and −74.006.',
          );
        point = { latitude, longitude };
      }
      const result = await postCustomerMessage(env.database, env.deps.mail, portal, jobId, body, point);
      if (result.result === 'no_job') return sendUnknownLink(reply);
      if (result.result === 'limited') {
        reply.header('retry-after', String(result.retryAfterSeconds));
        return sendPage(reply, {
          status: 429,
          title: 'Too many messages',
          from: portal.firmName,
          body: html`<p>Too many messages were sent from this page.</p><p>Try again in ${minutes(
            result.retryAfterSeconds,
          )}, or contact ${portal.firmName} directly.</p>`,
        });
      }
      return reply
        .status(303)
        .header('cache-control', 'no-store')
        .header('location', `${pathOf(token)}#job-${jobId}`)
        .send();
    };

    const schema = { params: JobParams, body: MessageForm };
    scope.post('/share/portal/:token/jobs/:job_id/messages', { schema }, (request, reply) =>
      post('reply', request.params, request.body, reply),
    );
    scope.post('/share/portal/:token/jobs/:job_id/map-comments', { schema }, (request, reply) =>
      post('map', request.params, request.body, reply),
    );
  });
};
