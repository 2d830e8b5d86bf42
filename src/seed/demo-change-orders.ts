// The demo workspace's change orders on the walked job: a quick one the office approved (so the
// job's revised contract and change_order_approved show), and a time-and-materials one priced on
// its change-order estimate and sent to the job's contact, so its page can be read and signed out
// of the box. As with the demo proposal it is sent only through the embedded outbox (the .eml
// lands in the outbox folder); with an SMTP server configured it waits in Ready to send.
import type { ServiceContext } from '#platform/context.ts';
import { addLine } from '#estimating/index.ts';
import { createChangeOrder, decideChangeOrder, moveToStage, sendChangeOrder } from '#billing/index.ts';

export async function demoChangeOrders(
  ctx: ServiceContext,
  jobId: number,
  origin: string,
): Promise<{ label: string; path: string } | null> {
  const quick = await createChangeOrder(
    ctx,
    {
      job_id: jobId,
      title: 'Base repair at the dumpster pad',
      description: 'Full-depth patch of the failed base under the dumpster pad, found when the lot was milled.',
      amount_delta: 1850,
      days_delta: 1,
    },
    origin,
  );
  await decideChangeOrder(ctx, quick.data.id, 'approved', { comment: 'Approved by Marcus on site' }, origin);

  const tm = await createChangeOrder(
    ctx,
    {
      job_id: jobId,
      kind: 'tm',
      title: 'Clean out the inlet and regrade the swale',
      description: 'Time and materials: jet the clogged inlet by the dumpster and regrade the swale so the lot drains.',
      days_delta: 2,
    },
    origin,
  );
  const estimateId = tm.data.ep_estimate_id!;
  await addLine(ctx, estimateId, {
    name: 'Inlet jetting crew',
    unit: 'HR',
    quantity: 6,
    unit_cost: 145,
    cost_code: '02-630',
  });
  await addLine(ctx, estimateId, {
    name: 'Swale regrade and seed',
    unit: 'LF',
    quantity: 180,
    unit_cost: 9.5,
    cost_code: '31-220',
  });
  if (ctx.deps.mail.kind !== 'outbox') {
    await moveToStage(ctx, tm.data.id, 'ready_to_send', origin);
    return null;
  }
  const sent = await sendChangeOrder(ctx, tm.data.id, origin);
  // The page's path: serve prints it after its own origin.
  return { label: 'Change order (sent, ready to sign)', path: sent.url.slice(origin.length) };
}
