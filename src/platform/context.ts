// What a service call needs: the database, who is calling and the outside services (deps).
// Services never see a request.
import type { Database } from '#db/database.ts';
import { runAfterCommit } from '#db/after-commit.ts';
import { markCommitsInTurn } from '#db/write-order.ts';
import type { AuthContext } from './auth.ts';
import type { Deps } from './deps.ts';
import { conflict, type ApiError } from './errors.ts';

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
  return (request: { auth: AuthContext }): ServiceContext => ({
    database: env.database,
    deps: env.deps,
    auth: request.auth,
  });
}

export interface TransactionOptions {
  /**
   * The work looks a row up and inserts it when missing (an upsert by external id, a key not yet
   * taken) without the workspace lock, so a concurrent writer can insert the same key in between.
   * A unique violation then means the race was lost, and the work runs again: its look-up now sees
   * the winner's row. Without this, a unique violation is a genuine conflict and is not retried.
   */
  uniqueRace?: boolean;
  /** What a genuine unique violation means to the caller (its 409); a generic 409 otherwise. */
  onUniqueViolation?: (err: unknown) => ApiError;
}

const ATTEMPTS = 3;

/** A unique violation no caller explained: still a conflict with a row already there, never a 500. */
const uniqueConflict = () =>
  conflict('Conflicts with an existing record', {
    code: 'unique_violation',
    message: 'Another record already holds a value that must be unique; nothing was saved',
  });

/**
 * Runs `work` in one transaction. Only what can succeed when run again is run again (at most three
 * times): a PostgreSQL deadlock or serialization failure, and a unique-key race lost to a
 * concurrent writer where the caller says its work is such a race (`uniqueRace`). Any other unique
 * violation is the caller's 409, and nothing is saved. What the work asked to do after its commit
 * (db/after-commit.ts) runs once it has committed, and never for an attempt that rolled back.
 */
export async function inTransaction<T>(
  database: Database,
  work: (trx: import('kysely').Transaction<import('#db/tables.ts').DB>) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      let begun: object | undefined;
      const result = await database.db.transaction().execute((trx) => {
        begun = trx;
        if (database.dialect.engine === 'sqlite') markCommitsInTurn(trx);
        return work(trx);
      });
      if (begun) runAfterCommit(begun);
      return result;
    } catch (err) {
      const unique = database.dialect.isUniqueViolation(err);
      const again = database.dialect.isTransient(err) || (unique && !!options.uniqueRace);
      if (again && attempt < ATTEMPTS) continue;
      if (unique) throw options.onUniqueViolation?.(err) ?? uniqueConflict();
      throw err;
    }
  }
}

/**
 * A transaction for a write that must not race another write of the same workspace (upserts on
 * external_ref, duplicate-name guards, number allocation): on PostgreSQL it starts by locking the
 * workspace row (db/dialect.ts, lockFirm).
 */
export function inWorkspaceTransaction<T>(
  ctx: Pick<ServiceContext, 'database' | 'auth'>,
  work: (trx: import('kysely').Transaction<import('#db/tables.ts').DB>) => Promise<T>,
  options: Omit<TransactionOptions, 'uniqueRace'> = {},
): Promise<T> {
  return inFirmTransaction(ctx.database, ctx.auth.firm.id, work, options);
}

/**
 * The workspace lock by the workspace's id alone, for writers with no key behind them: a customer's
 * answer on a page, a payment processor's event, the operator's catalog import.
 */
export function inFirmTransaction<T>(
  database: Database,
  firmId: number,
  work: (trx: import('kysely').Transaction<import('#db/tables.ts').DB>) => Promise<T>,
  options: Omit<TransactionOptions, 'uniqueRace'> = {},
): Promise<T> {
  // No uniqueRace: writers of one workspace take turns here, so a look-up before an insert is never stale.
  return inTransaction(
    database,
    async (trx) => {
      await database.dialect.lockFirm(trx, firmId);
      return work(trx);
    },
    options,
  );
}
