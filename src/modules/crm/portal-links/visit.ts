// The customer's side of a portal link (its page is src/pages/portal.ts): which customer a token
// opens, their jobs with each job's messages, and what the customer posts there: an answer
// (author_type customer, signed with the customer's name) or a comment on the map of the job's
// site (a point and the site). Posting takes one from the link's allowance first (POSTS_PER_WINDOW
// per hour, counted in the link row in one statement, so it holds across processes); a customer's
// post stops the job's running follow-up sequence when its settings say so, and alerts the office
// (customer-alerts: the job's assignee, else the owners), in the same transaction.
import type { Database } from '#db/database.ts';
import type { Executor } from '#db/dialect.ts';
import { inTransaction } from '#platform/context.ts';
import { linkTokenHash } from '#platform/link-tokens.ts';
import { millisOf, now, storedAt } from '#platform/time.ts';
import { settingsOf } from '#platform/workspace.ts';
import { deadLinkVisit, type RetiredReason } from '#platform/customer-links.ts';
import { insertMessage, recentMessages } from '#crm/portal-messages/repo.ts';
import { DEFAULT_MESSAGES } from '#crm/portal-messages/schemas.ts';
import type { PortalMessage } from '#crm/portal-messages/serialize.ts';
import { stopRunningSequence } from '#crm/follow-up-sequences/runs.ts';
import { logJobActivity } from '#crm/job-activity/log.ts';
import { queueCustomerAlert } from '#crm/customer-alerts/alert.ts';
import type { MailTransport } from '#platform/mail/transport.ts';
import { findEnabledLinkByHash, type PortalLink } from './repo.ts';
import { PORTAL_LINK_KIND } from './service.ts';

/** Posts a link accepts in one window; the next waits until the window has passed. */
export const POSTS_PER_WINDOW = 30;
export const POST_WINDOW_MS = 60 * 60 * 1000;
/** Jobs the portal shows (newest first). */
export const PORTAL_JOBS = 50;

export interface PortalJob {
  id: number;
  name: string;
  address: string | null;
  locationId: number | null;
  siteName: string | null;
  messages: PortalMessage[];
}

export interface Portal {
  link: PortalLink;
  firmName: string;
  customerName: string;
  jobs: PortalJob[];
}

export type PortalVisit =
  | { state: 'unknown' }
  | { state: 'gone'; why: RetiredReason }
  | { state: 'open'; portal: Portal };

/** The link a token opens: on, stopped (410; also while the workspace has the portal off), or never one (404). */
export async function visitPortal(db: Executor, token: string): Promise<PortalVisit> {
  const hash = linkTokenHash(token);
  if (hash === null) return { state: 'unknown' };
  const link = await findEnabledLinkByHash(db, hash);
  if (link) {
    const firm = await db
      .selectFrom('firms')
      .select(['name', 'settings'])
      .where('id', '=', link.firm_id)
      .executeTakeFirst();
    if (firm && !settingsOf(firm).customer_portal_enabled) return { state: 'gone', why: 'disabled' };
    const account = await db
      .selectFrom('client_accounts')
      .select(['id', 'name'])
      .where('id', '=', link.client_account_id)
      .executeTakeFirst();
    if (firm && account)
      return {
        state: 'open',
        portal: { link, firmName: firm.name, customerName: account.name, jobs: await jobsOf(db, link) },
      };
  }
  return deadLinkVisit(db, PORTAL_LINK_KIND, token);
}

async function jobsOf(db: Executor, link: PortalLink): Promise<PortalJob[]> {
  const jobs = await db
    .selectFrom('jobs as j')
    .leftJoin('locations as l', 'l.id', 'j.location_id')
    .select(['j.id', 'j.name', 'j.address', 'j.location_id', 'l.name as site_name'])
    .where('j.firm_id', '=', link.firm_id)
    .where('j.client_account_id', '=', link.client_account_id)
    .orderBy('j.id', 'desc')
    .limit(PORTAL_JOBS)
    .execute();
  return Promise.all(
    jobs.map(async (j) => ({
      id: j.id,
      name: j.name,
      address: j.address,
      locationId: j.location_id,
      siteName: j.site_name,
      messages: await recentMessages(db, link.firm_id, j.id, DEFAULT_MESSAGES),
    })),
  );
}

/** Takes one post from the link's allowance; false when the window's posts are used up. */
async function takePost(db: Executor, linkId: number): Promise<boolean> {
  const at = now();
  const openedBefore = storedAt(millisOf(at) - POST_WINDOW_MS);
  const result = await db
    .updateTable('portal_links')
    .set((eb) => {
      const fresh = eb.or([eb('post_window_start', 'is', null), eb('post_window_start', '<=', openedBefore)]);
      return {
        posts_in_window: eb
          .case()
          .when(fresh)
          .then(1)
          .else(eb('posts_in_window', '+', 1))
          .end(),
        post_window_start: eb.case().when(fresh).then(at).else(eb.ref('post_window_start')).end(),
      };
    })
    .where('id', '=', linkId)
    .where((eb) =>
      eb.or([
        eb('post_window_start', 'is', null),
        eb('post_window_start', '<=', openedBefore),
        eb('posts_in_window', '<', POSTS_PER_WINDOW),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Seconds until a link out of posts takes them again. */
export function secondsUntilPosts(link: Pick<PortalLink, 'post_window_start'>): number {
  if (link.post_window_start === null) return 60;
  return Math.max(1, Math.ceil((millisOf(link.post_window_start) + POST_WINDOW_MS - millisOf(now())) / 1000));
}

export type PostResult = { result: 'posted' } | { result: 'limited'; retryAfterSeconds: number } | { result: 'no_job' };

/**
 * Posts the customer's message on one of their jobs (a map comment when `point` is given: the
 * point and the job's site). A job that is not the customer's is `no_job` (the page's 404).
 */
export async function postCustomerMessage(
  database: Database,
  mail: Pick<MailTransport, 'fromAddress'>,
  portal: Portal,
  jobId: number,
  body: string,
  point: { latitude: number; longitude: number } | null,
): Promise<PostResult> {
  const job = portal.jobs.find((j) => j.id === jobId);
  if (!job) return { result: 'no_job' };
  return inTransaction(database, async (trx) => {
    if (!(await takePost(trx, portal.link.id))) {
      const link = await trx
        .selectFrom('portal_links')
        .select('post_window_start')
        .where('id', '=', portal.link.id)
        .executeTakeFirstOrThrow();
      return { result: 'limited', retryAfterSeconds: secondsUntilPosts(link) };
    }
    const message = await insertMessage(trx, {
      firm_id: portal.link.firm_id,
      job_id: job.id,
      body,
      author_type: 'customer',
      author_name: portal.customerName,
      author_user_id: null,
      map_comment: point ? 1 : 0,
      latitude: point?.latitude ?? null,
      longitude: point?.longitude ?? null,
      location_id: point ? job.locationId : null,
      location_name: point ? job.siteName : null,
      created_at: now(),
    });
    await logJobActivity(trx, {
      firmId: portal.link.firm_id,
      jobId: job.id,
      userId: null,
      kind: 'portal_message_posted',
      summary: point
        ? `${portal.customerName} commented on the site map`
        : `${portal.customerName} replied in the portal`,
      data: { message_id: message.id, author_type: 'customer', map_comment: point !== null },
    });
    await queueCustomerAlert(trx, mail, {
      action: point ? 'map_comment' : 'portal_message',
      firmId: portal.link.firm_id,
      jobId: job.id,
      ref: `portal_message:${message.id}`,
      did: point ? 'commented on the site map' : 'wrote in the portal',
      at: message.created_at,
      said: body,
      facts: [
        ['Site', point ? job.siteName : null],
        ['Map point', point ? `${point.latitude}, ${point.longitude}` : null],
      ],
      api: [`GET /v1/jobs/${job.id}/portal-messages`],
    });
    const closed = await stopRunningSequence(trx, portal.link.firm_id, job.id, 'customer_reply');
    if (closed !== null)
      await logJobActivity(trx, {
        firmId: portal.link.firm_id,
        jobId: job.id,
        userId: null,
        kind: 'follow_up_sequence_stopped',
        summary: 'Follow-up sequence stopped: the customer replied',
        data: { reason: 'customer_reply', steps_closed: closed },
      });
    return { result: 'posted' };
  });
}
