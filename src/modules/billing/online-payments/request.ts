// POST /v1/estimates/{id}/request-payment (document 3, Invoices and payments): an online invoice
// billed from the estimate's proposal, with a link to the page where the customer pays, emailed to
// them (EMAILS CUSTOMER) when there is an address.
//
// Refusals, in the spec's order: 409 Online payments not set up (the workspace has not connected
// them: settings.online_payments_connected), 409 No proposal yet (none, or only a void one); then,
// unless confirm_duplicate, 409 duplicate_invoice (the same invoice, of the same estimate, type and
// amount, made in the last 10 minutes) and 409 over_contract (billing more than the contract).
// Both are decided inside the workspace lock against the invoices as committed, so ten identical
// requests at once make one invoice and nine 409s.
//
// The invoice is online and open at once (document 3: online invoices are open, paid, void or
// uncollectible, set only by the payment processor). The mail goes after the commit: an invoice
// whose email did not go answers emailed false, and the caller shares payment_url instead of
// requesting again (which would be a duplicate).
import type { Transaction } from 'kysely';
import type { DB, Job, Proposal } from '#db/tables.ts';
import { findVisibleJob } from '#crm/index.ts';
import { progressOfJob } from '#operations/index.ts';
import {
  assertPricingAccess,
  findEstimate,
  type PricedLine,
  proposalOfEstimate,
  sectionsOf,
} from '#estimating/index.ts';
import { recordInvoiceCreated } from '#billing/invoices/events.ts';
import { invoicePageUrl, INVOICE_LINK_KIND } from '#billing/invoices/link.ts';
import { mailInvoice } from '#billing/invoices/mail.ts';
import { nextInvoiceNumber } from '#billing/invoices/numbers.ts';
import { billedOfJob, recentTwin } from '#billing/invoices/repo.ts';
import { dueDateOf } from '#billing/invoices/rules.ts';
import type { RequestPaymentInput } from '#billing/invoices/schemas.ts';
import { getInvoice, text } from '#billing/invoices/service.ts';
import { contractOfProposal } from '#billing/job-contracts/revised.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { emailField } from '#platform/email-phone.ts';
import { conflict, notFound } from '#platform/errors.ts';
import { MailSendError } from '#platform/mail/transport.ts';
import { formatCents } from '#platform/money.ts';
import { now, storedAt, millisOf } from '#platform/time.ts';
import { storedToLocal } from '#platform/time-zone.ts';
import { type Contract, overContract, requestedOf } from './amounts.ts';
import { workDonePercent } from './work-done.ts';

/** How far back an identical request counts as a duplicate (document 3: within 10 minutes). */
export const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;

/** The revised contract (job-contracts/revised.ts: the proposal and what approved change orders posted), as billed. */
async function contractOf(trx: Transaction<DB>, p: Proposal): Promise<Contract> {
  const sections = sectionsOf(p.sections);
  const priced = JSON.parse(p.priced) as { lines: PricedLine[] };
  const contract = await contractOfProposal(trx, p);
  const posted = contract.changeOrders;
  return {
    title: p.title,
    subtotalCents: Number(p.subtotal_cents),
    taxCents: Number(p.tax_cents),
    depositPercent: sections.deposit_percent,
    lines: priced.lines
      .filter((l) => !l.optional)
      .map((l) => ({ lineId: l.line_id, name: l.name, quantity: Number(l.quantity), priceCents: l.price_cents })),
    changeOrders: {
      count: posted.count,
      // amount_delta is a change order's price with its tax (as an estimate's price_cents is).
      subtotalCents: posted.amountCents - posted.taxCents,
      taxCents: posted.taxCents,
    },
    totalCents: contract.revisedCents,
  };
}

/**
 * How much of the contract's work is done: as sent (the office's override), all of it once the job
 * is in a completed stage, else what the job's work orders have done (work-done.ts).
 */
async function percentComplete(
  trx: Transaction<DB>,
  job: Job,
  contract: Contract,
  sent: number | undefined,
): Promise<number> {
  if (sent !== undefined) return Math.round(sent * 100) / 100;
  const stage = await trx
    .selectFrom('job_stages')
    .select('is_completed')
    .where('firm_id', '=', job.firm_id)
    .where('key', '=', job.status)
    .executeTakeFirst();
  if (stage?.is_completed === 1) return 100;
  const fromWorkOrders = workDonePercent(contract.lines, await progressOfJob(trx, job.firm_id, job.id));
  if (fromWorkOrders !== null && fromWorkOrders > 0) return fromWorkOrders;
  if (fromWorkOrders !== null)
    throw conflict('Nothing to bill', {
      code: 'nothing_to_bill',
      message:
        "None of the job's work orders has completed work yet (GET /v1/jobs/{id}/allocation): complete one, or send percent_complete",
    });
  throw conflict('Work done is not known', {
    code: 'nothing_to_bill',
    message:
      'The job is not in a completed stage and has no work orders: send percent_complete (how much of the contract is done) to bill progress',
  });
}

export async function requestPayment(
  ctx: ServiceContext,
  estimateId: number,
  input: RequestPaymentInput,
  origin: string,
) {
  assertPricingAccess(ctx);
  const clientEmail = emailField(input.client_email, 'client_email');
  const firmId = ctx.auth.firm.id;
  const estimate = await findEstimate(ctx.database.db, firmId, estimateId, ctx.auth.user);
  if (!estimate) throw notFound('Estimate not found');
  if (!ctx.auth.settings.online_payments_connected)
    throw conflict('Online payments not set up', {
      code: 'online_payments_not_set_up',
      message:
        'Connect online payments for the workspace (its online_payments_connected setting) before requesting payment',
    });
  const proposal = await proposalOfEstimate(ctx.database.db, firmId, estimate.id);
  if (!proposal || proposal.status === 'void' || estimate.job_id === null)
    throw conflict('No proposal yet', {
      code: 'no_proposal',
      message: 'Prepare the proposal first (POST /v1/estimates/{id}/proposal): payment is requested against it',
    });
  const job = await findVisibleJob(ctx.database.db, firmId, estimate.job_id, ctx.auth.user);
  if (!job) throw notFound('Estimate not found');
  const kind = input.kind ?? 'full';
  const sections = sectionsOf(proposal.sections);
  const dueDays = input.due_days ?? sections.payment_due_days ?? 0;
  // The link is derived from a salt made here (no I/O beyond the server secret), so the transaction
  // writes it with the invoice and the answer can give its URL without another write.
  const link = await ctx.deps.links.issue(INVOICE_LINK_KIND);

  const invoiceId = await inWorkspaceTransaction(ctx, async (trx) => {
    // Read inside the lock: an approval or another invoice committed meanwhile counts.
    const contract = await contractOf(trx, proposal);
    const billed = await billedOfJob(trx, firmId, job.id);
    const percent = kind === 'progress' ? await percentComplete(trx, job, contract, input.percent_complete) : 100;
    const requested = requestedOf(kind, contract, billed, percent);
    if ('refused' in requested)
      throw conflict(requested.refused === 'no_deposit' ? 'No deposit on the proposal' : 'Nothing to bill', {
        code: requested.refused,
        message: requested.message,
      });
    const t = now();
    if (!input.confirm_duplicate) {
      const twin = await recentTwin(trx, firmId, {
        estimateId: estimate.id,
        billingType: requested.billingType,
        amountCents: requested.amountCents,
        since: storedAt(millisOf(t) - DUPLICATE_WINDOW_MS),
      });
      if (twin)
        throw conflict('Duplicate invoice', {
          code: 'duplicate_invoice',
          message: `Invoice ${twin.id} asked for the same ${formatCents(requested.amountCents)} less than 10 minutes ago: share its link, or send confirm_duplicate true`,
          invoice_id: twin.id,
        });
      if (overContract(contract, billed, requested.amountCents))
        throw conflict('Over contract', {
          code: 'over_contract',
          message: `The job's invoices already bill ${formatCents(billed)} of a ${formatCents(contract.totalCents)} contract; this one would bill ${formatCents(requested.amountCents)} more. Send confirm_duplicate true to bill it anyway`,
          contract: contract.totalCents / 100,
          billed: billed / 100,
        });
    }
    const today = storedToLocal(t, ctx.auth.firm.timezone).date;
    const row = await trx
      .insertInto('invoices')
      .values({
        firm_id: firmId,
        job_id: job.id,
        estimate_id: estimate.id,
        doc_number: estimate.doc_number,
        invoice_number: await nextInvoiceNumber(trx, firmId, estimate.doc_number),
        status: 'open',
        payment_method: 'online',
        billing_type: requested.billingType,
        currency: 'USD',
        line_items: JSON.stringify(requested.lines),
        subtotal_cents: requested.lines.reduce((s, l) => s + l.amount_cents, 0),
        discount_cents: requested.discountCents,
        tax_cents: requested.taxCents,
        amount_cents: requested.amountCents,
        due_days: dueDays,
        due_date: dueDateOf(today, dueDays),
        issued_at: t,
        paid_at: null,
        client_name: text(input.client_name) ?? job.bill_to_name ?? proposal.client_name ?? job.company,
        client_email: clientEmail ?? job.bill_to_email ?? proposal.client_email,
        client_address: null,
        project_name: job.name,
        project_address: job.address,
        reference_number: text(input.reference_number) ?? null,
        memo: text(input.memo) ?? null,
        remit_to_name: null,
        remit_to_address: null,
        payment_instructions: null,
        sender_name: ctx.auth.user.name,
        sender_email: ctx.auth.user.email,
        created_by_user_id: ctx.auth.user.id,
        created_at: t,
        updated_at: t,
        token_salt: link.salt,
        token_hash: link.hash,
        payment_processor: ctx.deps.payments.name,
        payment_reference: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordInvoiceCreated(trx, row);
    return row.id;
  });

  const invoice = await getInvoice(ctx, invoiceId);
  const paymentUrl = invoicePageUrl(origin, link.token);
  const { emailed, message } = await mailPayPage(ctx, invoice, paymentUrl);
  return { data: { invoice, payment_url: paymentUrl, emailed, message } };
}

async function mailPayPage(
  ctx: ServiceContext,
  invoice: Awaited<ReturnType<typeof getInvoice>>,
  url: string,
): Promise<{ emailed: boolean; message: string }> {
  const testNote = ctx.deps.payments.testMode ? ' (test mode: pay with a test card; nothing is charged)' : '';
  if (!invoice.client_email)
    return {
      emailed: false,
      message: `No customer email on the job or the proposal: share payment_url with the customer yourself${testNote}`,
    };
  try {
    await mailInvoice(ctx, invoice, invoice.client_email, url);
    return { emailed: true, message: `Payment page emailed to ${invoice.client_email}${testNote}` };
  } catch (err) {
    if (!(err instanceof MailSendError)) throw err;
    return {
      emailed: false,
      message: `The email to ${invoice.client_email} did not go (${err.message}): share payment_url yourself instead of requesting again${testNote}`,
    };
  }
}
