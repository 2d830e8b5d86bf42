// Reviews (document 2: POST /v1/jobs/{job_id}/review-request makes a review link, 201 with
// review_url, nothing sent; GET /v1/reviews lists links and reviews newest first). The customer
// writes the review on the page the link opens (visit.ts, src/pages/review.ts).
import type { ServiceContext } from '#platform/context.ts';
import { inTransaction } from '#platform/context.ts';
import { emailField } from '#platform/email-phone.ts';
import type { Page } from '#platform/pagination.ts';
import { now } from '#platform/time.ts';
import { logJobActivity } from '#crm/job-activity/log.ts';
import { onVisibleJob } from '#crm/jobs/access.ts';
import { visibleJobOr404 } from '#crm/notes/parents.ts';
import type { ReviewRequestInput } from './schemas.ts';
import { REVIEW_LINK_KIND, type Review, reviewObject } from './serialize.ts';

const firstOf = (...values: (string | null | undefined)[]) =>
  values.map((v) => v?.trim()).find((v): v is string => v !== undefined && v !== '') ?? null;

export async function requestReview(ctx: ServiceContext, jobId: number, input: ReviewRequestInput, origin: string) {
  const firmId = ctx.auth.firm.id;
  const email = emailField(input.client_email, 'client_email');
  const token = await ctx.deps.links.issue(REVIEW_LINK_KIND);
  const review = await inTransaction(ctx.database, async (trx) => {
    const job = await visibleJobOr404(trx, firmId, jobId, ctx.auth.user);
    const account =
      job.client_account_id === null
        ? undefined
        : await trx
            .selectFrom('client_accounts')
            .select(['name', 'email'])
            .where('id', '=', job.client_account_id)
            .executeTakeFirst();
    const review = await trx
      .insertInto('reviews')
      .values({
        firm_id: firmId,
        job_id: job.id,
        client_name:
          input.client_name !== undefined
            ? firstOf(input.client_name)
            : firstOf(job.contact_name, job.bill_to_name, job.company, account?.name),
        client_email: email !== undefined ? email : firstOf(job.contact_email, job.bill_to_email, account?.email),
        token_salt: token.salt,
        token_hash: token.hash,
        submitted: 0,
        rating: null,
        content: null,
        is_public: 0,
        submitted_at: null,
        created_by_user_id: ctx.auth.user.id,
        created_at: now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await logJobActivity(trx, {
      firmId,
      jobId: job.id,
      userId: ctx.auth.user.id,
      kind: 'review_requested',
      summary: review.client_name ? `Review link made for ${review.client_name}` : 'Review link made',
      data: { review_id: review.id },
    });
    return review;
  });
  return reviewObject(ctx.deps.links, review, origin);
}

export async function listReviews(
  ctx: ServiceContext,
  filter: { jobId?: number; submitted?: boolean },
  page: Page,
  origin: string,
) {
  const firmId = ctx.auth.firm.id;
  const db = ctx.database.db;
  const matching = () => {
    let q = onVisibleJob(
      db.selectFrom('reviews').where('reviews.firm_id', '=', firmId),
      'reviews.job_id',
      firmId,
      ctx.auth.user,
    );
    if (filter.jobId !== undefined) q = q.where('reviews.job_id', '=', filter.jobId);
    if (filter.submitted !== undefined) q = q.where('reviews.submitted', '=', filter.submitted ? 1 : 0);
    return q;
  };
  const [rows, count] = await Promise.all([
    matching()
      .selectAll('reviews')
      .orderBy('reviews.created_at', 'desc')
      .orderBy('reviews.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    matching()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    data: await Promise.all((rows as Review[]).map((r) => reviewObject(ctx.deps.links, r, origin))),
    total: Number(count.n),
  };
}
