// The customer's side of a review link (its page is src/pages/review.ts): which review a token
// opens, and writing it once. A submitted review cannot be written again; writing it alerts the
// office (customer-alerts) in the same transaction.
import type { Database } from '#db/database.ts';
import { inTransaction } from '#platform/context.ts';
import type { MailTransport } from '#platform/mail/transport.ts';
import { linkTokenHash } from '#platform/link-tokens.ts';
import { now } from '#platform/time.ts';
import { queueCustomerAlert } from '#crm/customer-alerts/alert.ts';
import { logJobActivity } from '#crm/job-activity/log.ts';
import type { Review } from './serialize.ts';

export const REVIEW_CONTENT_MAX = 5000;

export type ReviewVisit = { state: 'unknown' } | { state: 'open'; review: Review; firmName: string; jobName: string };

export async function visitReview(database: Database, token: string): Promise<ReviewVisit> {
  const hash = linkTokenHash(token);
  if (hash === null) return { state: 'unknown' };
  const row = await database.db
    .selectFrom('reviews as r')
    .innerJoin('firms as f', 'f.id', 'r.firm_id')
    .innerJoin('jobs as j', 'j.id', 'r.job_id')
    .selectAll('r')
    .select(['f.name as firm_name', 'j.name as job_name'])
    .where('r.token_hash', '=', hash)
    .executeTakeFirst();
  if (!row) return { state: 'unknown' };
  const { firm_name, job_name, ...review } = row;
  return { state: 'open', review: review as Review, firmName: firm_name, jobName: job_name };
}

/** Writes the review unless it was written already; answers whether this call wrote it. */
export async function submitReview(
  database: Database,
  mail: Pick<MailTransport, 'fromAddress'>,
  reviewId: number,
  answer: { rating: number; content: string | null; isPublic: boolean },
): Promise<boolean> {
  return inTransaction(database, async (trx) => {
    const at = now();
    const result = await trx
      .updateTable('reviews')
      .set({
        submitted: 1,
        rating: answer.rating,
        content: answer.content,
        is_public: answer.isPublic ? 1 : 0,
        submitted_at: at,
      })
      .where('id', '=', reviewId)
      .where('submitted', '=', 0)
      .returning(['firm_id', 'job_id', 'client_name'])
      .executeTakeFirst();
    if (!result) return false;
    await logJobActivity(trx, {
      firmId: result.firm_id,
      jobId: result.job_id,
      userId: null,
      kind: 'review_submitted',
      summary: `Review written: ${answer.rating} of 5 stars`,
      data: { review_id: reviewId, rating: answer.rating, is_public: answer.isPublic },
    });
    await queueCustomerAlert(trx, mail, {
      action: 'review',
      firmId: result.firm_id,
      jobId: result.job_id,
      ref: `review:${reviewId}`,
      did: `left a ${answer.rating}-star review`,
      at,
      said: answer.content,
      facts: [
        ['Rating', `${'★'.repeat(answer.rating)}${'☆'.repeat(5 - answer.rating)} (${answer.rating} of 5)`],
        ['Written by', result.client_name],
        ['May be shown publicly', answer.isPublic ? 'Yes' : 'No'],
      ],
      api: [`GET /v1/reviews?job_id=${result.job_id}`],
    });
    return true;
  });
}
