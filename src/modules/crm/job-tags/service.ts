// Job tags: the workspace's tag list, and tags on a job (document 2, Job details, site, tags).
import { containsText } from '#db/text-search.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inTransaction, inWorkspaceTransaction } from '#platform/context.ts';
import { conflict, notFound } from '#platform/errors.ts';
import { nameKey } from '#platform/text.ts';
import { now } from '#platform/time.ts';
import { findVisibleJob } from '#crm/jobs/access.ts';
import { jobNotFound } from '#crm/jobs/service.ts';
import { logJobActivity } from '#crm/job-activity/log.ts';
import { findTagByName, findTagsByIds, tagsOfJob } from './repo.ts';

export const DEFAULT_TAG_COLOR = '#64748b';

export async function listTags(ctx: ServiceContext, q: string | undefined, limit: number, offset: number) {
  let base = ctx.database.db.selectFrom('job_tags').where('firm_id', '=', ctx.auth.firm.id);
  if (q) base = base.where(containsText(['name'], q, ctx.database.dialect.engine));
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('name_key').limit(limit).offset(offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** A taken name (any case) is a 409 that carries the existing tag, so callers can use it. */
export function createTag(ctx: ServiceContext, input: { name: string; color?: string }) {
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const name = input.name.trim();
    const existing = await findTagByName(trx, firmId, nameKey(name));
    if (existing) {
      throw conflict('Tag already exists', {
        message: `A tag named "${existing.name}" already exists`,
        tag: tagObject(existing),
      });
    }
    return trx
      .insertInto('job_tags')
      .values({
        firm_id: firmId,
        name,
        name_key: nameKey(name),
        color: (input.color ?? DEFAULT_TAG_COLOR).toLowerCase(),
        created_at: now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

export function tagObject(t: { id: number; name: string; color: string }) {
  return { id: t.id, name: t.name, color: t.color };
}

export async function addTagsToJob(ctx: ServiceContext, jobId: number, tagIds: number[]) {
  const firmId = ctx.auth.firm.id;
  return inTransaction(ctx.database, async (trx) => {
    if (!(await findVisibleJob(trx, firmId, jobId, ctx.auth.user))) throw jobNotFound();
    const ids = [...new Set(tagIds)];
    const found = await findTagsByIds(trx, firmId, ids);
    const missing = ids.filter((id) => !found.some((t) => t.id === id));
    if (missing.length > 0)
      throw notFound('Tag not found', {
        message: `No tag with id ${missing.join(', ')} in this workspace`,
        tag_ids: missing,
      });
    const t = now();
    const inserted = await trx
      .insertInto('job_tag_links')
      .values(ids.map((tag_id) => ({ job_id: jobId, tag_id, created_at: t })))
      .onConflict((oc) => oc.columns(['job_id', 'tag_id']).doNothing())
      .returning('tag_id')
      .execute();
    // One log entry per tag that was not on the job yet, in the order sent.
    const added = new Set(inserted.map((r) => r.tag_id));
    for (const id of ids) {
      if (!added.has(id)) continue;
      const tag = found.find((f) => f.id === id)!;
      await logJobActivity(trx, {
        firmId,
        jobId,
        userId: ctx.auth.user.id,
        kind: 'tag_added',
        summary: `Tag "${tag.name}" added`,
        data: { tag_id: tag.id, tag_name: tag.name },
      });
    }
    return tagsOfJob(trx, jobId);
  });
}

export async function removeTagFromJob(ctx: ServiceContext, jobId: number, tagId: number): Promise<void> {
  const firmId = ctx.auth.firm.id;
  await inTransaction(ctx.database, async (trx) => {
    if (!(await findVisibleJob(trx, firmId, jobId, ctx.auth.user))) throw jobNotFound();
    const removed = await trx
      .deleteFrom('job_tag_links')
      .where('job_id', '=', jobId)
      .where('tag_id', '=', tagId)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0)
      throw notFound('Tag not found', { message: 'That tag is not on this job' });
    const [tag] = await findTagsByIds(trx, firmId, [tagId]);
    if (tag) {
      await logJobActivity(trx, {
        firmId,
        jobId,
        userId: ctx.auth.user.id,
        kind: 'tag_removed',
        summary: `Tag "${tag.name}" removed`,
        data: { tag_id: tag.id, tag_name: tag.name },
      });
    }
  });
}
