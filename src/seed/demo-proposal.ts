// The demo workspace's proposal: made from the walked job's issued estimate with a 25% deposit and
// sent to the job's contact, so its page can be read and signed out of the box. It is sent only
// through the embedded outbox (the .eml lands in the outbox folder, GET /admin/v1/outbox): with an
// SMTP server configured the demo would otherwise email its made-up customer, so it stays a draft.
import type { ServiceContext } from '#platform/context.ts';
import { proposalFromEstimate, sendProposal, updateProposal } from '#estimating/index.ts';

export async function demoProposal(
  ctx: ServiceContext,
  estimateId: number,
  origin: string,
): Promise<{ label: string; path: string }> {
  const { data } = await proposalFromEstimate(ctx, estimateId, origin);
  await updateProposal(
    ctx,
    data.id,
    {
      deposit_percent: 25,
      custom_sections: [
        {
          title: 'Warranty',
          body: 'We warrant the overlay against base failure and raveling for two years from completion.',
          items: [{ text: 'Crack sealing is warranted for one season', on: true }],
        },
      ],
    },
    origin,
  );
  const sent =
    ctx.deps.mail.kind === 'outbox'
      ? (await sendProposal(ctx, data.id, { start_follow_up_sequence: false }, origin)).data
      : null;
  // The page's path: serve prints it after its own origin.
  const path = (sent ?? data).share_url!.slice(origin.length);
  return { label: sent ? 'Proposal (sent, ready to sign)' : 'Proposal (draft)', path };
}
