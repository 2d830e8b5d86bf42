// The photo report page (document 2, Photo report link): GET /share/photos/<token> shows the
// job's external photos marked for reports, in gallery order, under the workspace's name. A link
// with an access code first shows a form; POSTing the right code sets a cookie for this link's path
// only (HttpOnly, SameSite=Lax) and sends the visitor back to the photos (303). Wrong codes
// count against the link (field/photo-share-links/access.ts): past the allowance the page answers
// 429 until the window has passed. A link turned off or replaced, or expired, answers its 410 page.
import type { FastifyReply } from 'fastify';
import type { LinkSender } from './shared.ts';
import { checkAccessCode, mayView, photosOfReport, visitReport } from './visit.ts';
import { originOf } from '#platform/routes.ts';
import { acceptForms, cookieOf, formBody } from '#pages/form.ts';
import { sendGone, sendUnknownLink } from '#pages/gone.ts';
import { html } from '#platform/html.ts';
import { type PageModule, pageScope, TokenParams } from '#pages/pages.ts';
import { photoGallery } from './gallery.ts';
import { sendPage } from '#pages/respond.ts';

const CodeForm = formBody('code');

/** The cookie a right access code sets, scoped to the link's own path. */
export const PHOTO_PASS_COOKIE = 'photo_pass';

const pathOf = (token: string) => `/share/photos/${token}`;

function sendCodeForm(
  reply: FastifyReply,
  sender: LinkSender,
  token: string,
  problem: { status: number; message: string } | null,
): FastifyReply {
  return sendPage(reply, {
    status: problem?.status ?? 200,
    title: 'Site photos',
    from: sender.firmName,
    body: html`<p>${sender.firmName} protected these photos with an access code. Enter the code they gave you.</p>
<form method="post" action="${pathOf(token)}">
<label for="code">Access code</label>
<input id="code" name="code" type="text" required maxlength="64" autocomplete="off" autocapitalize="none" spellcheck="false" autofocus>
${problem ? html`<p class="error" role="alert">${problem.message}</p>` : null}
<button type="submit">View photos</button>
</form>`,
  });
}

function minutes(seconds: number): string {
  const n = Math.max(1, Math.ceil(seconds / 60));
  return `${n} minute${n === 1 ? '' : 's'}`;
}

export const photoReportPage: PageModule = (app, env) => {
  pageScope(app, (scope) => {
    acceptForms(scope);

    scope.get('/share/photos/:token', { schema: { params: TokenParams } }, async (request, reply) => {
      const { token } = request.params;
      const visit = await visitReport(env.database, token);
      if (visit.state === 'unknown') return sendUnknownLink(reply);
      if (visit.state === 'gone') return sendGone(reply, visit.why);
      const { link, sender } = visit;
      if (!(await mayView(env.deps.links, link, cookieOf(request, PHOTO_PASS_COOKIE))))
        return sendCodeForm(reply, sender, token, null);
      const gallery = await photoGallery(
        env.deps.storage,
        await photosOfReport(env.database, link),
        originOf(request),
        sender.timezone,
        'No photos have been shared here yet.',
      );
      return sendPage(reply, {
        title: `Photos: ${sender.jobName}`,
        from: sender.firmName,
        body: gallery.body,
        images: gallery.images,
      });
    });

    scope.post('/share/photos/:token', { schema: { params: TokenParams, body: CodeForm } }, async (request, reply) => {
      const { token } = request.params;
      const visit = await visitReport(env.database, token);
      if (visit.state === 'unknown') return sendUnknownLink(reply);
      if (visit.state === 'gone') return sendGone(reply, visit.why);
      const { link, sender } = visit;
      const back = () => reply.status(303).header('cache-control', 'no-store').header('location', pathOf(token)).send();
      if (link.access_code_hash === null) return back();
      const code = (request.body.code ?? '').trim();
      if (code === '') return sendCodeForm(reply, sender, token, { status: 400, message: 'Enter the access code.' });
      const check = await checkAccessCode(env.database, env.deps.links, link, code);
      if (check.result === 'locked') {
        reply.header('retry-after', String(check.retryAfterSeconds));
        return sendPage(reply, {
          status: 429,
          title: 'Too many tries',
          from: sender.firmName,
          body: html`<p>Too many wrong access codes were entered for this link.</p><p>Try again in ${minutes(
            check.retryAfterSeconds,
          )}, or ask ${sender.firmName} for the code.</p>`,
        });
      }
      if (check.result === 'wrong')
        return sendCodeForm(reply, sender, token, { status: 401, message: 'That access code is not right.' });
      const secure = request.protocol === 'https' ? '; Secure' : '';
      reply.header(
        'set-cookie',
        `${PHOTO_PASS_COOKIE}=${check.pass}; Path=${pathOf(token)}; HttpOnly; SameSite=Lax${secure}`,
      );
      return back();
    });
  });
};
