// The proposal page (document 3, Proposal; GUIDE "Customer pages"): GET /share/proposals/<token>
// shows the proposal as the customer sees it, from the one document the PDF and the signature
// share (estimating/proposals/document.ts): the cover with the workspace's logo and accent colour,
// the sections in their order, the pricing table with optional items apart, the photos in the
// chosen layout, deposit and payment terms, valid-until, and the acceptance with the e-sign consent
// text and its version. A sent or viewed proposal offers two forms: accept (typed name, email,
// consent, an optional drawn signature) and decline (an optional reason); each answers 303 back to
// the page, which then shows the outcome. Everything works without script; the signature pad is
// the page's one script (a canvas writing a PNG data URL into a hidden field), allowed by the
// answer's nonce. The office's preview (`?preview=`) shows a banner and no forms, and counts no view.
// An accepted proposal's page links its executed PDF (…/signed.pdf, through the same token); times
// read in the workspace's zone.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Proposal } from '#db/tables.ts';
import {
  formatMoney,
  type DocumentPhoto,
  type DocumentSection,
  type PricingRow,
  type ProposalDocument,
  unitPriceText,
} from './document.ts';
import { documentHash } from '#platform/signing/document-hash.ts';
import { proposalPagePath, signedPdfPath } from './link.ts';
import { executedPdf } from './pdf-route.ts';
import { shownDocument, type LoadedDocument } from './load.ts';
import {
  acceptProposal,
  awaitsAnswer,
  DECLINE_REASON_MAX,
  declineProposal,
  offerLapsed,
  recordOpen,
  SIGNER_EMAIL_MAX,
  type Sender,
  type ProposalVisit,
  visitProposal,
} from './visit.ts';
import { CONSENT_VERSION, consentText, SIGNER_NAME_MAX } from '#platform/signing/e-sign.ts';
import { originOf } from '#platform/routes.ts';
import { localWhen } from '#platform/time-zone.ts';
import type { Storage } from '#platform/storage/storage.ts';
import { acceptForms, formBody } from '#pages/form.ts';
import { sendGone, sendUnknownLink } from '#pages/gone.ts';
import { html, trusted, type Html } from '#platform/html.ts';
import { pageImageUrl } from '#pages/images.ts';
import { type PageModule, pageScope, TokenParams } from '#pages/pages.ts';
import { sendPage, sendPageFile } from '#pages/respond.ts';
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
/** `?preview=<token>`: the office's preview (estimating/proposals/link.ts). */
const PreviewQuery = Type.Object({ preview: Type.Optional(Type.String()) });

const AcceptForm = formBody('signer_name', 'signer_email', 'consent', 'signature', 'document_hash');
const DeclineForm = formBody('reason');

/** What the customer typed, shown again when the form is refused. */
interface Typed {
  signerName: string;
  signerEmail: string;
  consent: boolean;
  reason: string;
}

const NOTHING_TYPED: Typed = { signerName: '', signerEmail: '', consent: false, reason: '' };

const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/**
 * The page's own CSS: the accent colour (validated hex, so it cannot leave the rule) and the layouts.
 * On a phone the pricing table's four columns do not fit beside an item's name and description, so
 * each row becomes a card: the item across the width, then its figures labelled (data-label), the
 * price at the right; the table never reaches past the screen.
 */
function pageStyle(accent: string): string {
  const color = HEX.test(accent) ? accent : '#1f4e79';
  return `
header{background:${color}}
h2{border-bottom:3px solid ${color};padding-bottom:4px}
button{background:${color}}
.cover{background:#fff;border-radius:8px;padding:16px;margin:0 0 16px;border-top:6px solid ${color}}
.cover .logo{display:block;max-width:200px;max-height:80px;width:auto;height:auto;margin:0 0 12px}
.pricing td.num,.pricing th.num{text-align:right;white-space:nowrap}
.pricing tr.group th{background:#f0f4f8}
.pricing .desc{display:block;color:#616e7c;font-size:14px}
@media (max-width:600px){
.pricing thead{display:none}
.pricing tr{display:flex;flex-wrap:wrap;align-items:baseline;column-gap:12px;border-bottom:1px solid #e4e7eb;padding:6px 0}
.pricing td,.pricing th{border:0;padding:2px 4px}
.pricing td.no{flex:0 0 auto}
.pricing td.item{flex:1 1 80%;overflow-wrap:anywhere}
.pricing td.num{text-align:left}
.pricing td.num:empty{display:none}
.pricing td.num::before{content:attr(data-label) ": ";color:#616e7c;font-size:14px}
.pricing td.lump::before{content:none}
.pricing td.price{margin-left:auto;font-weight:600}
.pricing tr.group th{flex:1 1 100%}
}
.totals{max-width:360px;margin:8px 0 0 auto}.totals td{border:0}.totals td.num{text-align:right;white-space:nowrap}.totals tr.total td{font-weight:700;border-top:2px solid #1f2933}
.photos-detail{list-style:none;padding:0}
.photos-detail li{margin:0 0 16px}
.photos-detail img{display:block;width:100%;max-width:720px;height:auto;border-radius:4px;background:#d9e2ec}
${signingStyle(color)}`;
}

const dayFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' });

/** A YYYY-MM-DD date as "December 24, 2026". */
const longDate = (date: string) => dayFormat.format(new Date(`${date}T00:00:00Z`));

// ---- the document ----------------------------------------------------------------------------

function pricingRow(
  row: PricingRow,
  columns: { quantity: boolean; unit_price: boolean; price: boolean },
  numbered: boolean,
): Html {
  // data-label names a figure where a phone shows the row as a card (pageStyle: no header row there).
  return html`<tr>${numbered ? html`<td class="no">${row.number ?? ''}</td>` : null}<td class="item">${row.name}${
    row.description ? html`<span class="desc">${row.description}</span>` : null
  }</td>${columns.quantity ? html`<td class="num" data-label="Quantity">${row.quantity ?? ''}</td>` : null}${
    columns.unit_price
      ? html`<td class="${row.lump_sum ? 'num lump' : 'num'}" data-label="Unit price">${unitPriceText(row)}</td>`
      : null
  }${columns.price ? html`<td class="num price" data-label="Price">${row.price_cents === null ? '' : formatMoney(row.price_cents)}</td>` : null}</tr>`;
}

function pricingSection(s: Extract<DocumentSection, { id: 'pricing' }>): Html {
  const { columns, totals } = s;
  const numbered = s.groups.some((g) => g.rows.some((r) => r.number !== null));
  const span =
    1 + (numbered ? 1 : 0) + (columns.quantity ? 1 : 0) + (columns.unit_price ? 1 : 0) + (columns.price ? 1 : 0);
  const head = html`<thead><tr>${numbered ? html`<th>#</th>` : null}<th>Item</th>${
    columns.quantity ? html`<th class="num">Quantity</th>` : null
  }${columns.unit_price ? html`<th class="num">Unit price</th>` : null}${columns.price ? html`<th class="num">Price</th>` : null}</tr></thead>`;
  const body = s.groups.map(
    (g) =>
      html`${g.name !== null ? html`<tr class="group"><th colspan="${span}">${g.name}</th></tr>` : null}${g.rows.map(
        (r) => pricingRow(r, columns, numbered),
      )}`,
  );
  const totalRows = totals.tax_included
    ? html`<tr class="total"><td>Total (tax included)</td><td class="num">${formatMoney(totals.total_cents)}</td></tr>`
    : html`<tr><td>Subtotal</td><td class="num">${formatMoney(totals.subtotal_cents)}</td></tr>
<tr><td>Tax</td><td class="num">${formatMoney(totals.tax_cents)}</td></tr>
<tr class="total"><td>Total</td><td class="num">${formatMoney(totals.total_cents)}</td></tr>`;
  const optional =
    s.optional.length > 0
      ? html`<h3>Optional items</h3><p class="muted">Not included in the total.</p>
<div class="scroll"><table class="pricing optional">${head}<tbody>${s.optional.map((r) => pricingRow(r, columns, numbered))}</tbody></table></div>
<p class="muted">Optional items total ${formatMoney(totals.optional_total_cents)}</p>`
      : null;
  return html`<div class="scroll"><table class="pricing">${head}<tbody>${body}</tbody></table></div>
<table class="totals">${totalRows}</table>
${optional}
${s.deposit ? html`<p class="deposit"><strong>Deposit:</strong> ${s.deposit.percent}% (${formatMoney(s.deposit.cents)}) due on acceptance.</p>` : null}
${s.payment_terms ? html`<p class="payment-terms">${s.payment_terms}</p>` : null}`;
}

interface PhotoLinks {
  /** Photo id -> the image shown and the full one it opens. */
  byId: Map<number, { shown: string; full: string }>;
  logo: string | null;
  /** Every signed link the page shows, for its Content-Security-Policy. */
  images: string[];
}

async function photoLinks(storage: Storage, loaded: LoadedDocument, origin: string): Promise<PhotoLinks> {
  const byId = new Map<number, { shown: string; full: string }>();
  const images: string[] = [];
  await Promise.all(
    [...loaded.photoFiles.values()].map(async (f) => {
      const full = await pageImageUrl(storage, f.storage_key, origin, f.content_type);
      const shown =
        f.thumbnail_key !== null ? await pageImageUrl(storage, f.thumbnail_key, origin, 'image/jpeg') : full;
      byId.set(f.id, { shown, full });
      images.push(shown);
    }),
  );
  let logo: string | null = null;
  if (loaded.logoFile) {
    logo = await pageImageUrl(storage, loaded.logoFile.storage_key, origin, loaded.logoFile.content_type);
    images.push(logo);
  }
  return { byId, logo, images };
}

function photoSection(s: Extract<DocumentSection, { id: 'photos' }>, links: PhotoLinks): Html {
  const item = (p: DocumentPhoto) => {
    const link = links.byId.get(p.id);
    const label = p.title ?? p.caption ?? 'Site photo';
    const text = html`${s.show.titles && p.title ? html`<h3>${p.title}</h3>` : null}${
      s.show.captions && p.caption ? html`<p>${p.caption}</p>` : null
    }${s.show.dates && p.taken_on ? html`<p class="muted"><time datetime="${p.taken_on}">Taken ${longDate(p.taken_on)}</time></p>` : null}`;
    const picture = link
      ? html`<a href="${link.full}"><img src="${link.shown}" alt="${label}"></a>`
      : html`<p class="muted">Photo no longer available.</p>`;
    return s.layout === 'grid'
      ? html`<li class="card photo">${picture}<div class="text">${text}</div></li>`
      : html`<li class="photo">${picture}${text}</li>`;
  };
  return s.layout === 'grid'
    ? html`<ul class="grid photos-grid">${s.photos.map(item)}</ul>`
    : html`<ul class="photos-detail">${s.photos.map(item)}</ul>`;
}

function sectionBody(s: DocumentSection, links: PhotoLinks, answer: Html | null): Html {
  switch (s.id) {
    case 'overview':
      return html`<dl class="facts-list">${s.facts.map((f) => html`<dt>${f.label}</dt><dd>${f.value}</dd>`)}</dl>`;
    case 'text':
      // The HTML was cleaned to text tags when it was saved and again when the document was built.
      return html`${s.html ? trusted(s.html) : null}${
        s.items.length > 0 ? html`<ul>${s.items.map((i) => html`<li>${i}</li>`)}</ul>` : null
      }${s.footer ? html`<p class="muted">${s.footer}</p>` : null}`;
    case 'service_info':
      return html`${s.entries.map((e) => html`<h3>${e.name}</h3>${trusted(e.html)}`)}`;
    case 'pricing':
      return pricingSection(s);
    case 'photos':
      return photoSection(s, links);
    case 'acceptance':
      return html`<p class="consent">${s.consent_text}</p><p class="muted">Consent version ${s.consent_version}</p>${answer}`;
  }
}

function cover(doc: ProposalDocument, links: PhotoLinks): Html {
  return html`<section class="cover">
${links.logo ? html`<img class="logo" src="${links.logo}" alt="${doc.firm.name}">` : null}
<p class="muted">${doc.doc_number !== null ? `Proposal #${doc.doc_number}` : 'Proposal'} from ${doc.firm.name}</p>
${doc.client.name || doc.client.company ? html`<p>Prepared for ${[doc.client.name, doc.client.company].filter(Boolean).join(', ')}</p>` : null}
<p>${doc.job.name}${doc.job.address ? html`<br><span class="muted">${doc.job.address}</span>` : null}</p>
${doc.valid_until ? html`<p class="valid-until">Valid until ${longDate(doc.valid_until)}</p>` : null}
${doc.cover?.html ? trusted(doc.cover.html) : null}
${
  doc.prepared_by
    ? html`<p class="muted">Prepared by ${doc.prepared_by.name}${doc.prepared_by.email ? html` · ${doc.prepared_by.email}` : null}${
        doc.prepared_by.phone ? html` · ${doc.prepared_by.phone}` : null
      }</p>`
    : null
}
</section>`;
}

// ---- the answer forms --------------------------------------------------------------------------

function answerForms(token: string, hash: string, typed: Typed, notice: Notice | null): Html {
  const path = proposalPagePath(token);
  return html`<form class="wide answer accept" method="post" action="${path}/accept">
<input type="hidden" name="document_hash" value="${hash}">
<label for="signer_name">Your full name (your signature)</label>
<input id="signer_name" name="signer_name" required maxlength="${SIGNER_NAME_MAX}" autocomplete="name" value="${typed.signerName}">
<label for="signer_email">Your email</label>
<input id="signer_email" name="signer_email" type="email" required maxlength="${SIGNER_EMAIL_MAX}" autocomplete="email" value="${typed.signerEmail}">
${signaturePadFields()}
${consentCheckbox(typed.consent)}
${formError(notice, 'sign')}
<button type="submit">Accept and sign</button>
</form>
${declineDetails({
  what: 'proposal',
  action: `${path}/decline`,
  field: { name: 'reason', label: 'Reason', max: DECLINE_REASON_MAX, value: typed.reason },
  notice,
})}`;
}

/** What stands above the document: the preview banner and what the customer can (no longer) do. */
function banners(p: Proposal, sender: Sender, token: string, preview: boolean, lapsed: boolean): Html {
  const out: Html[] = [];
  if (preview)
    out.push(
      html`<p class="banner preview"><strong>Office preview.</strong> This is the page your customer sees. Opening it here counts no view, and the answer forms are not shown.</p>`,
    );
  if (p.status === 'accepted' && p.signed_at)
    out.push(
      html`<p class="banner accepted outcome"><strong>Accepted.</strong> Signed by ${p.signer_name} (${p.signer_email}) on ${localWhen(
        p.signed_at,
        sender.timezone,
      )}. ${sender.firmName} has the signed copy, and so can you: <a class="signed-pdf" href="${signedPdfPath(token)}">download the signed PDF</a>.</p>`,
    );
  else if (p.status === 'rejected')
    out.push(
      html`<p class="banner rejected outcome"><strong>Declined</strong>${p.rejected_at ? ` on ${localWhen(p.rejected_at, sender.timezone)}` : ''}.${
        p.decline_reason ? html` Reason given: “${p.decline_reason}”` : null
      } Contact ${sender.firmName} if you would like a new proposal.</p>`,
    );
  else if (p.status === 'draft')
    out.push(
      html`<p class="banner draft">This proposal has not been sent yet, so it cannot be accepted here. ${sender.firmName} will send it when it is ready.</p>`,
    );
  else if (lapsed && p.valid_until)
    out.push(
      html`<p class="banner lapsed">This proposal was valid until ${longDate(p.valid_until)} and can no longer be accepted here. Contact ${sender.firmName} for an updated proposal.</p>`,
    );
  return html`${out}`;
}

interface Shown {
  token: string;
  proposal: Proposal;
  sender: Sender;
  preview: boolean;
  typed?: Typed;
  notice?: Notice | null;
  status?: number;
}

async function showProposal(
  reply: FastifyReply,
  storage: Storage,
  origin: string,
  loaded: LoadedDocument,
  shown: Shown,
): Promise<FastifyReply> {
  const { proposal: p, sender, preview, token } = shown;
  const doc = loaded.document;
  const lapsed = offerLapsed(p, sender.timezone);
  const answerable = !preview && awaitsAnswer(p) && !lapsed;
  const notice = shown.notice ?? null;
  const answer = answerable ? answerForms(token, documentHash(doc), shown.typed ?? NOTHING_TYPED, notice) : null;
  const links = await photoLinks(storage, loaded, origin);
  const hasAcceptance = doc.sections.some((s) => s.id === 'acceptance');
  const sections = doc.sections.map(
    (s) =>
      html`<section class="doc-section section-${s.id}" id="${s.id === 'text' ? s.key.replace(':', '-') : s.id}"><h2>${s.title}</h2>${sectionBody(
        s,
        links,
        answer,
      )}</section>`,
  );
  // A layout with the acceptance page off still takes an answer: the forms follow the document,
  // with the consent text they need.
  const trailing =
    answer && !hasAcceptance
      ? html`<section class="doc-section section-acceptance" id="acceptance"><h2>Acceptance</h2><p class="consent">${consentText('proposal')}</p><p class="muted">Consent version ${CONSENT_VERSION}</p>${answer}</section>`
      : null;
  return sendPage(reply, {
    status: shown.status ?? 200,
    title: doc.title,
    from: sender.firmName,
    body: html`${banners(p, sender, token, preview, lapsed)}${
      notice?.at === 'page' ? html`<p class="error banner" role="alert">${notice.message}</p>` : null
    }${doc.cover ? cover(doc, links) : html`<p class="muted">From ${doc.firm.name}</p>`}${sections}${trailing}`,
    images: links.images,
    style: pageStyle(doc.accent_color),
    ...(answer ? { script: SIGNATURE_SCRIPT } : {}),
  });
}

function sendWithdrawn(reply: FastifyReply, sender: Sender): FastifyReply {
  return sendPage(reply, {
    status: 410,
    title: 'Proposal withdrawn',
    from: sender.firmName,
    body: html`<p>${sender.firmName} has withdrawn this proposal, so it can no longer be viewed or accepted.</p><p class="muted">If you expected a proposal, ask ${sender.firmName} for the current one.</p>`,
  });
}

export const proposalPage: PageModule = (app, env) => {
  pageScope(app, (scope) => {
    acceptForms(scope, SIGNING_FORM_BYTES);
    const storage = env.deps.storage;
    const db = env.database.db;

    /** What a token that opens no answerable page shows: 404, 410 with the reason, or withdrawn. */
    const answerClosed = (reply: FastifyReply, visit: Exclude<ProposalVisit, { state: 'open' }>) => {
      if (visit.state === 'unknown') return sendUnknownLink(reply);
      if (visit.state === 'gone') return sendGone(reply, visit.why);
      return sendWithdrawn(reply, visit.sender);
    };

    scope.get(
      '/share/proposals/:token',
      { schema: { params: TokenParams, querystring: PreviewQuery } },
      async (request, reply) => {
        const { token } = request.params;
        const visit = await visitProposal(env.database, env.deps, token, request.query.preview);
        if (visit.state !== 'open') return answerClosed(reply, visit);
        const proposal = visit.preview
          ? visit.proposal
          : await recordOpen(env.database, visit.proposal, visitorOf(request));
        return showProposal(reply, storage, originOf(request), await shownDocument(db, proposal), {
          token,
          proposal,
          sender: visit.sender,
          preview: visit.preview,
        });
      },
    );

    // The signed copy the accepted page offers, through the page's token (the invoice page's PDF
    // is served the same way); it counts no open.
    scope.get('/share/proposals/:token/signed.pdf', { schema: { params: TokenParams } }, async (request, reply) => {
      const visit = await visitProposal(env.database, env.deps, request.params.token);
      if (visit.state !== 'open') return answerClosed(reply, visit);
      const pdf = await executedPdf(db, storage, visit.proposal);
      if (pdf === null)
        return sendPage(reply, {
          status: 404,
          title: 'No signed copy yet',
          from: visit.sender.firmName,
          body: html`<p>This proposal has not been signed, so there is no signed copy to download.</p><p><a href="${proposalPagePath(request.params.token)}">Back to the proposal</a></p>`,
        });
      return sendPageFile(reply, { contentType: 'application/pdf', filename: pdf.filename, body: pdf.body });
    });

    /** After an answer, the page as it now is (the outcome, or the form with a message). */
    const again = async (
      request: FastifyRequest,
      reply: FastifyReply,
      token: string,
      shown: Omit<Shown, 'token' | 'preview'>,
    ) =>
      showProposal(reply, storage, originOf(request), await shownDocument(db, shown.proposal), {
        ...shown,
        token,
        preview: false,
      });

    const back = (reply: FastifyReply, token: string) =>
      reply.status(303).header('cache-control', 'no-store').header('location', proposalPagePath(token)).send();

    scope.post(
      '/share/proposals/:token/accept',
      { schema: { params: TokenParams, body: AcceptForm } },
      async (request, reply) => {
        const { token } = request.params;
        const visit = await visitProposal(env.database, env.deps, token);
        if (visit.state !== 'open') return answerClosed(reply, visit);
        const { sender } = visit;
        const typed: Typed = {
          signerName: request.body.signer_name ?? '',
          signerEmail: request.body.signer_email ?? '',
          consent: (request.body.consent ?? '') === 'yes',
          reason: '',
        };
        const result = await acceptProposal(
          env.database,
          env.deps,
          visit.proposal,
          {
            name: typed.signerName,
            email: typed.signerEmail,
            consent: typed.consent,
            signature: request.body.signature ?? '',
            documentHash: request.body.document_hash ?? '',
          },
          visitorOf(request),
        );
        if ('result' in result) {
          if (result.result === 'answered') return back(reply, token);
          return again(request, reply, token, {
            proposal: result.record,
            sender,
            status: 409,
            notice: { at: 'page', message: 'This proposal was already answered; the answer given first stands.' },
          });
        }
        const proposal = visit.proposal;
        switch (result.problem) {
          case 'invalid':
            return again(request, reply, token, {
              proposal,
              sender,
              typed,
              status: 400,
              notice: { at: 'sign', message: result.message },
            });
          case 'changed':
            // The fresh document, with a fresh hash: the customer reads it again before signing.
            return again(request, reply, token, {
              proposal,
              sender,
              typed,
              status: 409,
              notice: {
                at: 'page',
                message: `${sender.firmName} changed this proposal after you opened it. Review it again below, then sign.`,
              },
            });
          case 'lapsed':
            return again(request, reply, token, { proposal, sender, status: 409 });
          case 'not_open':
            return again(request, reply, token, { proposal, sender, status: 409 });
        }
      },
    );

    scope.post(
      '/share/proposals/:token/decline',
      { schema: { params: TokenParams, body: DeclineForm } },
      async (request, reply) => {
        const { token } = request.params;
        const visit = await visitProposal(env.database, env.deps, token);
        if (visit.state !== 'open') return answerClosed(reply, visit);
        const { sender } = visit;
        const reason = request.body.reason ?? '';
        const result = await declineProposal(env.database, env.deps.mail, visit.proposal, reason, visitorOf(request));
        if ('result' in result) {
          if (result.result === 'answered') return back(reply, token);
          return again(request, reply, token, {
            proposal: result.record,
            sender,
            status: 409,
            notice: { at: 'page', message: 'This proposal was already answered; the answer given first stands.' },
          });
        }
        if (result.problem === 'invalid')
          return again(request, reply, token, {
            proposal: visit.proposal,
            sender,
            typed: { ...NOTHING_TYPED, reason },
            status: 400,
            notice: { at: 'decline', message: result.message },
          });
        return again(request, reply, token, { proposal: visit.proposal, sender, status: 409 });
      },
    );
  });
};
