// Search benchmark: GET /v1/search over a workspace of 1M records (700k jobs, 150k customers,
// 100k contacts, 50k sites) against the bare indexed queries it wraps (each type's FTS5 /
// trigram candidate query, run directly on the database) in the same run.
//
//   node --import tsx bench/search.ts                SQLite file database in a temp dir
//   DATABASE_URL=postgres://… node --import tsx bench/search.ts    PostgreSQL (fresh schema, dropped)
//   node --import tsx bench/search.ts --quick        20k records
//   node --import tsx bench/search.ts --smoke        seconds, for CI (bench/mode.ts): 2k records, 20 queries, plans printed
//   … --explain                                       also print the bare queries' plans for four sample texts
//
// Requests go through app.inject (no socket), one at a time. The report is printed as markdown
// and written to bench/results/search-<engine>.md. See docs/performance.md.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql, type RawBuilder } from 'kysely';
import { buildApp } from '#src/app.ts';
import { isPostgresUrl } from '#src/config.ts';
import type { Database } from '#db/database.ts';
import {
  CLIENT_ACCOUNT_SEARCH_FIELDS,
  CONTACT_SEARCH_FIELDS,
  JOB_SEARCH_FIELDS,
  LOCATION_SEARCH_FIELDS,
  pgSearchText,
} from '#db/migrations/004_search.ts';
import { CANDIDATES, ftsPhrase, likeContains, parseSearchQuery } from '#crm/search/query.ts';
import { openBenchDatabase } from './database.ts';
import { benchWorkspace } from './workspace.ts';
import { insertJobs } from './seed.ts';
import { MODE_LABEL, QUICK, saveReport, SMOKE, sized } from './mode.ts';

const SCALE = sized(1, 0.02, 0.002);
const COUNTS = {
  jobs: Math.round(700_000 * SCALE),
  customers: Math.round(150_000 * SCALE),
  contacts: Math.round(100_000 * SCALE),
  sites: Math.round(50_000 * SCALE),
};
const QUERIES = sized(200, 200, 20);
const databaseUrl =
  process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;
const engine = databaseUrl ? 'postgres' : 'sqlite';
const log = (m: string) => console.error(`[search bench] ${m}`);

const STREETS = [
  'Oak',
  'Maple',
  'Cedar',
  'Elm',
  'Pine',
  'Birch',
  'Walnut',
  'Chestnut',
  'Willow',
  'Aspen',
  'Spruce',
  'Hickory',
  'Magnolia',
  'Sycamore',
  'Juniper',
  'Laurel',
  'Poplar',
  'Cypress',
  'Hawthorn',
  'Alder',
];
const SURNAMES = [
  'Smith',
  'Johnson',
  'Garcia',
  'Nguyen',
  'Okafor',
  'Müller',
  'Kowalski',
  'Haddad',
  'Tanaka',
  'Silva',
  'Ivanova',
  'Dubois',
  'Rossi',
  'Jensen',
  'Novak',
  'Costa',
  'Brennan',
  'Álvarez',
  'Lindqvist',
  'Petrov',
];
const TITLES = ['Facilities Manager', 'Property Manager', 'Owner', 'Procurement Lead', 'Site Supervisor'];

/** SQL `case` picking words[k % words.length]. */
function pick(words: string[], k: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`(case (${k} % ${sql.lit(words.length)}) ${sql.join(
    words.map((w, i) => sql`when ${sql.lit(i)} then ${sql.lit(w)}`),
    sql` `,
  )} end)`;
}

async function insertSeries(
  database: Database,
  count: number,
  build: (k: RawBuilder<unknown>) => RawBuilder<unknown>,
): Promise<void> {
  const chunk = 50_000;
  for (let done = 0; done < count; done += chunk) {
    const size = Math.min(chunk, count - done);
    const series =
      database.dialect.engine === 'sqlite'
        ? sql`with recursive s(n) as (select 0 union all select n + 1 from s where n + 1 < ${sql.lit(size)})`
        : sql`with s(n) as (select generate_series(0, ${sql.lit(size - 1)}))`;
    await database.db
      .transaction()
      .execute((trx) => sql`${series} ${build(sql`(${sql.lit(done + 1)} + n)`)}`.execute(trx));
  }
}

async function seed(database: Database, firmId: number, ownerId: number): Promise<Record<string, number>> {
  const at = sql.lit('2026-01-01T00:00:00.000000');
  const took: Record<string, number> = {};
  const time = async (what: string, work: () => Promise<void>) => {
    const t0 = performance.now();
    await work();
    took[what] = performance.now() - t0;
    log(`seeded ${what} in ${(took[what]! / 1000).toFixed(1)} s`);
  };
  const lower = (e: RawBuilder<unknown>) => sql`lower(${e})`;
  await time('customers', () =>
    insertSeries(database, COUNTS.customers, (k) => {
      const name = sql`${pick(SURNAMES, sql`(${k} / 7)`)} || ' ' || ${pick(STREETS, k)} || ' Holdings ' || ${k}`;
      return sql`insert into client_accounts (firm_id, name, name_key, email, phone, address, custom_fields, created_at, updated_at)
      select ${sql.lit(firmId)}, ${name}, ${lower(name)}, 'billing' || ${k} || '@customer' || (${k} % 997) || '.example',
        '555-' || (100000 + ${k}), (${k} % 7000) || ' ' || ${pick(STREETS, sql`(${k} / 3)`)} || ' Ave, Riverton', '{}', ${at}, ${at} from s`;
    }),
  );
  await time('contacts', () =>
    insertSeries(database, COUNTS.contacts, (k) => {
      const name = sql`'Pat' || (${k} % 300) || ' ' || ${pick(SURNAMES, k)} || ${k}`;
      return sql`insert into contacts (firm_id, name, email, phone, company, title, sort_key, created_at, updated_at)
      select ${sql.lit(firmId)}, ${name}, 'pat' || ${k} || '@mail' || (${k} % 500) || '.example', '(555) ' || (200000 + ${k}),
        ${pick(SURNAMES, sql`(${k} / 11)`)} || ' Group', ${pick(TITLES, k)}, ${lower(name)}, ${at}, ${at} from s`;
    }),
  );
  await time('sites', () =>
    insertSeries(database, COUNTS.sites, (k) => {
      const address = sql`${k} || ' ' || ${pick(STREETS, k)} || ' St, Lakeside'`;
      return sql`insert into locations (firm_id, name, address, address_key, property_reference, custom_fields, created_at, updated_at)
      select ${sql.lit(firmId)}, ${address}, ${address}, ${lower(address)}, 'PID-' || (500000 + ${k}), '{}', ${at}, ${at} from s`;
    }),
  );
  await time('jobs', () => insertJobs(database, firmId, ownerId, COUNTS.jobs, { namePrefix: 'Bench job' }));
  if (database.dialect.engine === 'postgres') await sql`analyze`.execute(database.db);
  return took;
}

/** ~200 varied queries: rare and common words, numbers, emails, Property IDs, 2 characters, misses. */
function queries(): { q: string; kind: string }[] {
  let state = 42;
  const rand = (n: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  const out: { q: string; kind: string }[] = [];
  const kinds: [string, () => string][] = [
    ['rare: a job name', () => `Bench job ${1001 + rand(COUNTS.jobs)}`],
    ['rare: a job number', () => String(1001 + rand(COUNTS.jobs))],
    ['rare: an email', () => `billing${1 + rand(COUNTS.customers)}@`],
    ['rare: a Property ID', () => `PID-${500001 + rand(COUNTS.sites)}`],
    ['rare: a person', () => `${SURNAMES[rand(SURNAMES.length)]}${1 + rand(COUNTS.contacts)}`],
    [
      'common: a word',
      () =>
        [STREETS[rand(STREETS.length)]!, SURNAMES[rand(SURNAMES.length)]!, 'Main St', 'Springfield', 'Holdings'][
          rand(5)
        ]!,
    ],
    ['common: company n', () => `Company ${rand(5000)}`],
    ['2 characters', () => ['Ma', 'Oa', 'Pi', '12', '55', 'Sm', 'Be', 'Co', 'Pa', 'Gr'][rand(10)]!],
    ['miss', () => `Qzx${rand(100000)}`],
  ];
  for (let i = 0; i < QUERIES; i++) {
    const [kind, make] = kinds[i % kinds.length]!;
    out.push({ q: make(), kind });
  }
  return out;
}

/** The bare indexed queries: each type's text-match candidate query, no ranking, no HTTP. */
function bareQueries(database: Database, firmId: number, text: string): RawBuilder<unknown>[] {
  const q = parseSearchQuery(text);
  const tables: [string, string, readonly string[]][] = [
    ['jobs', 'search_jobs', JOB_SEARCH_FIELDS],
    ['client_accounts', 'search_client_accounts', CLIENT_ACCOUNT_SEARCH_FIELDS],
    ['contacts', 'search_contacts', CONTACT_SEARCH_FIELDS],
    ['locations', 'search_locations', LOCATION_SEARCH_FIELDS],
  ];
  return tables.map(([table, fts, fields]) =>
    database.dialect.engine === 'sqlite'
      ? sql`select t.id from ${sql.table(fts)} as s cross join ${sql.table(table)} as t where t.id = s.rowid
        and ${sql.table(fts)} match ${ftsPhrase(q)} and t.firm_id = ${firmId} order by s.rowid desc limit ${CANDIDATES}`
      : sql`select t.id from ${sql.table(table)} as t where t.firm_id = ${firmId}
        and ${sql.raw(pgSearchText(fields, 't'))} ilike ${likeContains(q)} order by t.id desc limit ${CANDIDATES}`,
  );
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
};
const ms = (x: number) => x.toFixed(2);

async function main(): Promise<void> {
  const { database, describe, drop } = await openBenchDatabase({ url: databaseUrl, label: 'search' });
  try {
    log(`engine: ${describe}`);
    const { firmId, ownerId, key } = await benchWorkspace(database);
    const seedTimes = await seed(database, firmId, ownerId);
    const app = await buildApp(database, {
      adminToken: null,
      rateLimit: { max: 1e9, windowMs: 1000 },
      logLevel: false,
    });
    const headers = { 'x-api-key': key };
    const list = queries();

    const api = async (q: string) => {
      const t0 = performance.now();
      const res = await app.inject({ method: 'GET', url: `/v1/search?q=${encodeURIComponent(q)}`, headers });
      const took = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`GET /v1/search?q=${q}: ${res.statusCode} ${res.body}`);
      return { took, results: (JSON.parse(res.body) as { data: unknown[] }).data.length };
    };
    const bare = async (q: string) => {
      const t0 = performance.now();
      await database.db.transaction().execute(async (trx) => {
        await database.dialect.avoidTableScans(trx); // as the service does
        for (const query of bareQueries(database, firmId, q)) await query.execute(trx);
      });
      return performance.now() - t0;
    };

    if (process.argv.includes('--explain') || SMOKE) {
      for (const q of ['Qzx123', 'Bench job 12345', 'Ma', 'Company 42']) {
        for (const query of bareQueries(database, firmId, q)) {
          const plan = await database.db.transaction().execute(async (trx) => {
            await database.dialect.avoidTableScans(trx);
            return database.dialect.engine === 'sqlite'
              ? sql<Record<string, unknown>>`explain query plan ${query}`.execute(trx)
              : sql<Record<string, unknown>>`explain (analyze, buffers) ${query}`.execute(trx);
          });
          console.log(
            `-- ${q}\n${plan.rows
              .map((r) => String(r['QUERY PLAN'] ?? r.detail))
              .filter((l) => !l.includes("'::text)"))
              .join('\n')}`,
          );
        }
      }
    }
    log('warming up');
    for (const { q } of list.slice(0, 30)) {
      await api(q);
      await bare(q);
    }
    const rows: { kind: string; api: number; bare: number; results: number }[] = [];
    for (const { q, kind } of list) {
      // Alternate which goes first so neither always gets the warmer cache.
      const first = rows.length % 2 === 0;
      const b1 = first ? await bare(q) : 0;
      const a = await api(q);
      const b2 = first ? 0 : await bare(q);
      rows.push({ kind, api: a.took, bare: b1 + b2, results: a.results });
    }
    await app.close();

    const total = COUNTS.jobs + COUNTS.customers + COUNTS.contacts + COUNTS.sites;
    const lines: string[] = [];
    lines.push(`### Search (${engine})${MODE_LABEL}`, '');
    lines.push(
      `- ${new Date().toISOString()}, Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, ${describe}`,
    );
    lines.push(
      `- one workspace, ${total.toLocaleString('en-US')} records: ${COUNTS.jobs.toLocaleString('en-US')} jobs, ` +
        `${COUNTS.customers.toLocaleString('en-US')} customers, ${COUNTS.contacts.toLocaleString('en-US')} contacts, ` +
        `${COUNTS.sites.toLocaleString('en-US')} sites (seeded through the index triggers: ` +
        Object.entries(seedTimes)
          .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`)
          .join(', ') +
        ')',
    );
    lines.push(
      `- ${list.length} queries, one at a time; API = GET /v1/search through app.inject (all four types, ranking, JSON); ` +
        `bare = the four types' indexed candidate queries (the FTS5 / trigram SQL with firm filter, newest ${CANDIDATES}) run directly`,
      '',
    );
    lines.push(
      '| queries | n | API p50 ms | API p95 ms | bare p50 ms | bare p95 ms | ratio p50 | ratio p95 |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
    );
    const groups = [
      ['all', rows] as const,
      ...[...new Set(rows.map((r) => r.kind))].map((k) => [k, rows.filter((r) => r.kind === k)] as const),
    ];
    for (const [name, rs] of groups) {
      const a = rs.map((r) => r.api),
        b = rs.map((r) => r.bare);
      lines.push(
        `| ${name} | ${rs.length} | ${ms(pct(a, 0.5))} | ${ms(pct(a, 0.95))} | ${ms(pct(b, 0.5))} | ${ms(pct(b, 0.95))} | ` +
          `${(pct(a, 0.5) / pct(b, 0.5)).toFixed(2)} | ${(pct(a, 0.95) / pct(b, 0.95)).toFixed(2)} |`,
      );
    }
    lines.push('', `Queries with at least one result: ${rows.filter((r) => r.results > 0).length} of ${rows.length}.`);
    const report = lines.join('\n') + '\n';
    console.log(report);
    saveReport(`search-${engine}${QUICK ? '-quick' : ''}.md`, report);
  } finally {
    await drop();
  }
}

await main();
