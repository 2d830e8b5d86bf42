// Check invoices (document 3, Invoices and payments; Invoice (check) state table): create, read,
// list, edit, and the office's status moves. Nothing here emails anyone. Online invoices follow
// their payment processor, so every change to one is refused (409 online_invoice).
import type { Transaction } from 'kysely';
import type { DB, Invoice, Job } from '#db/tables.ts';
import { findVisibleJob } from '#crm/index.ts';
import { findEstimate } from '#estimating/index.ts';
import { inTransaction, inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { emailField } from '#platform/email-phone.ts';
import { badRequest, conflict, notFound } from '#platform/errors.ts';
import { centsToDollars, dollarsToCents } from '#platform/money.ts';
import type { Page } from '#platform/pagination.ts';
import { now } from '#platform/time.ts';
import { storedToLocal } from '#platform/time-zone.ts';
import { recordInvoiceCreated, recordPaymentReceived } from './events.ts';
import { nextInvoiceNumber } from './numbers.ts';
import { findInvoice, type InvoiceFilter, invoicesOfJob, lastRemitTo, listInvoices as listRows } from './repo.ts';
import { dueDateOf, figuresOf, lineItemsInCents, type StoredLineItem } from './rules.ts';
import type { CreateInvoiceInput, UpdateInvoiceInput } from './schemas.ts';
import { invoiceObject, invoiceSummary, type InvoiceRow, lineItemsOf } from './serialize.ts';

const DEFAULT_DUE_DAYS = 30;

const localDate = (ctx: ServiceContext, stored: string) => storedToLocal(stored, ctx.auth.firm.timezone).date;

/** The due date's anchor: the issue date, or the creation date while the invoice was never issued. */
const anchorOf = (ctx: ServiceContext, i: Pick<Invoice, 'issued_at' | 'created_at'>) =>
  localDate(ctx, i.issued_at ?? i.created_at);

export async function invoiceOr404(
  ctx: ServiceContext,
  db: ServiceContext['database']['db'] | Transaction<DB>,
  id: number,
) {
  const row = await findInvoice(db, ctx.auth.firm.id, id, ctx.auth.user);
  if (!row) throw notFound('Invoice not found');
  return row;
}

export function refuseOnline(i: Pick<Invoice, 'payment_method'>): void {
  if (i.payment_method === 'online')
    throw conflict('Online invoice', {
      code: 'online_invoice',
      message: "An online invoice follows its payment processor: its status and figures can't be changed here",
    });
}

/** Blank text is no value. */
export const text = (value: string | null | undefined) => {
  if (value === undefined) return undefined;
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
};

/** What the job's records say the invoice is addressed to: bill-to, then company, then contact. */
async function clientDefaults(trx: Transaction<DB>, job: Job) {
  const account =
    job.client_account_id === null
      ? undefined
      : await trx
          .selectFrom('client_accounts')
          .select(['name', 'email', 'address'])
          .where('id', '=', job.client_account_id)
          .executeTakeFirst();
  return {
    client_name: job.bill_to_name ?? job.company ?? account?.name ?? job.contact_name ?? null,
    client_email: job.bill_to_email ?? account?.email ?? job.contact_email ?? null,
    client_address: account?.address ?? null,
  };
}

/**
 * The remit-to: the one sent, else the last one used on an invoice of the workspace, else the
 * workspace's setting; none anywhere is 400 (document 3: required when none is on file).
 */
async function remitTo(
  ctx: ServiceContext,
  trx: Transaction<DB>,
  name: string | null | undefined,
  address: string | null | undefined,
) {
  if (address) return { remit_to_name: name ?? ctx.auth.firm.name, remit_to_address: address };
  const last = await lastRemitTo(trx, ctx.auth.firm.id);
  const onFile = last ? { name: last.remit_to_name, address: last.remit_to_address! } : ctx.auth.settings.remit_to;
  if (!onFile)
    throw badRequest('Missing remit-to address', {
      code: 'remit_to_required',
      field: 'remit_to_address',
      message: 'The workspace has no remit-to address on file: send remit_to_address (and remit_to_name)',
    });
  return { remit_to_name: name ?? onFile.name ?? ctx.auth.firm.name, remit_to_address: onFile.address };
}

const figures = (lines: StoredLineItem[], discount: number | undefined, tax: number | undefined) =>
  figuresOf(lines, dollarsToCents(discount ?? 0), dollarsToCents(tax ?? 0));

export async function createInvoice(ctx: ServiceContext, input: CreateInvoiceInput) {
  const firmId = ctx.auth.firm.id;
  const clientEmail = emailField(input.client_email, 'client_email');
  const lines = lineItemsInCents(input.line_items);
  const totals = figures(lines, input.discount, input.tax);
  const job = await findVisibleJob(ctx.database.db, firmId, input.job_id, ctx.auth.user);
  if (!job) throw notFound('Job not found');
  let docNumber: number | null = null;
  if (input.estimate_id != null) {
    const estimate = await findEstimate(ctx.database.db, firmId, input.estimate_id, ctx.auth.user);
    if (!estimate) throw notFound('Estimate not found');
    if (estimate.job_id !== job.id)
      throw badRequest('The estimate belongs to another job', { code: 'estimate_other_job', field: 'estimate_id' });
    docNumber = estimate.doc_number;
  }
  // Under the workspace lock, taken first as request-payment takes it: the invoice number's counter
  // row and the feed's firms row are then always locked in one order, so concurrent creates queue
  // instead of deadlocking on PostgreSQL.
  const id = await inWorkspaceTransaction(ctx, async (trx) => {
    const t = now();
    const dueDays = input.due_days ?? DEFAULT_DUE_DAYS;
    const client = await clientDefaults(trx, job);
    const pick = (sent: string | null | undefined, fallback: string | null) => {
      const value = text(sent);
      return value === undefined || value === null ? fallback : value;
    };
    const row = await trx
      .insertInto('invoices')
      .values({
        firm_id: firmId,
        job_id: job.id,
        estimate_id: input.estimate_id ?? null,
        doc_number: docNumber,
        invoice_number: await nextInvoiceNumber(trx, firmId, docNumber),
        status: 'draft',
        payment_method: 'check',
        billing_type: input.billing_type ?? 'line_items',
        currency: 'USD',
        line_items: JSON.stringify(lines),
        ...totals,
        due_days: dueDays,
        due_date: dueDateOf(localDate(ctx, t), dueDays),
        issued_at: null,
        paid_at: null,
        client_name: pick(input.client_name, client.client_name),
        client_email: pick(clientEmail, client.client_email),
        client_address: pick(input.client_address, client.client_address),
        project_name: pick(input.project_name, job.name),
        project_address: pick(input.project_address, job.address),
        reference_number: text(input.reference_number) ?? null,
        memo: text(input.memo) ?? null,
        ...(await remitTo(ctx, trx, text(input.remit_to_name), text(input.remit_to_address))),
        payment_instructions: text(input.payment_instructions) ?? null,
        sender_name: ctx.auth.user.name,
        sender_email: ctx.auth.user.email,
        created_by_user_id: ctx.auth.user.id,
        created_at: t,
        updated_at: t,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordInvoiceCreated(trx, row);
    return row.id;
  });
  return invoiceObject(await invoiceOr404(ctx, ctx.database.db, id));
}

export async function getInvoice(ctx: ServiceContext, id: number) {
  return invoiceObject(await invoiceOr404(ctx, ctx.database.db, id));
}

export async function listInvoices(ctx: ServiceContext, filter: InvoiceFilter, page: Page) {
  const { rows, total } = await listRows(
    ctx.database.db,
    ctx.auth.firm.id,
    ctx.auth.user,
    filter,
    page.limit,
    page.offset,
  );
  return { data: rows.map(invoiceObject), total };
}

/** Text fields PATCH sets as sent (null or blank clears them). */
const PLAIN_FIELDS = [
  'client_name',
  'client_email',
  'client_address',
  'project_name',
  'project_address',
  'reference_number',
  'memo',
  'payment_instructions',
] as const;

/**
 * Edits a draft or sent invoice: `line_items` replaces the list, the figures are worked out again
 * and the due date stays anchored to the issue date. A paid or void invoice is closed (409): move
 * it back to draft first, so a payment never silently changes amount.
 */
export async function updateInvoice(ctx: ServiceContext, id: number, input: UpdateInvoiceInput) {
  // The address is checked like every email field (a bad one could never be mailed); stored as text() trims it.
  emailField(input.client_email, 'client_email');
  const current = await invoiceOr404(ctx, ctx.database.db, id);
  refuseOnline(current);
  if (current.status === 'paid' || current.status === 'void')
    throw conflict(`A ${current.status} invoice can't be edited`, {
      code: 'invoice_closed',
      status: current.status,
      message: 'Move it back to draft (POST /v1/invoices/{id}/mark-draft) to edit it',
    });
  if (Object.keys(input).length === 0) return invoiceObject(current);
  const lines = input.line_items ? lineItemsInCents(input.line_items) : lineItemsOf(current);
  const totals = figuresOf(
    lines,
    input.discount !== undefined ? dollarsToCents(input.discount) : current.discount_cents,
    input.tax !== undefined ? dollarsToCents(input.tax) : current.tax_cents,
  );
  const dueDays = input.due_days ?? current.due_days;
  await inTransaction(ctx.database, async (trx) => {
    const changes: Partial<Record<(typeof PLAIN_FIELDS)[number], string | null>> = {};
    for (const f of PLAIN_FIELDS) {
      const value = text(input[f]);
      if (value !== undefined) changes[f] = value;
    }
    const remit =
      input.remit_to_address !== undefined || input.remit_to_name !== undefined
        ? await remitTo(
            ctx,
            trx,
            text(input.remit_to_name) ?? current.remit_to_name,
            input.remit_to_address !== undefined ? text(input.remit_to_address) : current.remit_to_address,
          )
        : {};
    const edited = await trx
      .updateTable('invoices')
      .set({
        ...changes,
        ...remit,
        ...(input.billing_type !== undefined ? { billing_type: input.billing_type } : {}),
        line_items: JSON.stringify(lines),
        ...totals,
        due_days: dueDays,
        due_date: dueDateOf(anchorOf(ctx, current), dueDays),
        updated_at: now(),
      })
      .where('id', '=', current.id)
      // The edit was worked out from the invoice as read: a payment or void recorded since wins.
      .where('status', '=', current.status)
      .where('updated_at', '=', current.updated_at)
      .returning('id')
      .executeTakeFirst();
    if (!edited)
      throw conflict('The invoice changed while it was being edited', {
        code: 'concurrent_change',
        message: 'Read it again (GET /v1/invoices/{id}) and send the edit again',
      });
  });
  return getInvoice(ctx, id);
}

type Status = Invoice['status'];

/** One status move: from which statuses, to which, what else changes, and what it records. */
interface Move {
  from: readonly Status[];
  to: Status;
  refusal: string;
  changes(ctx: ServiceContext, i: InvoiceRow, t: string): Partial<Invoice>;
  record?(trx: Transaction<DB>, i: Invoice): Promise<void>;
}

const MOVES = {
  /** draft -> sent (issued now, the due date anchored to today); paid -> sent is unpaid again. */
  'mark-sent': {
    from: ['draft', 'paid'],
    to: 'sent',
    refusal: 'Only a draft or paid invoice can be marked sent',
    changes(ctx, i, t) {
      const issuedAt = i.issued_at ?? t;
      return { issued_at: issuedAt, paid_at: null, due_date: dueDateOf(localDate(ctx, issuedAt), i.due_days) };
    },
  },
  'mark-paid': {
    from: ['sent'],
    to: 'paid',
    refusal: 'Only a sent invoice can be marked paid',
    changes: (_ctx, _i, t) => ({ paid_at: t }),
    record: recordPaymentReceived,
  },
  void: {
    from: ['draft', 'sent', 'paid'],
    to: 'void',
    refusal: 'The invoice is already void',
    changes: () => ({}),
  },
  /** A paid invoice loses its payment date (and so leaves the payments list); it is no longer issued. */
  'mark-draft': {
    from: ['sent', 'paid', 'void'],
    to: 'draft',
    refusal: 'The invoice is already a draft',
    changes(ctx, i) {
      return { issued_at: null, paid_at: null, due_date: dueDateOf(localDate(ctx, i.created_at), i.due_days) };
    },
  },
} as const satisfies Record<string, Move>;

export type InvoiceMove = keyof typeof MOVES;

/**
 * Moves an invoice's status. The update names the status it moves from, so two concurrent moves
 * cannot both succeed (a payment is recorded once).
 */
export async function moveInvoice(ctx: ServiceContext, id: number, name: InvoiceMove) {
  const move: Move = MOVES[name];
  const current = await invoiceOr404(ctx, ctx.database.db, id);
  refuseOnline(current);
  const refuse = (status: Status) =>
    conflict(move.refusal, {
      code: 'invalid_transition',
      status,
      allowed_from: [...move.from],
    });
  if (!move.from.includes(current.status)) throw refuse(current.status);
  await inTransaction(ctx.database, async (trx) => {
    const t = now();
    const moved = await trx
      .updateTable('invoices')
      .set({ ...move.changes(ctx, current, t), status: move.to, updated_at: t })
      .where('id', '=', current.id)
      .where('status', '=', current.status)
      .returningAll()
      .executeTakeFirst();
    if (!moved) throw refuse((await invoiceOr404(ctx, trx, id)).status);
    await move.record?.(trx, moved);
  });
  return getInvoice(ctx, id);
}

/**
 * The first send's move (document 3, Invoice (check): draft -> sent on POST …/send): the mail has
 * gone, so a draft becomes sent and issued today, exactly as mark-sent does. A re-send of a sent or
 * paid invoice moves nothing; neither does one that lost a race with another move.
 */
export async function issueOnSend(ctx: ServiceContext, id: number): Promise<void> {
  const current = await invoiceOr404(ctx, ctx.database.db, id);
  if (current.status !== 'draft') return;
  const move: Move = MOVES['mark-sent'];
  await inTransaction(ctx.database, async (trx) => {
    const t = now();
    await trx
      .updateTable('invoices')
      .set({ ...move.changes(ctx, current, t), status: move.to, updated_at: t })
      .where('id', '=', current.id)
      .where('status', '=', 'draft')
      .execute();
  });
}

/** A job's invoices (rows without line items) and what they add up to. */
export async function jobInvoices(ctx: ServiceContext, jobId: number) {
  const job = await findVisibleJob(ctx.database.db, ctx.auth.firm.id, jobId, ctx.auth.user);
  if (!job) throw notFound('Job not found');
  const rows = await invoicesOfJob(ctx.database.db, ctx.auth.firm.id, job.id);
  let invoiced = 0;
  let paid = 0;
  let outstanding = 0;
  for (const r of rows) {
    if (r.status === 'draft' || r.status === 'void') continue;
    invoiced += r.amount_cents;
    if (r.status === 'paid') paid += r.amount_cents;
    if (r.status === 'sent' || r.status === 'open') outstanding += r.amount_cents;
  }
  return {
    data: rows.map((r) => invoiceSummary(r)),
    totals: {
      invoiced: centsToDollars(invoiced),
      invoiced_cents: invoiced,
      paid: centsToDollars(paid),
      paid_cents: paid,
      outstanding: centsToDollars(outstanding),
      outstanding_cents: outstanding,
    },
  };
}
