// The demo workspace's invoices: the walked job's deposit invoice, billed from its estimate for
// exactly the deposit its signed proposal asks for, and paid (so GET /v1/payments has a row); a
// progress invoice sent to the customer; and an online
// invoice for the next stretch of work, requested from the proposal, that the customer pays on the
// built-in test-mode page (card 4242 4242 4242 4242). The two emails go only to the embedded outbox
// (with an SMTP server configured the demo would otherwise mail its made-up customer): then the
// progress invoice is only marked sent and no online invoice is requested.
import type { ServiceContext } from '#platform/context.ts';
import { createInvoice, moveInvoice, requestPayment, sendInvoice } from '#billing/index.ts';

export async function demoInvoices(
  ctx: ServiceContext,
  jobId: number,
  estimateId: number,
  /** The proposal's deposit in dollars; none, no deposit invoice. */
  depositDollars: number | null,
  origin: string,
): Promise<{ label: string; path: string }[]> {
  const remit = { remit_to_name: ctx.auth.firm.name, remit_to_address: '1200 Industrial Pkwy, Columbus, OH 43228' };
  if (depositDollars !== null && depositDollars > 0) {
    const deposit = await createInvoice(ctx, {
      job_id: jobId,
      estimate_id: estimateId,
      billing_type: 'deposit',
      line_items: [
        { description: 'Deposit on the signed proposal: mill and overlay, east lot', amount: depositDollars },
      ],
      due_days: 0,
      ...remit,
    });
    await moveInvoice(ctx, deposit.id, 'mark-sent');
    await moveInvoice(ctx, deposit.id, 'mark-paid');
  }
  const progress = await createInvoice(ctx, {
    job_id: jobId,
    estimate_id: estimateId,
    billing_type: 'milestone',
    line_items: [
      { description: 'Milling, east lot', amount: 3800 },
      { description: 'Crack sealing, west lot', amount: 1125.5 },
    ],
    memo: 'Thank you for your business.',
    reference_number: 'PO-5521',
  });
  if (ctx.deps.mail.kind !== 'outbox') {
    await moveInvoice(ctx, progress.id, 'mark-sent');
    return [];
  }
  await sendInvoice(ctx, progress.id, origin);
  const online = await requestPayment(
    ctx,
    estimateId,
    { kind: 'progress', percent_complete: 75, memo: 'Paving of the east lot is done.' },
    origin,
  );
  return [
    {
      label: 'Invoice (online, pay with test card 4242 4242 4242 4242)',
      path: online.data.payment_url.slice(origin.length),
    },
  ];
}
