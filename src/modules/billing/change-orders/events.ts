// change_order_approved (document 1, Business events: entity change_order; data change_order_id,
// number, title, amount_delta, tax_delta, days_delta, kind), recorded in the approval's
// transaction; `job` rides along because the event names its job.
import type { Executor } from '#db/dialect.ts';
import type { ChangeOrder } from '#db/tables.ts';
import { recordBusinessEvent } from '#events/record.ts';
import { centsToDollars } from '#platform/money.ts';

export async function recordChangeOrderApproved(trx: Executor, co: ChangeOrder): Promise<void> {
  await recordBusinessEvent(trx, {
    firmId: co.firm_id,
    type: 'change_order_approved',
    entity: { type: 'change_order', id: co.id },
    jobId: co.job_id,
    data: {
      change_order_id: co.id,
      number: co.co_number,
      title: co.title,
      amount_delta: centsToDollars(co.amount_delta_cents),
      tax_delta: centsToDollars(co.tax_delta_cents),
      days_delta: co.days_delta,
      kind: co.kind,
    },
  });
}
