// What a page answers when a request cannot be served: always an HTML page with the pages'
// headers, never the API's JSON. A token that fails its schema names no link (404, the same page
// as an unknown token); a form that fails its schema or carries NUL text (platform/text-guard.ts)
// is a 400 page saying what to do, and nothing was stored; a store that is down is a 503 page; the
// unexpected is logged and a 500 page.
import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError } from '#platform/errors.ts';
import { html } from '#platform/html.ts';
import { sendUnknownLink } from './gone.ts';
import { sendPage } from './respond.ts';

const problemPage = (status: number, title: string, text: string) => ({
  status,
  title,
  body: html`<p>${text}</p>`,
});

export function installPageErrors(scope: FastifyInstance): void {
  scope.setErrorHandler((err: FastifyError & { validationContext?: string }, request, reply) => {
    if (err.validation) {
      if (err.validationContext === 'params') return sendUnknownLink(reply);
      return sendPage(
        reply,
        problemPage(
          400,
          'The form could not be read',
          'What was sent does not match this page’s form. Go back, reload the page and try again.',
        ),
      );
    }
    if (err instanceof ApiError && err.status < 500) {
      const text =
        err.body.code === 'invalid_text'
          ? 'Your answer contains a character that cannot be saved (a NUL control character, often pasted by accident). Go back, remove it and send again. Nothing was saved.'
          : (err.body.message ?? err.body.error);
      return sendPage(reply, problemPage(err.status, 'The form could not be sent', text));
    }
    if (err instanceof ApiError && err.status === 503)
      return sendPage(
        reply,
        problemPage(503, 'Temporarily unavailable', 'This page cannot be shown right now. Try again in a few minutes.'),
      );
    const status = err.statusCode ?? 500;
    if (status === 413)
      return sendPage(
        reply,
        problemPage(413, 'Too much to send', 'What you sent is too large for this form. Shorten it and send again.'),
      );
    if (status >= 400 && status < 500)
      return sendPage(
        reply,
        problemPage(status, 'The request could not be read', 'Go back, reload the page and try again.'),
      );
    request.log.error({ err }, 'unhandled error on a customer page');
    return sendPage(
      reply,
      problemPage(500, 'Something went wrong', 'This page could not be shown. Try again in a few minutes.'),
    );
  });
}
