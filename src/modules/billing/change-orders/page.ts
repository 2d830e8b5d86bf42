// The change-order page (document 3, Change order: send "EMAILS CUSTOMER a review-and-sign link";
// GUIDE "Customer pages"): GET /share/change-orders/<token> shows what the change order changes
// (price with its tax, schedule, the contract total it makes) and, while it is sent, two forms:
// approve (typed name, the e-sign consent, an optional drawn signature) and decline (an optional
// comment); each answers 303 back to the page, which then shows the outcome. Everything works
// without script; the signature pad is the page's one script. A void change order's link says it
// was withdrawn (410); a change order moved back to a working stage says it is being revised.
import type { FastifyReply } from 'fastify';
import { signedMoney } from './figures.ts';
import { changeOrderPagePath } from './link.ts';
import type { ChangeOrderRow } from './repo.ts';
import {
  approveByCustomer,
  awaitsAnswer,
  type ChangeOrderDocument,
  type ChangeOrderVisit,
  declineByCustomer,
  recordOpen,
  type Sender,
  shownDocument,
  visitChangeOrder,
} from './visit.ts';
import { COMMENT_MAX } from './schemas.ts';
import { documentHash } from '#platform/signing/document-hash.ts';
import { formatCents } from '#platform/money.ts';
import { localWhen } from '#platform/time-zone.ts';
import { SIGNER_NAME_MAX } from '#platform/signing/e-sign.ts';
import { acceptForms, formBody } from '#pages/form.ts';
import { sendGone, sendUnknownLink } from '#pages/gone.ts';
import { html, type Html } from '#platform/html.ts';
import { type PageModule, pageScope, TokenParams } from '#pages/pages.ts';
import { sendPage } from '#pages/respond.ts';
import {
  consentCheckbox,
  declineDetails,
  formError,
  type Notice,
  SIGNATURE_SCRIPT,
  SIGNING_FORM_BYTES,
  signaturePadFields,
  signingStyle,
  visitorOf,
} from '#pages/signing.ts';

const ApproveForm = formBody('signature_name', 'consent', 'signature', 'document_hash');
const DeclineForm = formBody('comment');

const ACCENT = '#243b53';

/** What the customer typed, shown again when the form is refused. */
interface Typed {
  signatureName: string;
  consent: boolean;
  comment: string;
}

const NOTHING_TYPED: Typed = { signatureName: '', consent: false, comment: '' };

/** What the page says where the new contract total would be when the job has no signed contract. */
export const NO_CONTRACT = "No signed contract yet: the change's amount is shown on its own";

const days = (n: number) =>
  n === 0 ? 'No change' : `${n > 0 ? '+' : '−'}${Math.abs(n)} day${Math.abs(n) === 1 ? '' : 's'}`;

function terms(doc: ChangeOrderDocument): Html {
  const rows: [string, Html | string][] = [
    ['Change order', `#${doc.number}`],
    ['Job', doc.job],
    ...(doc.customer_name ? ([['Prepared for', doc.customer_name]] as [string, string][]) : []),
    [
      'Price change',
      html`<strong class="amount">${signedMoney(doc.amount_delta_cents)}</strong>${
        doc.tax_delta_cents !== 0
          ? html` <span class="muted">(tax ${signedMoney(doc.tax_delta_cents)} included)</span>`
          : null
      }`,
    ],
    ['Schedule change', days(doc.days_delta)],
    // With no signed contract (no accepted proposal) there is no total to show: saying so plainly
    // beats a figure from an estimate or a guess that the signed contract later contradicts.
    doc.revised_contract_cents !== null
      ? ['New contract total', formatCents(doc.revised_contract_cents)]
      : ['Contract', NO_CONTRACT],
  ];
  return html`<section class="doc-section" id="terms"><h2>${doc.title}</h2>
${doc.description ? html`<p class="notes">${doc.description}</p>` : null}
<dl class="facts-list">${rows.map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl>
</section>`;
}

function answerForms(token: string, hash: string, typed: Typed, notice: Notice | null): Html {
  const path = changeOrderPagePath(token);
  return html`<form class="wide answer approve" method="post" action="${path}/approve">
<input type="hidden" name="document_hash" value="${hash}">
<label for="signature_name">Your full name (your signature)</label>
<input id="signature_name" name="signature_name" required maxlength="${SIGNER_NAME_MAX}" autocomplete="name" value="${typed.signatureName}">
${signaturePadFields()}
${consentCheckbox(typed.consent)}
${formError(notice, 'sign')}
<button type="submit">Approve and sign</button>
</form>
${declineDetails({
  what: 'change order',
  action: `${path}/decline`,
  field: { name: 'comment', label: 'Comment', max: COMMENT_MAX, value: typed.comment },
  notice,
})}`;
}

function banner(co: ChangeOrderRow, sender: Sender): Html | null {
  if (co.status === 'approved')
    return co.approval_source === 'customer' && co.signed_at
      ? html`<p class="banner accepted outcome"><strong>Approved.</strong> Signed by ${co.signature_name} on ${localWhen(
          co.signed_at,
          sender.timezone,
        )}. ${sender.firmName} has the signed change order.</p>`
      : html`<p class="banner accepted outcome"><strong>Approved</strong>${co.approved_at ? ` on ${localWhen(co.approved_at, sender.timezone)}` : ''}. ${sender.firmName} recorded the approval.</p>`;
  if (co.status === 'declined')
    return html`<p class="banner rejected outcome"><strong>Declined</strong>${co.declined_at ? ` on ${localWhen(co.declined_at, sender.timezone)}` : ''}.${
      co.decision_comment ? html` Comment: “${co.decision_comment}”` : null
    } Contact ${sender.firmName} if you would like to discuss it.</p>`;
  if (co.status === 'draft')
    return html`<p class="banner draft">${sender.firmName} is revising this change order, so it cannot be approved here yet. They will send it again when it is ready.</p>`;
  return null;
}

interface Shown {
  token: string;
  co: ChangeOrderRow;
  sender: Sender;
  document: ChangeOrderDocument;
  typed?: Typed;
  notice?: Notice | null;
  status?: number;
}

function showChangeOrder(reply: FastifyReply, shown: Shown): FastifyReply {
  const { co, sender, document: doc, token } = shown;
  const notice = shown.notice ?? null;
  const answer = awaitsAnswer(co)
    ? html`<section class="doc-section" id="answer"><h2>Your answer</h2><p class="consent">${doc.consent_text}</p><p class="muted">Consent version ${doc.consent_version}</p>${answerForms(
        token,
        documentHash(doc),
        shown.typed ?? NOTHING_TYPED,
        notice,
      )}</section>`
    : null;
  return sendPage(reply, {
    status: shown.status ?? 200,
    title: `Change order #${co.co_number}`,
    from: sender.firmName,
    body: html`${banner(co, sender)}${
      notice?.at === 'page' ? html`<p class="error banner" role="alert">${notice.message}</p>` : null
    }<p class="muted">From ${sender.firmName}</p>${terms(doc)}${answer}`,
    style: signingStyle(ACCENT),
    ...(answer ? { script: SIGNATURE_SCRIPT } : {}),
  });
}

function sendWithdrawn(reply: FastifyReply, sender: Sender): FastifyReply {
  return sendPage(reply, {
    status: 410,
    title: 'Change order withdrawn',
    from: sender.firmName,
    body: html`<p>${sender.firmName} has withdrawn this change order, so it can no longer be viewed or approved.</p><p class="muted">If you expected a change order, ask ${sender.firmName} for the current one.</p>`,
  });
}

export const changeOrderPage: PageModule = (app, env) => {
  pageScope(app, (scope) => {
    acceptForms(scope, SIGNING_FORM_BYTES);
    const db = env.database.db;

    const closed = (reply: FastifyReply, visit: Exclude<ChangeOrderVisit, { state: 'open' }>) => {
      if (visit.state === 'unknown') return sendUnknownLink(reply);
      if (visit.state === 'gone') return sendGone(reply, visit.why);
      return sendWithdrawn(reply, visit.sender);
    };

    /** The page as the change order now is (the outcome, or the forms with a message). */
    const show = async (
      reply: FastifyReply,
      token: string,
      sender: Sender,
      shown: Omit<Shown, 'token' | 'sender' | 'document' | 'co'>,
    ) => {
      const visit = await visitChangeOrder(env.database, token);
      if (visit.state !== 'open') return closed(reply, visit);
      const co = visit.changeOrder;
      return showChangeOrder(reply, {
        ...shown,
        token,
        co,
        sender,
        document: await shownDocument(db, co, sender.firmName),
      });
    };

    scope.get('/share/change-orders/:token', { schema: { params: TokenParams } }, async (request, reply) => {
      const { token } = request.params;
      const visit = await visitChangeOrder(env.database, token);
      if (visit.state !== 'open') return closed(reply, visit);
      const co = await recordOpen(env.database, visit.changeOrder, visitorOf(request));
      return showChangeOrder(reply, {
        token,
        co,
        sender: visit.sender,
        document: await shownDocument(db, co, visit.sender.firmName),
      });
    });

    const back = (reply: FastifyReply, token: string) =>
      reply.status(303).header('cache-control', 'no-store').header('location', changeOrderPagePath(token)).send();

    const ALREADY = 'This change order was already answered; the answer given first stands.';

    scope.post(
      '/share/change-orders/:token/approve',
      { schema: { params: TokenParams, body: ApproveForm } },
      async (request, reply) => {
        const { token } = request.params;
        const visit = await visitChangeOrder(env.database, token);
        if (visit.state !== 'open') return closed(reply, visit);
        const typed: Typed = {
          signatureName: request.body.signature_name ?? '',
          consent: (request.body.consent ?? '') === 'yes',
          comment: '',
        };
        const result = await approveByCustomer(
          env.database,
          env.deps,
          visit.sender,
          visit.changeOrder,
          {
            name: typed.signatureName,
            consent: typed.consent,
            signature: request.body.signature ?? '',
            documentHash: request.body.document_hash ?? '',
          },
          visitorOf(request),
        );
        if ('result' in result) {
          if (result.result === 'answered') return back(reply, token);
          return show(reply, token, visit.sender, { status: 409, notice: { at: 'page', message: ALREADY } });
        }
        switch (result.problem) {
          case 'invalid':
            return show(reply, token, visit.sender, {
              typed,
              status: 400,
              notice: { at: 'sign', message: result.message },
            });
          case 'changed':
            return show(reply, token, visit.sender, {
              typed,
              status: 409,
              notice: {
                at: 'page',
                message: `${visit.sender.firmName} changed this change order after you opened it. Review it again below, then sign.`,
              },
            });
          case 'not_open':
          case 'lapsed':
            return show(reply, token, visit.sender, { status: 409 });
        }
      },
    );

    scope.post(
      '/share/change-orders/:token/decline',
      { schema: { params: TokenParams, body: DeclineForm } },
      async (request, reply) => {
        const { token } = request.params;
        const visit = await visitChangeOrder(env.database, token);
        if (visit.state !== 'open') return closed(reply, visit);
        const comment = request.body.comment ?? '';
        const result = await declineByCustomer(
          env.database,
          env.deps.mail,
          visit.changeOrder,
          comment,
          visitorOf(request),
        );
        if ('result' in result) {
          if (result.result === 'answered') return back(reply, token);
          return show(reply, token, visit.sender, { status: 409, notice: { at: 'page', message: ALREADY } });
        }
        if (result.problem === 'invalid')
          return show(reply, token, visit.sender, {
            typed: { ...NOTHING_TYPED, comment },
            status: 400,
            notice: { at: 'decline', message: result.message },
          });
        return show(reply, token, visit.sender, { status: 409 });
      },
    );
  });
};
