// An estimate's `calculation` document (per line and cost line numbers, about 800 KB for 500
// detailed lines) is rewritten on every estimate write and read back on every read. PostgreSQL
// compresses a value that large before storing it out of line (TOAST), by default with pglz;
// lz4 writes it in about half the time and reads it faster, for a document a quarter larger on
// disk (docs/performance.md, "Estimates"). Values already stored keep their compression until
// rewritten. SQLite stores text as it is: nothing to change there. A server built without lz4
// (it is optional at build time) keeps pglz.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  if (d.engine !== 'postgres') return;
  const { rows } = await sql<{ lz4: boolean }>`
    select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`.execute(db);
  if (rows[0]?.lz4) await sql`alter table estimates alter column calculation set compression lz4`.execute(db);
}
