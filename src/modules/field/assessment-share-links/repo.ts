// Assessment report link queries: an assessment's links (newest first), one of them, and the live
// link a page token opens.
import type { Selectable } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { AssessmentShareLinkTable } from '#db/tables.ts';

export type AssessmentShareLink = Selectable<AssessmentShareLinkTable>;

export function findAssessmentLink(
  db: Executor,
  firmId: number,
  assessmentId: number,
  linkId: number,
): Promise<AssessmentShareLink | undefined> {
  return db
    .selectFrom('assessment_share_links')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('assessment_id', '=', assessmentId)
    .where('id', '=', linkId)
    .executeTakeFirst();
}

/** Newest first. */
export async function listAssessmentLinks(
  db: Executor,
  firmId: number,
  assessmentId: number,
  page: { limit: number; offset: number },
): Promise<{ rows: AssessmentShareLink[]; total: number }> {
  const base = db
    .selectFrom('assessment_share_links')
    .where('firm_id', '=', firmId)
    .where('assessment_id', '=', assessmentId);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** The link with this token hash that has not been revoked. */
export function findLiveLinkByHash(db: Executor, hash: string): Promise<AssessmentShareLink | undefined> {
  return db
    .selectFrom('assessment_share_links')
    .selectAll()
    .where('token_hash', '=', hash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/** The ids of a link's scope (ascending), or null for a link showing every service. */
export const scopeOf = (link: Pick<AssessmentShareLink, 'service_type_ids'>): number[] | null =>
  link.service_type_ids === null ? null : (JSON.parse(link.service_type_ids) as number[]);
