// Pipeline stages and job types of a workspace.
import type { Executor } from '#db/dialect.ts';
import type { JobStage } from '#db/tables.ts';
import type { AuthContext } from '#platform/auth.ts';

export function listStages(db: Executor, firmId: number): Promise<JobStage[]> {
  return db
    .selectFrom('job_stages')
    .selectAll()
    .where('firm_id', '=', firmId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/**
 * The workspace's stages as `ctx`'s memoised key context keeps them (platform/auth.ts,
 * workspaceFacts), read through `db` (the caller's transaction, on SQLite the one connection)
 * the first time. Stages are only ever added, by the admin API, which clears the memo; another
 * process sees a new stage within the memo's TTL, as it sees a plan change.
 */
export async function stagesOf(ctx: { auth: AuthContext }, db: Executor): Promise<JobStage[]> {
  const facts = ctx.auth.workspaceFacts;
  const known = facts?.get('stages') as JobStage[] | undefined;
  if (known) return known;
  // Kept once read, never while pending: a read fails with its transaction, which is not another call's.
  const stages = await listStages(db, ctx.auth.firm.id);
  facts?.set('stages', stages);
  return stages;
}
