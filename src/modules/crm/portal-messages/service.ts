// A job's portal messages (document 2: GET keeps the most recent N, oldest first; POST signs the
// message with the key's user and sends nothing). The customer's side (their answers and map
// comments) is portal-links/visit.ts.
import type { ServiceContext } from '#platform/context.ts';
import { inTransaction } from '#platform/context.ts';
import { badRequest } from '#platform/errors.ts';
import { now } from '#platform/time.ts';
import { logJobActivity } from '#crm/job-activity/log.ts';
import { visibleJobOr404 } from '#crm/notes/parents.ts';
import { insertMessage, recentMessages } from './repo.ts';
import type { CreatePortalMessageInput } from './schemas.ts';
import { DEFAULT_MESSAGES } from './schemas.ts';
import { portalMessageObject } from './serialize.ts';

export async function listPortalMessages(ctx: ServiceContext, jobId: number, limit = DEFAULT_MESSAGES) {
  const db = ctx.database.db;
  const job = await visibleJobOr404(db, ctx.auth.firm.id, jobId, ctx.auth.user);
  return (await recentMessages(db, ctx.auth.firm.id, job.id, limit)).map(portalMessageObject);
}

export async function postPortalMessage(ctx: ServiceContext, jobId: number, input: CreatePortalMessageInput) {
  const body = input.body.trim();
  if (body === '') throw badRequest('body is required', { field: 'body', message: 'Write a message to post' });
  const message = await inTransaction(ctx.database, async (trx) => {
    const job = await visibleJobOr404(trx, ctx.auth.firm.id, jobId, ctx.auth.user);
    const message = await insertMessage(trx, {
      firm_id: ctx.auth.firm.id,
      job_id: job.id,
      body,
      author_type: 'staff',
      author_name: ctx.auth.user.name,
      author_user_id: ctx.auth.user.id,
      map_comment: 0,
      latitude: null,
      longitude: null,
      location_id: null,
      location_name: null,
      created_at: now(),
    });
    await logJobActivity(trx, {
      firmId: ctx.auth.firm.id,
      jobId: job.id,
      userId: ctx.auth.user.id,
      kind: 'portal_message_posted',
      summary: 'Portal message posted to the customer',
      data: { message_id: message.id, author_type: 'staff' },
    });
    return message;
  });
  return portalMessageObject(message);
}
