// Runs the migrations in order; called on every start so a fresh machine needs no manual step.
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './database.ts';
import * as spine from '#db/migrations/001_spine.ts';
import * as eventsOut from '#db/migrations/002_events_out.ts';
import * as people from '#db/migrations/003_people.ts';
import * as search from '#db/migrations/004_search.ts';
import * as catalog from '#db/migrations/005_catalog.ts';
import * as estimates from '#db/migrations/006_estimates.ts';
import * as exportLinkReuse from '#db/migrations/007_export_link_reuse.ts';

type Step = { up(db: Kysely<any>, d: Database['dialect']): Promise<void> };
const steps: Record<string, Step> = {
  '001_spine': spine,
  '002_events_out': eventsOut,
  '003_people': people,
  '004_search': search,
  '005_catalog': catalog,
  '006_estimates': estimates,
  '007_export_link_reuse': exportLinkReuse,
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
  // Kysely looks for its bookkeeping tables in every schema unless told which one is ours: on
  // PostgreSQL name it (the connection's current schema), or another schema's tables confuse it.
  const schema = database.schema ?? (database.dialect.engine === 'postgres' ? await currentSchema(database) : undefined);
  const migrator = new Migrator({ db: database.db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  let { error, results } = await migrator.migrateToLatest();
  // Before it runs anything, Kysely's introspection reads the columns of every schema's tables;
  // a schema another session drops meanwhile (test databases, tenants) fails that read with
  // "schema … does not exist". Nothing has run then, so reading again is safe.
  for (let retry = 0; retry < 3 && error && !results?.length && droppedMeanwhile(error, schema); retry++) {
    ({ error, results } = await migrator.migrateToLatest());
  }
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`${failed ? `migration ${failed}` : 'migrations'} failed: ${(error as Error).message ?? error}`);
  }
}

function droppedMeanwhile(error: unknown, ours: string | undefined): boolean {
  const missing = /^schema "([^"]+)" does not exist$/.exec((error as Error)?.message ?? '')?.[1];
  return missing !== undefined && missing !== ours;
}

async function currentSchema(database: Database): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
  return rows[0]!.schema;
}
