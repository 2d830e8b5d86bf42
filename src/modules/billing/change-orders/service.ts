// Change orders (document 3, Change orders; Change order state table): create, read, list and
// edit. Writes need operations on for the workspace (document 2: 403 Operations not enabled).
// A quick change order is the office's amount; tm and full make a change-order estimate from the
// job's estimate through the estimates module, in the same workspace transaction as the change
// order, so both exist or neither does. The workspace lock that transaction takes is what makes
// a repeated request_key find the first create's change order, however many arrive at once; the
// unique (firm_id, request_key) index stands behind it. Status moves are in moves.ts, the send in
// send.ts, the customer's answers in visit.ts.
import type { Executor } from '#db/dialect.ts';
import type { ChangeOrder, Job } from '#db/tables.ts';
import { findVisibleJob } from '#crm/index.ts';
import {
  assertEstimateRole,
  inEstimateTransaction,
  loadTree,
  type Places,
  startChangeOrderEstimate,
  type Trx,
} from '#estimating/index.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { emailField } from '#platform/email-phone.ts';
import { badRequest, conflict, forbidden, invalidField, notFound } from '#platform/errors.ts';
import { dollarsToCents } from '#platform/money.ts';
import type { Page } from '#platform/pagination.ts';
import { now } from '#platform/time.ts';
import { type JobMoney, withChange } from './contract.ts';
import { costCodeLines, followsEstimate, linesChange, parseLines, type CostCodeLine } from './figures.ts';
import { shareUrlOf } from './link.ts';
import {
  type ChangeOrderFilter,
  type ChangeOrderRow,
  changeOrderByRequestKey,
  findChangeOrder,
  listChangeOrders as listRows,
  nextCoNumber,
} from './repo.ts';
import type { ChangeOrderObject, CreateChangeOrderInput, UpdateChangeOrderInput } from './schemas.ts';
import { changeOrderObject, changeOrderSummary, figuresOf } from './serialize.ts';
import { changeOrderStages, firstStage } from './stages.ts';

/** Document 2: schedule, holds and change-order writes need operations on. */
export function assertOperations(ctx: ServiceContext): void {
  if (!ctx.auth.settings.operations_enabled)
    throw forbidden('Operations not enabled', {
      code: 'operations_disabled',
      message: 'Change-order writes need operations turned on for the workspace',
    });
}

export const changeOrderNotFound = () => notFound('Change order not found');

export async function changeOrderOr404(ctx: ServiceContext, db: Executor, id: number): Promise<ChangeOrderRow> {
  const row = await findChangeOrder(db, ctx.auth.firm.id, id, ctx.auth.user);
  if (!row) throw changeOrderNotFound();
  return row;
}

/** Decided (400 change order already decided) and void change orders take no more changes. */
export function refuseClosed(co: Pick<ChangeOrder, 'status'>): void {
  if (co.status === 'approved' || co.status === 'declined')
    throw badRequest('change order already decided', {
      code: 'change_order_decided',
      status: co.status,
      message: `The change order is ${co.status}: it can no longer be changed, sent or decided again`,
    });
  if (co.status === 'void')
    throw badRequest('Change order is void', {
      code: 'change_order_void',
      status: co.status,
      message: 'A void change order keeps its number but takes no more changes',
    });
}

/** A priced change order's lines by cost code as they stand (live from its estimate while open). */
async function linesOf(db: Executor, row: ChangeOrderRow): Promise<CostCodeLine[]> {
  if (row.kind === 'quick') return [];
  if (followsEstimate(row)) {
    const estimate = await db
      .selectFrom('estimates')
      .selectAll()
      .where('id', '=', row.ep_estimate_id!)
      .executeTakeFirst();
    if (estimate) return linesChange(costCodeLines(await loadTree(db, estimate)), parseLines(row.base_lines));
  }
  return parseLines(row.lines) ?? [];
}

/** The job's contract and budget with this change order: as posted, as it would post, or none (the customer page shows it too). */
export async function revisedOf(db: Executor, row: ChangeOrderRow): Promise<JobMoney | null> {
  if (row.status === 'approved')
    return { contract_cents: row.revised_contract_cents, budget_cents: row.revised_budget_cents };
  if (row.status !== 'draft' && row.status !== 'sent') return null;
  return withChange(db, row.job_id, figuresOf(row));
}

/** The single change order as the API answers it. */
export async function changeOrderAnswer(
  ctx: ServiceContext,
  row: ChangeOrderRow,
  origin: string,
): Promise<ChangeOrderObject> {
  const db = ctx.database.db;
  const [lines, revised, shareUrl, trail] = await Promise.all([
    linesOf(db, row),
    revisedOf(db, row),
    shareUrlOf(ctx.deps, row, origin),
    db
      .selectFrom('change_order_audit_events')
      .selectAll()
      .where('change_order_id', '=', row.id)
      .orderBy('id')
      .execute(),
  ]);
  return changeOrderObject(row, { stages: changeOrderStages(ctx.auth.settings), lines, revised, shareUrl, trail });
}

export async function writtenChangeOrder(ctx: ServiceContext, id: number, origin: string) {
  return changeOrderAnswer(ctx, await changeOrderOr404(ctx, ctx.database.db, id), origin);
}

export async function getChangeOrder(ctx: ServiceContext, id: number, origin: string) {
  return writtenChangeOrder(ctx, id, origin);
}

export async function listChangeOrders(ctx: ServiceContext, filter: ChangeOrderFilter, page: Page) {
  const { rows, total } = await listRows(
    ctx.database.db,
    ctx.auth.firm.id,
    ctx.auth.user,
    filter,
    page.limit,
    page.offset,
  );
  return { change_orders: rows.map(changeOrderSummary), total, limit: page.limit, offset: page.offset };
}

/** Blank text is no value (null). */
const text = (value: string | null | undefined) => {
  if (value === undefined) return undefined;
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
};

/** Who the change order goes to unless the body says: the job's contact, its bill-to, its customer. */
async function customerDefaults(db: Executor, job: Job) {
  const account =
    job.client_account_id === null
      ? undefined
      : await db
          .selectFrom('client_accounts')
          .select('email')
          .where('id', '=', job.client_account_id)
          .executeTakeFirst();
  return {
    customer_name: job.contact_name ?? job.bill_to_name ?? null,
    customer_email: job.contact_email ?? job.bill_to_email ?? account?.email ?? null,
  };
}

/** What a body may say for its kind (document 3: amount_delta quick only; pricing_mode for full). */
function checkKindFields(kind: ChangeOrder['kind'], input: CreateChangeOrderInput): void {
  if (kind === 'quick') {
    if (input.title === undefined) throw invalidField('title', 'title is required for a quick change order');
    if (input.pricing_mode !== undefined)
      throw invalidField('pricing_mode', 'pricing_mode is for tm and full change orders (priced by an estimate)');
    return;
  }
  if (input.amount_delta !== undefined)
    throw invalidField(
      'amount_delta',
      `amount_delta is for quick change orders: a ${kind} one is priced by its estimate`,
    );
  if (kind === 'tm' && input.pricing_mode === 'revision')
    throw invalidField('pricing_mode', 'A tm change order prices its new work alone (additive); revision is for full');
}

/** The columns of a change order nobody has sent, decided or signed. */
const UNDECIDED = {
  approved_at: null,
  approval_source: null,
  declined_at: null,
  decided_by_user_id: null,
  decision_comment: null,
  voided_at: null,
  signature_name: null,
  signed_at: null,
  consent_version: null,
  signature_image: null,
  signed_document: null,
  document_sha256: null,
  sent_at: null,
  sent_to: null,
  sent_by_user_id: null,
  token_salt: null,
  token_hash: null,
  first_viewed_at: null,
  last_viewed_at: null,
  exported_at: null,
  export_ref: null,
} as const;

export interface Created {
  created: boolean;
  data: ChangeOrderObject;
}

export async function createChangeOrder(
  ctx: ServiceContext,
  input: CreateChangeOrderInput,
  origin: string,
): Promise<Created> {
  assertOperations(ctx);
  const kind = input.kind ?? 'quick';
  checkKindFields(kind, input);
  const email = emailField(input.customer_email, 'customer_email');
  const requestKey = input.request_key?.toLowerCase() ?? null;
  const job = await findVisibleJob(ctx.database.db, ctx.auth.firm.id, input.job_id, ctx.auth.user);
  if (!job) throw notFound('Job not found');
  if (kind !== 'quick') assertEstimateRole(ctx.auth.user, 'change_order');
  const stages = changeOrderStages(ctx.auth.settings);

  /** The create in its transaction; `places` (drive times looked up outside it) only for a priced kind. */
  const write = async (trx: Trx, places: Places | null) => {
    if (requestKey !== null) {
      const earlier = await changeOrderByRequestKey(trx, ctx.auth.firm.id, requestKey);
      if (earlier) {
        if (earlier.job_id !== job.id || earlier.kind !== kind)
          throw conflict('request_key was used for another change order', {
            code: 'request_key_reused',
            change_order_id: earlier.id,
            message: 'A request_key repeats one create exactly: send a new key for a different change order',
          });
        return { created: false, id: earlier.id };
      }
    }
    const t = now();
    const number = await nextCoNumber(trx, job.id);
    const defaults = await customerDefaults(trx, job);
    let priced: Partial<ChangeOrder> = {};
    if (places !== null) {
      // The job's estimate as it is now, inside the lock (document 3: 400 when the job has none).
      const { estimate_id } = await trx
        .selectFrom('jobs')
        .select('estimate_id')
        .where('id', '=', job.id)
        .executeTakeFirstOrThrow();
      if (estimate_id === null)
        throw badRequest('job has no estimate', {
          code: 'job_has_no_estimate',
          message:
            'tm and full change orders start from the job’s estimate: make and issue one first, or make a quick change order',
        });
      const title = text(input.title);
      const { tree, parent } = await startChangeOrderEstimate(ctx, trx, places, estimate_id, {
        ...(title ? { name: title } : {}),
        ...(input.pricing_mode ? { pricing_mode: input.pricing_mode } : {}),
      });
      const revision = tree.estimate.change_order_mode === 'revision';
      const base = revision
        ? {
            base_price_cents: parent.price_cents ?? 0,
            base_tax_cents: parent.tax_cents ?? 0,
            base_cost_cents: parent.cost_cents ?? 0,
            base_lines: JSON.stringify(costCodeLines(await loadTree(trx, parent))),
          }
        : {};
      const e = tree.estimate;
      priced = {
        pricing_mode: revision ? 'revision' : 'additive',
        ep_estimate_id: e.id,
        ...base,
        amount_delta_cents: (e.price_cents ?? 0) - (base.base_price_cents ?? 0),
        tax_delta_cents: (e.tax_cents ?? 0) - (base.base_tax_cents ?? 0),
        cost_delta_cents: (e.cost_cents ?? 0) - (base.base_cost_cents ?? 0),
      };
    }
    const row = await trx
      .insertInto('change_orders')
      .values({
        firm_id: ctx.auth.firm.id,
        job_id: job.id,
        co_number: number,
        kind,
        pricing_mode: null,
        title: text(input.title) ?? `Change order ${number}`,
        description: text(input.description) ?? '',
        status: 'draft',
        stage: firstStage(stages, 'working'),
        source: 'office',
        customer_name: text(input.customer_name) ?? defaults.customer_name,
        customer_email: email ?? defaults.customer_email,
        amount_delta_cents: input.amount_delta === undefined ? 0 : dollarsToCents(input.amount_delta),
        tax_delta_cents: 0,
        cost_delta_cents: 0,
        days_delta: input.days_delta ?? 0,
        lines: null,
        base_price_cents: null,
        base_tax_cents: null,
        base_cost_cents: null,
        base_lines: null,
        revised_contract_cents: null,
        revised_budget_cents: null,
        ep_estimate_id: null,
        request_key: requestKey,
        ...UNDECIDED,
        ...priced,
        created_by_user_id: ctx.auth.user.id,
        created_at: t,
        updated_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { created: true, id: row.id };
  };

  const outcome =
    kind === 'quick'
      ? await inWorkspaceTransaction(ctx, (trx) => write(trx, null))
      : await inEstimateTransaction(ctx, write);
  return { created: outcome.created, data: await writtenChangeOrder(ctx, outcome.id, origin) };
}

/**
 * PATCH: edits a draft or sent change order (document 3: approved or declined 400; void ones take
 * no changes either). A priced one's amount is its estimate's: amount_delta is 400 there. The
 * update is conditional on the change order as read, so an edit racing a decision is refused.
 */
export async function updateChangeOrder(
  ctx: ServiceContext,
  id: number,
  input: UpdateChangeOrderInput,
  origin: string,
) {
  assertOperations(ctx);
  const current = await changeOrderOr404(ctx, ctx.database.db, id);
  refuseClosed(current);
  if (input.amount_delta !== undefined && current.kind !== 'quick')
    throw invalidField(
      'amount_delta',
      `amount_delta is for quick change orders: a ${current.kind} one is priced by its estimate (ep_estimate_id)`,
    );
  const email = emailField(input.customer_email, 'customer_email');
  if (Object.keys(input).length === 0) return changeOrderAnswer(ctx, current, origin);
  await inWorkspaceTransaction(ctx, async (trx) => {
    const changes: Partial<ChangeOrder> = {};
    if (input.title !== undefined) changes.title = input.title.trim();
    if (input.description !== undefined) changes.description = text(input.description) ?? '';
    if (input.amount_delta !== undefined) changes.amount_delta_cents = dollarsToCents(input.amount_delta);
    if (input.days_delta !== undefined) changes.days_delta = input.days_delta;
    if (input.customer_name !== undefined) changes.customer_name = text(input.customer_name) ?? null;
    if (email !== undefined) changes.customer_email = email;
    const edited = await trx
      .updateTable('change_orders')
      .set({ ...changes, updated_at: now() })
      .where('id', '=', current.id)
      .where('status', '=', current.status)
      .where('updated_at', '=', current.updated_at)
      .returning('id')
      .executeTakeFirst();
    if (!edited)
      throw conflict('The change order changed while it was being edited', {
        code: 'concurrent_change',
        message: 'Read it again (GET /v1/change-orders/{id}) and send the edit again',
      });
  });
  return writtenChangeOrder(ctx, id, origin);
}
