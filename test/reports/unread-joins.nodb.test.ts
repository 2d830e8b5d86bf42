// The job scope's join trimming (src/modules/reports/unread-joins.ts), by the SQL it compiles: a
// listed LEFT JOIN nothing else reads goes, one read anywhere (a selection, a condition, raw SQL,
// another join's ON, a subquery) stays, and inner joins and joins not listed always stay.
import {
  DummyDriver,
  Kysely,
  type RawBuilder,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { DropUnreadJoins } from '#reports/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: tables by name only, as the reports' scope builds them
const db = new Kysely<any>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new SqliteIntrospector(k),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

const plugin = new DropUnreadJoins(['client_accounts', 'job_estimate', 'salesperson', 'estimator']);

/** The scope's joins, as job-scope.ts makes them. */
const scope = () =>
  db
    .selectFrom('jobs')
    .innerJoin('job_stages as stage', (j) => j.onRef('stage.key', '=', 'jobs.status'))
    .leftJoin('client_accounts', 'client_accounts.id', 'jobs.client_account_id')
    .leftJoin('estimates as job_estimate', 'job_estimate.id', 'jobs.estimate_id')
    .leftJoin('users as salesperson', 'salesperson.id', 'jobs.assigned_to_user_id')
    .leftJoin('users as estimator', 'estimator.id', 'job_estimate.created_by_user_id')
    .where('jobs.firm_id', '=', 1)
    .withPlugin(plugin);

/** The names the compiled query joins, in order. */
const joined = (q: { compile(): { sql: string } }) =>
  [...q.compile().sql.matchAll(/join "(\w+)"(?: as "(\w+)")?/g)].map((m) => m[2] ?? m[1]);

describe('DropUnreadJoins', () => {
  it('a count that reads none of them keeps only the inner join', () => {
    expect(joined(scope().select(sql<number>`count(*)`.as('n')))).toEqual(['stage']);
  });

  it('keeps what a selection reads, by reference or in raw SQL, and what that join stands on', () => {
    expect(joined(scope().select('salesperson.name'))).toEqual(['stage', 'salesperson']);
    expect(joined(scope().select(sql<string>`coalesce(client_accounts.name, jobs.company)`.as('c')))).toEqual([
      'stage',
      'client_accounts',
    ]);
    // The estimator is joined on the job's estimate: reading it keeps both.
    expect(joined(scope().select(sql<string>`estimator.name`.as('e')))).toEqual(['stage', 'job_estimate', 'estimator']);
  });

  it('a selection only named like a join (a group key "estimator") does not keep it; a selectAll does', () => {
    const byCreator = scope()
      .leftJoin('users as est_creator', 'est_creator.id', 'jobs.created_by_user_id')
      .select([sql<string>`coalesce(est_creator.name, '')`.as('estimator'), sql<number>`count(*)`.as('n')])
      .groupBy(sql`1` as RawBuilder<unknown>);
    expect(joined(byCreator)).toEqual(['stage', 'est_creator']);
    expect(joined(scope().selectAll('salesperson'))).toEqual(['stage', 'salesperson']);
  });

  it('keeps what a condition, a group or an order reads', () => {
    expect(joined(scope().where(sql.ref('job_estimate.created_by_user_id'), 'in', [3]).select('jobs.id'))).toEqual([
      'stage',
      'job_estimate',
    ]);
    const bySeller = scope()
      .select(sql<number>`count(*)`.as('n'))
      .groupBy(sql`salesperson.name` as RawBuilder<unknown>);
    expect(joined(bySeller)).toEqual(['stage', 'salesperson']);
    expect(joined(scope().select('jobs.id').orderBy('client_accounts.name'))).toEqual(['stage', 'client_accounts']);
  });

  it('keeps one a subquery reads, and trims a subquery by its own reads', () => {
    const correlated = scope().select((eb) =>
      eb
        .selectFrom('invoices')
        .select(sql<number>`count(*)`.as('n'))
        .whereRef('invoices.client_account_id', '=', 'client_accounts.id')
        .as('invoices'),
    );
    expect(joined(correlated)).toEqual(['stage', 'client_accounts']);
    const inner = scope().select('jobs.id');
    const outer = db.selectFrom('invoices').select('invoices.id').where('invoices.job_id', 'in', inner);
    expect(outer.compile().sql).not.toMatch(/left join/);
  });

  it('never drops an inner join, or a LEFT JOIN it was not given', () => {
    const q = scope()
      .leftJoin('users as creator', 'creator.id', 'jobs.created_by_user_id')
      .select(sql<number>`count(*)`.as('n'));
    expect(joined(q)).toEqual(['stage', 'creator']);
  });
});
