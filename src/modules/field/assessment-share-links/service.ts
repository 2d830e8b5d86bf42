// Assessment report links (document 2: POST /v1/site-assessments/{assessment_id}/share-link;
// docs/api-decisions.md, Assessment and capital plan links). Each call makes a new link, scoped
// to some of the workspace's assessment services or showing every one; the workspace lists an
// assessment's links and revokes one for good (its page then says so, 410). Nothing is sent: the
// caller gets the link to send. Making and revoking land in the job's activity log.
import { logJobActivity } from '#crm/index.ts';
import { findAssessment, type AssessmentRow } from '#field/site-assessments/repo.ts';
import { assessmentNotFound } from '#field/site-assessments/service.ts';
import type { Executor } from '#db/dialect.ts';
import { type ServiceContext, inWorkspaceTransaction } from '#platform/context.ts';
import { badRequest, notFound } from '#platform/errors.ts';
import { pageOf } from '#platform/pagination.ts';
import { now, zWire } from '#platform/time.ts';
import { retireLink } from '#platform/customer-links.ts';
import { findAssessmentLink, listAssessmentLinks, scopeOf, type AssessmentShareLink } from './repo.ts';
import type { AssessmentShareLinkObject, CreateAssessmentShareLinkInput } from './schemas.ts';

export const LINK_KIND = 'assessment_report';

export const assessmentLinkNotFound = () => notFound('Assessment share link not found');

/** The customer page of a token: `<origin>/share/assessments/<token>`. */
export const assessmentReportUrl = (origin: string, token: string) => `${origin}/share/assessments/${token}`;

async function linkObject(
  ctx: ServiceContext,
  link: AssessmentShareLink,
  origin: string,
): Promise<AssessmentShareLinkObject> {
  const scope = scopeOf(link);
  return {
    id: link.id,
    assessment_id: link.assessment_id,
    share_url:
      link.revoked_at === null
        ? assessmentReportUrl(origin, await ctx.deps.links.tokenOf(LINK_KIND, link.token_salt))
        : null,
    scoped: scope !== null,
    service_type_ids: scope ?? [],
    label: link.label,
    revoked_at: zWire(link.revoked_at),
    created_at: zWire(link.created_at),
  };
}

async function visibleAssessment(ctx: ServiceContext, db: Executor, id: number): Promise<AssessmentRow> {
  const row = await findAssessment(db, ctx.auth.firm.id, id, ctx.auth.user);
  if (!row) throw assessmentNotFound();
  return row;
}

/** The services named, each once and ascending; 400 naming those that are not the workspace's. */
async function checkedServices(
  db: Executor,
  firmId: number,
  ids: readonly number[],
): Promise<{ id: number; name: string }[]> {
  const wanted = [...new Set(ids)].sort((a, b) => a - b);
  const found = await db
    .selectFrom('assessment_services')
    .select(['id', 'name'])
    .where('firm_id', '=', firmId)
    .where('id', 'in', wanted)
    .orderBy('id')
    .execute();
  const known = new Set(found.map((s) => s.id));
  const unknown = wanted.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw badRequest(`Unknown assessment services: ${unknown.join(', ')}`, {
      code: 'unknown_service',
      field: 'service_type_ids',
      message: `${unknown.length === 1 ? 'Assessment service' : 'Assessment services'} ${unknown.join(', ')} ${
        unknown.length === 1 ? 'is not a service' : 'are not services'
      } of this workspace (GET /v1/assessment-services)`,
      service_type_ids: unknown,
    });
  }
  return found;
}

export async function createAssessmentShareLink(
  ctx: ServiceContext,
  assessmentId: number,
  input: CreateAssessmentShareLinkInput,
  origin: string,
): Promise<AssessmentShareLinkObject> {
  const firmId = ctx.auth.firm.id;
  const label = input.label?.trim() || null;
  const token = await ctx.deps.links.issue(LINK_KIND);
  const link = await inWorkspaceTransaction(ctx, async (trx) => {
    const assessment = await visibleAssessment(ctx, trx, assessmentId);
    const services = input.service_type_ids ? await checkedServices(trx, firmId, input.service_type_ids) : null;
    const row = await trx
      .insertInto('assessment_share_links')
      .values({
        firm_id: firmId,
        assessment_id: assessment.id,
        token_salt: token.salt,
        token_hash: token.hash,
        service_type_ids: services ? JSON.stringify(services.map((s) => s.id)) : null,
        label,
        revoked_at: null,
        created_by_user_id: ctx.auth.user.id,
        created_at: now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const shows = services ? services.map((s) => s.name).join(', ') : 'every service';
    await logJobActivity(trx, {
      firmId,
      jobId: assessment.job_id,
      userId: ctx.auth.user.id,
      kind: 'assessment_report_shared',
      summary: `Report link made for assessment "${assessment.title}" (${shows})${label ? `: ${label}` : ''}`,
      data: { assessment_id: assessment.id, link_id: row.id, service_type_ids: services?.map((s) => s.id) ?? null },
    });
    return row;
  });
  return linkObject(ctx, link, origin);
}

export async function listAssessmentShareLinks(
  ctx: ServiceContext,
  assessmentId: number,
  query: { limit?: number; offset?: number },
  origin: string,
) {
  const db = ctx.database.db;
  await visibleAssessment(ctx, db, assessmentId);
  const page = pageOf(query);
  const { rows, total } = await listAssessmentLinks(db, ctx.auth.firm.id, assessmentId, page);
  return {
    data: await Promise.all(rows.map((row) => linkObject(ctx, row, origin))),
    pagination: { total, limit: page.limit, offset: page.offset },
  };
}

/** Turns the link off for good; revoking it again answers it unchanged (revoked_at kept). */
export async function revokeAssessmentShareLink(
  ctx: ServiceContext,
  assessmentId: number,
  linkId: number,
  origin: string,
): Promise<AssessmentShareLinkObject> {
  const firmId = ctx.auth.firm.id;
  const link = await inWorkspaceTransaction(ctx, async (trx) => {
    const assessment = await visibleAssessment(ctx, trx, assessmentId);
    const row = await findAssessmentLink(trx, firmId, assessment.id, linkId);
    if (!row) throw assessmentLinkNotFound();
    if (row.revoked_at !== null) return row;
    const at = now();
    await trx.updateTable('assessment_share_links').set({ revoked_at: at }).where('id', '=', row.id).execute();
    await retireLink(trx, { firmId, kind: LINK_KIND, tokenHash: row.token_hash, reason: 'revoked' });
    await logJobActivity(trx, {
      firmId,
      jobId: assessment.job_id,
      userId: ctx.auth.user.id,
      kind: 'assessment_report_link_revoked',
      summary: `Report link for assessment "${assessment.title}" revoked${row.label ? `: ${row.label}` : ''}`,
      data: { assessment_id: assessment.id, link_id: row.id },
    });
    return { ...row, revoked_at: at };
  });
  return linkObject(ctx, link, origin);
}
