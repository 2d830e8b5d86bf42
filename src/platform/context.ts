// What a service call needs: the database and who is calling. Services never see a request.
import type { Database } from '../db/database.ts';
import type { AuthContext } from './auth.ts';

export interface ServiceContext {
  database: Database;
  auth: AuthContext;
}

/** Runs `work` in one transaction; a unique-key race lost to a concurrent writer is retried. */
export async function inTransaction<T>(
  database: Database,
  work: (trx: import('kysely').Transaction<import('../db/tables.ts').DB>) => Promise<T>,
  attempts = 3,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await database.db.transaction().execute(work);
    } catch (err) {
      if (attempt >= attempts || !database.dialect.isUniqueViolation(err)) throw err;
    }
  }
}
