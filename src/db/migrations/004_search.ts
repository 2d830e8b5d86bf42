// Global search (GET /v1/search): the databases' own text indexes over what search reads.
//
// Every indexed field is indexed as ' ' || value. Queries of 3 or more characters match any
// substring; 2-character queries match the start of a word (the field's first word included,
// thanks to that leading space) by looking for ' ' + the two characters, which is again one
// indexed trigram. See src/modules/search/query.ts.
//
// Kinds: jobs, customers, contacts (and their phones and emails), sites and notes (content).
//
// SQLite: one contentless FTS5 table per record kind with the trigram tokenizer (case folded in
// any script), rowid = the record's id, kept in step by triggers on the record's table and
// backfilled here. Archived records stay indexed; search drops them when it reads the row.
//
// PostgreSQL: pg_trgm GIN indexes on one search-text expression per table. Queries must use
// exactly these expressions (src/modules/search/types/* import them) or the index is not used.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

/** Field separator of the PostgreSQL search texts: a query (whitespace collapsed) never spans two fields. */
const SEP = `e'\\n '`;

/**
 * A PostgreSQL search text: ' ' || each field, separated by SEP. `table` qualifies the columns
 * (queries that join need it; the parsed expression, and so the index match, is the same).
 */
export function pgSearchText(fields: readonly string[], table?: string): string {
  const col = (f: string) => (table ? f.replace(/^(\w+)/, `${table}.$1`) : f);
  return `(' ' || ${fields.map((f) => `coalesce(${col(f)}, '')`).join(` || ${SEP} || `)})`;
}

/** Searched fields of a job (a site's Property ID is matched through the site). */
export const JOB_SEARCH_FIELDS = [
  'name',
  'job_number::text',
  'company',
  'address',
  'contact_name',
  'own_property_reference',
  'external_work_order_number',
  'accounting_job_number',
] as const;
export const CLIENT_ACCOUNT_SEARCH_FIELDS = ['name', 'email', 'phone', 'address'] as const;
export const CONTACT_SEARCH_FIELDS = ['name', 'email', 'phone', 'company', 'title'] as const;
export const LOCATION_SEARCH_FIELDS = ['name', 'address', 'property_reference'] as const;
/** A contact's every phone and email (contact_channels rows). */
export const CHANNEL_SEARCH_FIELDS = ['value'] as const;

/**
 * A note's content (notes.content, never null) with line breaks and tabs read as spaces, so a
 * word at the start of a line is a word start too and a query runs on across a line break.
 * PostgreSQL form; `table` qualifies the column as in pgSearchText.
 */
export function pgNoteSearchText(table?: string): string {
  return `(' ' || translate(${table ? `${table}.` : ''}content, e'\\r\\n\\t', '   '))`;
}

interface FtsSpec {
  table: string;
  source: string;
  /** FTS column → SQL over the source row (`r.` is replaced by new./old./the table's alias). */
  columns: Record<string, string>;
  /** Source columns whose change re-indexes the row. */
  watch: string[];
}

const FTS: FtsSpec[] = [
  {
    table: 'search_jobs',
    source: 'jobs',
    columns: {
      name: `' ' || r.name`,
      number: `' ' || r.job_number`,
      company: `' ' || r.company`,
      address: `' ' || r.address`,
      contact: `' ' || r.contact_name`,
      property_reference: `' ' || r.own_property_reference`,
      work_order: `' ' || r.external_work_order_number`,
      accounting_number: `' ' || r.accounting_job_number`,
    },
    watch: [
      'name',
      'job_number',
      'company',
      'address',
      'contact_name',
      'own_property_reference',
      'external_work_order_number',
      'accounting_job_number',
    ],
  },
  {
    table: 'search_client_accounts',
    source: 'client_accounts',
    columns: { name: `' ' || r.name`, email: `' ' || r.email`, phone: `' ' || r.phone`, address: `' ' || r.address` },
    watch: ['name', 'email', 'phone', 'address'],
  },
  {
    table: 'search_contacts',
    source: 'contacts',
    columns: {
      name: `' ' || r.name`,
      email: `' ' || r.email`,
      phone: `' ' || r.phone`,
      company: `' ' || r.company`,
      title: `' ' || r.title`,
      channels: `(select ' ' || group_concat(ch.value, ' ') from contact_channels ch where ch.contact_id = r.id)`,
    },
    watch: ['name', 'email', 'phone', 'company', 'title'],
  },
  {
    table: 'search_locations',
    source: 'locations',
    columns: { name: `' ' || r.name`, address: `' ' || r.address`, property_reference: `' ' || r.property_reference` },
    watch: ['name', 'address', 'property_reference'],
  },
  {
    // Line breaks and tabs as spaces, as pgNoteSearchText.
    table: 'search_notes',
    source: 'notes',
    columns: { content: `' ' || replace(replace(replace(r.content, char(13), ' '), char(10), ' '), char(9), ' ')` },
    watch: ['content'],
  },
];

function ftsInsert(spec: FtsSpec, row: string): string {
  const cols = Object.keys(spec.columns);
  const values = Object.values(spec.columns).map((v) => v.replaceAll('r.', `${row}.`));
  return `insert into ${spec.table} (rowid, ${cols.join(', ')}) values (${row}.id, ${values.join(', ')});`;
}

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  if (d.engine === 'sqlite') {
    for (const spec of FTS) {
      await sql
        .raw(`create virtual table ${spec.table} using fts5(${Object.keys(spec.columns).join(', ')},
        tokenize = 'trigram', content = '', contentless_delete = 1)`)
        .execute(db);
      const cols = Object.keys(spec.columns);
      await sql
        .raw(`insert into ${spec.table} (rowid, ${cols.join(', ')})
        select r.id, ${Object.values(spec.columns).join(', ')} from ${spec.source} r`)
        .execute(db);
      await sql
        .raw(`create trigger ${spec.table}_insert after insert on ${spec.source} begin
        ${ftsInsert(spec, 'new')} end`)
        .execute(db);
      await sql
        .raw(`create trigger ${spec.table}_update after update of ${spec.watch.join(', ')} on ${spec.source} begin
        delete from ${spec.table} where rowid = old.id; ${ftsInsert(spec, 'new')} end`)
        .execute(db);
      await sql
        .raw(`create trigger ${spec.table}_delete after delete on ${spec.source} begin
        delete from ${spec.table} where rowid = old.id; end`)
        .execute(db);
    }
    // A contact's phones and emails are part of its row in search_contacts.
    const contacts = FTS.find((s) => s.table === 'search_contacts')!;
    const reindex = (ref: string) => `delete from search_contacts where rowid = ${ref};
      insert into search_contacts (rowid, ${Object.keys(contacts.columns).join(', ')})
        select c.id, ${Object.values(contacts.columns)
          .map((v) => v.replaceAll('r.', 'c.'))
          .join(', ')}
        from contacts c where c.id = ${ref};`;
    await sql
      .raw(`create trigger search_contact_channels_insert after insert on contact_channels begin
      ${reindex('new.contact_id')} end`)
      .execute(db);
    await sql
      .raw(`create trigger search_contact_channels_update after update of value, contact_id on contact_channels begin
      ${reindex('old.contact_id')} ${reindex('new.contact_id')} end`)
      .execute(db);
    await sql
      .raw(`create trigger search_contact_channels_delete after delete on contact_channels begin
      ${reindex('old.contact_id')} end`)
      .execute(db);
    return;
  }

  const trgm = await trigramSchema(db);
  const ops = `${trgm}.gin_trgm_ops`;
  for (const [index, table, fields] of [
    ['jobs_search', 'jobs', JOB_SEARCH_FIELDS],
    ['client_accounts_search', 'client_accounts', CLIENT_ACCOUNT_SEARCH_FIELDS],
    ['contacts_search', 'contacts', CONTACT_SEARCH_FIELDS],
    ['locations_search', 'locations', LOCATION_SEARCH_FIELDS],
    ['contact_channels_search', 'contact_channels', CHANNEL_SEARCH_FIELDS],
  ] as const) {
    await sql.raw(`create index ${index} on ${table} using gin (${pgSearchText(fields)} ${ops})`).execute(db);
  }
  await sql.raw(`create index notes_search on notes using gin (${pgNoteSearchText()} ${ops})`).execute(db);
  // Property IDs of sites reach their jobs through jobs_location (001); the trigram index above
  // finds the sites.
}

/**
 * The schema holding pg_trgm, installing it in `public` when missing (not in the connection's
 * own schema: a schema dropped with its tables, as tests do, must not take the extension along).
 */
async function trigramSchema(db: Kysely<any>): Promise<string> {
  const find = async () =>
    (
      await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
    join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db)
    ).rows[0]?.schema;
  let schema = await find();
  if (!schema) {
    // Migrations run in a transaction: a savepoint keeps it usable when another connection
    // installed the extension at the same moment (pg_extension's unique key).
    await sql`savepoint install_pg_trgm`.execute(db);
    try {
      await sql`create extension if not exists pg_trgm with schema public`.execute(db);
      await sql`release savepoint install_pg_trgm`.execute(db);
    } catch (err) {
      if ((err as { code?: string }).code !== '23505') throw err;
      await sql`rollback to savepoint install_pg_trgm`.execute(db);
    }
    schema = await find();
  }
  if (!schema) throw new Error('the pg_trgm extension is required for search and could not be installed');
  return `"${schema.replaceAll('"', '""')}"`;
}
