// The demo workspace's customer portal, reviews and follow-up sequence: the portal turned on (as
// the operator would through the admin API) with the first customer's portal link, a message from
// the office and the customer's answer on their job, two review links (one already written, of the
// completed job), and the workspace's follow-up sequence configured (on, but started on no job:
// the demo emails nobody). Answers the customer pages to print: the portal and the review still
// waiting.
import { updateWorkspace } from '#admin/index.ts';
import { actingAs } from '#platform/auth.ts';
import type { ServiceContext } from '#platform/context.ts';
import { now } from '#platform/time.ts';
import {
  enablePortalLink,
  insertMessage,
  postPortalMessage,
  requestReview,
  saveSequenceSettings,
  submitReview,
} from '#crm/index.ts';

export async function demoPortal(owner: ServiceContext): Promise<{ label: string; path: string }[]> {
  const firmId = owner.auth.firm.id;
  await updateWorkspace(owner.database, firmId, { settings: { customer_portal_enabled: true } });
  const ctx: ServiceContext = { ...owner, auth: await actingAs(owner.database.db, firmId, owner.auth.user.id) };
  const db = ctx.database.db;
  const jobs = await db
    .selectFrom('jobs')
    .innerJoin('client_accounts as c', 'c.id', 'jobs.client_account_id')
    .select(['jobs.id', 'jobs.client_account_id', 'jobs.status', 'c.name as customer'])
    .where('jobs.firm_id', '=', firmId)
    .orderBy('jobs.id')
    .execute();
  const first = jobs[0];
  if (!first || first.client_account_id === null) return [];

  const portal = await enablePortalLink(ctx, first.client_account_id, '');
  await postPortalMessage(ctx, first.id, {
    body: 'Your crew is booked for Monday at 7 AM. Please keep the east lot clear of cars from Sunday night.',
  });
  await insertMessage(db, {
    firm_id: firmId,
    job_id: first.id,
    body: "Thanks! We'll put out cones Sunday afternoon. Will the dumpster area be done the same day?",
    author_type: 'customer',
    author_name: first.customer,
    author_user_id: null,
    map_comment: 0,
    latitude: null,
    longitude: null,
    location_id: null,
    location_name: null,
    created_at: now(),
  });

  // The written review is of work that was done: a completed job's.
  const done = jobs.find((j) => j.status === 'completed') ?? first;
  const written = await requestReview(ctx, done.id, {}, '');
  await submitReview(ctx.database, ctx.deps.mail, written.id, {
    rating: 5,
    content: 'Crew showed up on time, kept the lot tidy and the new striping looks sharp.',
    isPublic: true,
  });
  const waiting = await requestReview(ctx, (jobs[1] ?? first).id, {}, '');

  await saveSequenceSettings(ctx, {
    enabled: true,
    stop_on_customer_reply: true,
    steps: [
      {
        day: 2,
        kind: 'email',
        subject: 'Your estimate for {{job_name}}',
        body: 'Hi {{customer_name}},\n\nThanks for having {{workspace_name}} out to look at {{job_name}}. Any questions about the estimate? Just reply to this email.\n\n{{salesperson_name}}',
      },
      { day: 5, kind: 'task', title: 'Call {{customer_name}} about {{job_name}}' },
      {
        day: 10,
        kind: 'email',
        subject: 'Still planning {{job_name}}?',
        body: "Hi {{customer_name}},\n\nOur paving calendar is filling up for the season. If you'd like to hold a date for {{job_name}}, reply and we'll pencil you in.\n\n{{salesperson_name}}, {{workspace_name}}",
      },
    ],
  });
  return [
    { label: 'Customer portal', path: portal.data.portal_url! },
    { label: 'Review request', path: waiting.review_url },
  ];
}
