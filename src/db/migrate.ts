// Runs the migrations in order; called on every start so a fresh machine needs no manual step.
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './database.ts';
import * as spine from './migrations/001_spine.ts';

type Step = { up(db: Kysely<any>, d: Database['dialect']): Promise<void> };
const steps: Record<string, Step> = {
  '001_spine': spine,
};

export async function migrateToLatest(database: Database): Promise<void> {
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const [name, step] of Object.entries(steps)) {
        out[name] = { up: (db) => step.up(db, database.dialect) };
      }
      return out;
    },
  };
  // Kysely looks for its bookkeeping tables in every schema unless told which one is ours.
  const { error, results } = await new Migrator({
    db: database.db, provider, ...(database.schema ? { migrationTableSchema: database.schema } : {}),
  }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`migration ${failed ?? '?'} failed: ${(error as Error).message ?? error}`);
  }
}
