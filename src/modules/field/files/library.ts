// Company Library files on jobs (docs/api-decisions.md, Files and the Company Library): a library
// file linked to a job shows in the job's file list with its `attachment`. Linking and unlinking
// are edits of the job (Write jobs), logged on it; the file itself stays in the library.
import { logJobActivity } from '#crm/index.ts';
import { type ServiceContext, inWorkspaceTransaction } from '#platform/context.ts';
import { now } from '#platform/time.ts';
import { fileNotFound, fileNotOnJob, notALibraryFile } from './errors.ts';
import { findAttachment, findFile, jobLibraryFiles } from './repo.ts';
import type { FileObject } from './schemas.ts';
import { fileObject } from './serialize.ts';
import { visibleJob } from './service.ts';

/**
 * Links a library file to a job by hand (attached_by_rule null). Answers the file as the job's list
 * shows it, and whether the link is new (false: it was linked already, nothing changed).
 */
export async function attachLibraryFile(
  ctx: ServiceContext,
  jobId: number,
  fileId: number,
): Promise<{ data: FileObject; created: boolean }> {
  const firmId = ctx.auth.firm.id;
  const created = await inWorkspaceTransaction(ctx, async (trx) => {
    const job = await visibleJob(ctx, trx, jobId);
    const file = await findFile(trx, firmId, fileId, ctx.auth.user);
    if (!file) throw fileNotFound();
    if (file.source !== 'library') throw notALibraryFile();
    if (await findAttachment(trx, fileId, job.id)) return false;
    await trx
      .insertInto('library_file_jobs')
      .values({
        firm_id: firmId,
        file_id: fileId,
        job_id: job.id,
        attached_by_rule: null,
        attached_by_user_id: ctx.auth.user.id,
        created_at: now(),
      })
      .execute();
    await logJobActivity(trx, {
      firmId,
      jobId: job.id,
      userId: ctx.auth.user.id,
      kind: 'library_file_attached',
      summary: `Library file "${file.filename}" linked`,
      data: { file_id: fileId, filename: file.filename },
    });
    return true;
  });
  const row = (await jobLibraryFiles(ctx.database.db, firmId, jobId)).find((r) => r.id === fileId);
  if (!row) throw fileNotFound();
  return { data: fileObject(row), created };
}

/** Unlinks a library file from a job; the file stays in the library and on other jobs. */
export async function detachLibraryFile(ctx: ServiceContext, jobId: number, fileId: number): Promise<void> {
  const firmId = ctx.auth.firm.id;
  await inWorkspaceTransaction(ctx, async (trx) => {
    const job = await visibleJob(ctx, trx, jobId);
    const link = await findAttachment(trx, fileId, job.id);
    if (!link || link.firm_id !== firmId) throw fileNotOnJob();
    const file = await findFile(trx, firmId, fileId, ctx.auth.user);
    await trx.deleteFrom('library_file_jobs').where('id', '=', link.id).execute();
    await logJobActivity(trx, {
      firmId,
      jobId: job.id,
      userId: ctx.auth.user.id,
      kind: 'library_file_detached',
      summary: `Library file "${file?.filename ?? fileId}" unlinked`,
      data: { file_id: fileId },
    });
  });
}
