// The demo workspace's invoices: the walked job's deposit invoice, billed from its estimate and
// paid (so GET /v1/payments has a row), and a progress invoice sent and waiting. Check invoices:
// nothing is emailed.
import type { ServiceContext } from '#platform/context.ts';
import { createInvoice, moveInvoice } from '#billing/invoices/service.ts';

export async function demoInvoices(ctx: ServiceContext, jobId: number, estimateId: number): Promise<void> {
  const remit = { remit_to_name: ctx.auth.firm.name, remit_to_address: '1200 Industrial Pkwy, Columbus, OH 43228' };
  const deposit = await createInvoice(ctx, {
    job_id: jobId,
    estimate_id: estimateId,
    billing_type: 'deposit',
    line_items: [{ description: 'Deposit: mill and overlay, east lot (25%)', amount: 4250 }],
    due_days: 0,
    ...remit,
  });
  await moveInvoice(ctx, deposit.id, 'mark-sent');
  await moveInvoice(ctx, deposit.id, 'mark-paid');
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
  await moveInvoice(ctx, progress.id, 'mark-sent');
}
