// What the admin services share: reading the workspace they act on (404 when there is none) and
// forgetting cached keys once a change to a workspace, user or key has committed.
import type { Executor } from '#db/dialect.ts';
import type { Firm } from '#db/tables.ts';
import { invalidateAuthCache } from '#platform/auth-cache.ts';
import { notFound } from '#platform/errors.ts';

/** Resolved keys are memoised (platform/auth-cache.ts); a committed change must reach them now. */
export async function afterwardsForgetKeys<T>(change: Promise<T>): Promise<T> {
  try {
    return await change;
  } finally {
    invalidateAuthCache();
  }
}

const workspaceNotFound = () => notFound('Workspace not found');

export async function firmOrThrow(db: Executor, firmId: number): Promise<Firm> {
  const firm = await db.selectFrom('firms').selectAll().where('id', '=', firmId).executeTakeFirst();
  if (!firm) throw workspaceNotFound();
  return firm;
}
