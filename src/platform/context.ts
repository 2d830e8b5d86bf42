// What a service call needs: the database, who is calling and the outside services (deps).
// Services never see a request.
import type { Database } from '#db/database.ts';
import type { AuthContext } from './auth.ts';
import type { Deps } from './deps.ts';

export interface ServiceContext {
  database: Database;
  auth: AuthContext;
  deps: Deps;
}

/** What a process hands its routes and tasks: the database and the dependency bag. */
export interface Env {
  database: Database;
  deps: Deps;
}

/** For routes: the service context of an authenticated request. */
export function contextFor(env: Env) {
  return (request: { auth: AuthContext }): ServiceContext => ({ database: env.database, deps: env.deps, auth: request.auth });
}

/**
 * Runs `work` in one transaction; a unique-key race lost to a concurrent writer, or a PostgreSQL
 * deadlock (two transactions taking the workspace lock and other row locks in different orders),
 * is run again.
 */
export async function inTransaction<T>(
  database: Database,
  work: (trx: import('kysely').Transaction<import('#db/tables.ts').DB>) => Promise<T>,
  attempts = 3,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await database.db.transaction().execute(work);
    } catch (err) {
      const retryable = database.dialect.isUniqueViolation(err) || database.dialect.isDeadlock(err);
      if (attempt >= attempts || !retryable) throw err;
    }
  }
}

/**
 * A transaction for a write that must not race another write of the same workspace (upserts on
 * external_ref, duplicate-name guards, number allocation): on PostgreSQL it starts by locking the
 * workspace row (db/dialect.ts, lockFirm).
 */
export function inWorkspaceTransaction<T>(ctx: ServiceContext,
  work: (trx: import('kysely').Transaction<import('#db/tables.ts').DB>) => Promise<T>): Promise<T> {
  return inTransaction(ctx.database, async (trx) => {
    await ctx.database.dialect.lockFirm(trx, ctx.auth.firm.id);
    return work(trx);
  });
}
