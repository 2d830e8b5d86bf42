// The review page (document 2, Review): GET /share/reviews/<token> asks the customer for 1 to 5
// stars and a few words, and whether the workspace may show the review publicly (is_public). No
// script: the stars are radio buttons. POSTing writes the review once (submitted, submitted_at)
// and answers 303 back to the page, which then shows a thank-you; a review already written cannot
// be written again (409 with the thank-you). A missing or out-of-range rating or over-long words
// show the form again (400) with what was typed.
import type { FastifyReply } from 'fastify';
import type { Review } from './serialize.ts';
import { REVIEW_CONTENT_MAX, submitReview, visitReview } from './visit.ts';
import { acceptForms, formBody } from '#pages/form.ts';
import { sendUnknownLink } from '#pages/gone.ts';
import { html, type Html } from '#platform/html.ts';
import { type PageModule, pageScope, TokenParams } from '#pages/pages.ts';
import { sendPage } from '#pages/respond.ts';

const ReviewForm = formBody('rating', 'content', 'is_public');

const pathOf = (token: string) => `/share/reviews/${token}`;

const WORDS = ['', 'Poor', 'Fair', 'Good', 'Very good', 'Excellent'];
const stars = (n: number) => '★'.repeat(n) + '☆'.repeat(5 - n);

function thanks(review: Review): Html {
  return html`<p class="thanks">Thank you for your review${review.client_name ? html`, ${review.client_name}` : null}.</p>
<p><span class="badge" aria-label="${review.rating ?? 0} of 5 stars">${stars(review.rating ?? 0)}</span></p>
${review.content ? html`<p class="notes">${review.content}</p>` : null}
<p class="muted">${review.is_public === 1 ? 'You allowed it to be shared publicly.' : 'It stays private.'}</p>`;
}

function form(
  token: string,
  firmName: string,
  typed: { rating: string; content: string; isPublic: boolean },
  problem: string | null,
): Html {
  return html`<p>How did ${firmName} do? Your review goes to their team.</p>
<form class="wide" method="post" action="${pathOf(token)}">
<fieldset class="stars"><legend>Your rating</legend>
${[5, 4, 3, 2, 1].map(
  (n) =>
    html`<label><input type="radio" name="rating" value="${n}" required${
      typed.rating === String(n) ? html` checked` : null
    }> <span aria-hidden="true">${stars(n)}</span> ${n} – ${WORDS[n]}</label>`,
)}
</fieldset>
<label for="content">Your review</label>
<textarea id="content" name="content" maxlength="${REVIEW_CONTENT_MAX}">${typed.content}</textarea>
<label class="check"><input type="checkbox" name="is_public" value="yes"${typed.isPublic ? html` checked` : null}> ${firmName} may share my review publicly</label>
${problem ? html`<p class="error" role="alert">${problem}</p>` : null}
<button type="submit">Send review</button>
</form>`;
}

export const reviewPage: PageModule = (app, env) => {
  pageScope(app, (scope) => {
    // Up to 12 bytes a character once percent-encoded (an emoji), and the other fields.
    acceptForms(scope, REVIEW_CONTENT_MAX * 12 + 1024);

    const show = (reply: FastifyReply, firmName: string, jobName: string, body: Html, status = 200) =>
      sendPage(reply, { status, title: `Review: ${jobName}`, from: firmName, body });

    scope.get('/share/reviews/:token', { schema: { params: TokenParams } }, async (request, reply) => {
      const { token } = request.params;
      const visit = await visitReview(env.database, token);
      if (visit.state === 'unknown') return sendUnknownLink(reply);
      const { review, firmName, jobName } = visit;
      if (review.submitted === 1) return show(reply, firmName, jobName, thanks(review));
      return show(reply, firmName, jobName, form(token, firmName, { rating: '', content: '', isPublic: false }, null));
    });

    scope.post(
      '/share/reviews/:token',
      { schema: { params: TokenParams, body: ReviewForm } },
      async (request, reply) => {
        const { token } = request.params;
        const visit = await visitReview(env.database, token);
        if (visit.state === 'unknown') return sendUnknownLink(reply);
        const { review, firmName, jobName } = visit;
        const already = () =>
          show(
            reply,
            firmName,
            jobName,
            html`<p class="error" role="alert">This review was already sent; it cannot be changed.</p>${thanks(review)}`,
            409,
          );
        if (review.submitted === 1) return already();
        const typed = {
          rating: (request.body.rating ?? '').trim(),
          content: request.body.content ?? '',
          isPublic: (request.body.is_public ?? '') === 'yes',
        };
        const refuse = (message: string) => show(reply, firmName, jobName, form(token, firmName, typed, message), 400);
        if (!/^[1-5]$/.test(typed.rating)) return refuse('Choose from 1 to 5 stars.');
        const content = typed.content.trim();
        if (Array.from(content).length > REVIEW_CONTENT_MAX)
          return refuse(`Reviews can be at most ${REVIEW_CONTENT_MAX.toLocaleString('en-US')} characters.`);
        const wrote = await submitReview(env.database, env.deps.mail, review.id, {
          rating: Number(typed.rating),
          content: content === '' ? null : content,
          isPublic: typed.isPublic,
        });
        if (!wrote) {
          const again = await visitReview(env.database, token);
          if (again.state === 'open') return show(reply, firmName, jobName, thanks(again.review), 409);
        }
        return reply.status(303).header('cache-control', 'no-store').header('location', pathOf(token)).send();
      },
    );
  });
};
