// The invoice page (document 3: the invoice's "view link" that POST /v1/invoices/{id}/send emails,
// and the `payment_url` of request payment; GUIDE "Customer pages"): GET /share/invoices/<token>
// shows the invoice as the customer sees it (billing/invoices/document.ts, the same description the
// PDF renders) with a PDF download, and, for an online invoice still open, a Pay button.
//
// Paying: GET …/pay. With Stripe it starts a Checkout Session and sends the customer there (a link,
// not a form: the page's CSP lets forms post only to this server, and a redirect after a form post
// to another origin would be blocked); Stripe's signed webhook later marks the invoice paid. In the
// built-in test mode it shows a card form clearly marked TEST MODE that takes Stripe's test cards;
// a card that goes through is applied as a payment event through the same code as the webhook's.
// Everything works without script.
import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';
import { invoiceDocument, type InvoiceDocument } from './document.ts';
import { invoicePagePath } from './link.ts';
import { invoiceFilename, renderInvoicePdf } from './pdf.ts';
import type { InvoiceRow } from './serialize.ts';
import { payable, type InvoiceSender, visitInvoice, type InvoiceVisit } from './visit.ts';
import { applyPaymentEvent } from '#billing/online-payments/apply.ts';
import { startCheckoutOf } from '#billing/online-payments/checkout.ts';
import { formatCents } from '#platform/money.ts';
import { PaymentsUnavailable } from '#platform/payments/processor.ts';
import { chargeTestCard, type CardInput } from '#platform/payments/test-mode.ts';
import { originOf } from '#platform/routes.ts';
import { todayIn } from '#platform/time-zone.ts';
import { acceptForms, formBody } from '#pages/form.ts';
import { sendGone, sendUnknownLink } from '#pages/gone.ts';
import { html, type Html } from '#platform/html.ts';
import { type PageModule, pageScope, TokenParams } from '#pages/pages.ts';
import { sendPage, sendPageFile } from '#pages/respond.ts';
/** `?paid=1`: the page a payment returns to says so while the processor's event is on its way. */
const ReturnQuery = Type.Object({ paid: Type.Optional(Type.String()) });

const PayForm = formBody('attempt', 'name', 'number', 'expiry', 'cvc');

const STYLE = `
.standing{font-size:18px;font-weight:600;margin:0 0 12px}
.standing.paid{color:#1a7f37}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0 0 16px;padding:0}
dl.facts dt{color:#616e7c}
dl.facts dd{margin:0;white-space:pre-line}
td.amount,th.amount{text-align:right;white-space:nowrap}
tr.strong td{font-weight:700}
.pay{display:inline-block;margin:16px 0;padding:12px 24px;border-radius:6px;background:#1a7f37;color:#fff;font-weight:600;text-decoration:none}
.actions a{margin-right:16px}
.test-mode{background:#fff3c4;border:2px dashed #b44d12;border-radius:8px;padding:8px 12px;margin:0 0 12px}
.notice{background:#e3f9e5;border-radius:8px;padding:8px 12px}
.remit{white-space:pre-line}
`;

const TEST_MODE_NOTE = html`<p class="test-mode" role="note"><strong>TEST MODE.</strong> No real money moves and no card is charged. Pay with the test card 4242 4242 4242 4242, any future expiry date and any 3-digit security code.</p>`;

function invoiceBody(
  d: InvoiceDocument,
  token: string,
  options: { pay: boolean; testMode: boolean; returned: boolean },
): Html {
  const path = invoicePagePath(token);
  return html`<p class="standing${d.paid ? ' paid' : ''}">${d.standing}</p>
${options.returned && !d.paid ? html`<p class="notice" role="status">Thank you. Your payment is being confirmed; this page shows Paid once it is.</p>` : null}
<dl class="facts">${d.facts.map((f) => html`<dt>${f.label}</dt><dd>${f.value}</dd>`)}</dl>
<div class="scroll"><table>
<thead><tr><th>Description</th><th class="amount">Amount</th></tr></thead>
<tbody>${d.lines.map((l) => html`<tr><td>${l.description}</td><td class="amount">${l.amount}</td></tr>`)}</tbody>
<tfoot>${d.totals.map(
    (t) =>
      html`<tr${t.strong ? html` class="strong"` : null}><td>${t.label}</td><td class="amount">${t.amount}</td></tr>`,
  )}</tfoot>
</table></div>
${
  options.pay
    ? html`${options.testMode ? TEST_MODE_NOTE : null}<p><a class="pay" href="${path}/pay">Pay ${d.totals.find((t) => t.label === 'Total')?.amount ?? ''} by card</a></p>`
    : null
}
${d.remit ? html`<h2>Remit to</h2><p class="remit">${[d.remit.name, d.remit.address].filter(Boolean).join('\n')}</p>${d.remit.instructions ? html`<p class="remit">${d.remit.instructions}</p>` : null}` : null}
${d.memo ? html`<h2>Memo</h2><p class="notes">${d.memo}</p>` : null}
<p class="actions"><a href="${path}/pdf">Download PDF</a></p>`;
}

interface CardForm {
  attempt: string;
  name: string;
  problem: string | null;
}

function cardForm(invoice: InvoiceRow, token: string, form: CardForm): Html {
  const path = invoicePagePath(token);
  return html`${TEST_MODE_NOTE}
<p>Amount: <strong>${formatCents(invoice.amount_cents)}</strong></p>
<form method="post" action="${path}/pay" autocomplete="off">
<input type="hidden" name="attempt" value="${form.attempt}">
<label>Name on card <input name="name" maxlength="200" value="${form.name}"></label>
<label>Card number <input name="number" inputmode="numeric" maxlength="23" required placeholder="4242 4242 4242 4242"></label>
<label>Expiry (MM/YY) <input name="expiry" maxlength="7" required placeholder="12/30"></label>
<label>Security code <input name="cvc" inputmode="numeric" maxlength="4" required placeholder="123"></label>
${form.problem ? html`<p class="error" role="alert">${form.problem}</p>` : null}
<button type="submit">Pay ${formatCents(invoice.amount_cents)} (test)</button>
</form>
<p><a href="${path}">Back to the invoice</a></p>`;
}

const newAttempt = () => randomBytes(16).toString('hex');
const ATTEMPT = /^[0-9a-f]{32}$/;

export const invoicePage: PageModule = (app, env) => {
  pageScope(app, (scope) => {
    acceptForms(scope);
    const payments = env.deps.payments;

    /** A token that shows no invoice: 404, 410 with the reason, withdrawn (void) or under revision (draft). */
    const answerClosed = (reply: FastifyReply, visit: Exclude<InvoiceVisit, { state: 'open' }>) => {
      if (visit.state === 'unknown') return sendUnknownLink(reply);
      if (visit.state === 'gone') return sendGone(reply, visit.why);
      return sendPage(reply, {
        status: 410,
        title: visit.state === 'void' ? 'Invoice withdrawn' : 'Invoice being revised',
        from: visit.sender.firmName,
        body:
          visit.state === 'void'
            ? html`<p>${visit.sender.firmName} has voided this invoice. Nothing is owed on it.</p>`
            : html`<p>${visit.sender.firmName} is revising this invoice. They will send it again when it is ready.</p>`,
      });
    };

    const showInvoice = (
      reply: FastifyReply,
      invoice: InvoiceRow,
      sender: InvoiceSender,
      token: string,
      returned: boolean,
    ) => {
      const d = invoiceDocument(invoice, { name: sender.firmName, timezone: sender.timezone });
      return sendPage(reply, {
        title: d.title,
        from: sender.firmName,
        style: STYLE,
        body: invoiceBody(d, token, { pay: payable(invoice), testMode: payments.testMode, returned }),
      });
    };

    scope.get(
      '/share/invoices/:token',
      { schema: { params: TokenParams, querystring: ReturnQuery } },
      async (request, reply) => {
        const visit = await visitInvoice(env.database, request.params.token);
        if (visit.state !== 'open') return answerClosed(reply, visit);
        return showInvoice(reply, visit.invoice, visit.sender, request.params.token, request.query.paid === '1');
      },
    );

    scope.get('/share/invoices/:token/pdf', { schema: { params: TokenParams } }, async (request, reply) => {
      const visit = await visitInvoice(env.database, request.params.token);
      if (visit.state !== 'open') return answerClosed(reply, visit);
      const d = invoiceDocument(visit.invoice, { name: visit.sender.firmName, timezone: visit.sender.timezone });
      const pdf = await renderInvoicePdf(d, visit.invoice.issued_at);
      return sendPageFile(reply, {
        contentType: 'application/pdf',
        filename: invoiceFilename(visit.invoice),
        body: pdf,
      });
    });

    const back = (reply: FastifyReply, token: string) =>
      reply.status(303).header('cache-control', 'no-store').header('location', invoicePagePath(token)).send();

    scope.get('/share/invoices/:token/pay', { schema: { params: TokenParams } }, async (request, reply) => {
      const { token } = request.params;
      const visit = await visitInvoice(env.database, token);
      if (visit.state !== 'open') return answerClosed(reply, visit);
      if (!payable(visit.invoice)) return back(reply, token);
      if (payments.testMode)
        return sendPage(reply, {
          title: `Pay invoice (test mode)`,
          from: visit.sender.firmName,
          style: STYLE,
          body: cardForm(visit.invoice, token, { attempt: newAttempt(), name: '', problem: null }),
        });
      try {
        const checkout = await startCheckoutOf(
          payments,
          visit.invoice,
          visit.sender,
          `${originOf(request)}${invoicePagePath(token)}`,
        );
        return reply.status(303).header('cache-control', 'no-store').header('location', checkout.url).send();
      } catch (err) {
        if (!(err instanceof PaymentsUnavailable)) throw err;
        request.log.warn({ err: err.message }, 'payment processor unavailable');
        return sendPage(reply, {
          status: 502,
          title: 'Payment not available right now',
          from: visit.sender.firmName,
          body: html`<p>The payment service could not be reached. Nothing was charged. Try again in a few minutes.</p><p><a href="${invoicePagePath(token)}">Back to the invoice</a></p>`,
        });
      }
    });

    /** The test-mode card form's answer: a payment event applied like a webhook's, or the form again. */
    scope.post(
      '/share/invoices/:token/pay',
      { schema: { params: TokenParams, body: PayForm } },
      async (request, reply) => {
        const { token } = request.params;
        const visit = await visitInvoice(env.database, token);
        if (visit.state !== 'open') return answerClosed(reply, visit);
        if (!payments.testMode || !payable(visit.invoice)) return back(reply, token);
        const { invoice, sender } = visit;
        const posted = request.body.attempt ?? '';
        const form: CardForm = {
          attempt: ATTEMPT.test(posted) ? posted : newAttempt(),
          name: (request.body.name ?? '').slice(0, 200),
          problem: null,
        };
        const card: CardInput = {
          number: request.body.number ?? '',
          expiry: request.body.expiry ?? '',
          cvc: request.body.cvc ?? '',
        };
        const outcome = chargeTestCard(card, todayIn(sender.timezone));
        if (!outcome.ok)
          return sendPage(reply, {
            status: 402,
            title: `Pay invoice (test mode)`,
            from: sender.firmName,
            style: STYLE,
            body: cardForm(invoice, token, { ...form, problem: outcome.message }),
          });
        // The attempt id makes the event id: the same form posted twice is one event, applied once.
        await applyPaymentEvent(env.database, env.deps.mail, {
          processor: 'test',
          eventId: `test_${form.attempt}`,
          firmId: invoice.firm_id,
          invoiceId: invoice.id,
          outcome: 'paid',
          amountCents: Number(invoice.amount_cents),
          currency: invoice.currency,
          reference: `test_${outcome.brand.toLowerCase().replace(/\W+/g, '_')}_${outcome.last4}_${form.attempt.slice(0, 8)}`,
          account: null,
        });
        return back(reply, token);
      },
    );
  });
};
