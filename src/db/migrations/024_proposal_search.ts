// Proposals in global search (GET /v1/search types=proposal; document 2, Search): title, client
// name and company, and the document number, indexed as every searched kind is (004_search.ts):
// on SQLite a contentless FTS5 table with the trigram tokenizer kept by triggers, on PostgreSQL a
// pg_trgm GIN index on one search-text expression. The update trigger watches only the searched
// columns, so counting a customer's views never touches the index.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';
import { pgSearchText } from './004_search.ts';

export const PROPOSAL_SEARCH_FIELDS = ['title', 'client_name', 'client_company', 'doc_number::text'] as const;

const COLUMNS = 'title, client, company, number';
const values = (r: string) =>
  `' ' || ${r}.title, ' ' || ${r}.client_name, ' ' || ${r}.client_company, ' ' || ${r}.doc_number`;

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  if (d.engine === 'sqlite') {
    await sql
      .raw(
        `create virtual table search_proposals using fts5(${COLUMNS}, tokenize = 'trigram', content = '', contentless_delete = 1)`,
      )
      .execute(db);
    await sql
      .raw(`insert into search_proposals (rowid, ${COLUMNS}) select r.id, ${values('r')} from proposals r`)
      .execute(db);
    await sql
      .raw(`create trigger search_proposals_insert after insert on proposals begin
        insert into search_proposals (rowid, ${COLUMNS}) values (new.id, ${values('new')}); end`)
      .execute(db);
    await sql
      .raw(`create trigger search_proposals_update after update of title, client_name, client_company, doc_number on proposals begin
        delete from search_proposals where rowid = old.id;
        insert into search_proposals (rowid, ${COLUMNS}) values (new.id, ${values('new')}); end`)
      .execute(db);
    await sql
      .raw(`create trigger search_proposals_delete after delete on proposals begin
        delete from search_proposals where rowid = old.id; end`)
      .execute(db);
    return;
  }
  const trgm = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
    join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  const schema = trgm.rows[0]?.schema;
  // 004_search installed pg_trgm; every database that reached 024 has it.
  if (!schema) throw new Error('the pg_trgm extension (installed by migration 004) is missing');
  await sql
    .raw(
      `create index proposals_search on proposals using gin (${pgSearchText(PROPOSAL_SEARCH_FIELDS)} "${schema.replaceAll('"', '""')}".gin_trgm_ops)`,
    )
    .execute(db);
}
