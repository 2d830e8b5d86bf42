// Where a benchmarked request spends its database time: each statement it runs, with the time from
// Kysely handing it over (after compiling) to its rows coming back, so a slow report shows which of
// its queries is slow (BENCH_STATEMENTS=1 npm run bench:reports -- <keys>). A Kysely plugin sees
// each query go out (transformQuery) and its result come back (transformResult) under one queryId.
// Statements a request runs together (Promise.all) overlap: on SQLite, which runs one at a time, the
// later one's time includes its wait for the earlier.
import { performance } from 'node:perf_hooks';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import type { Database } from '#db/database.ts';

export interface StatementTime {
  /** The statement's kind and the tables it reads, enough to tell the queries of one request apart. */
  text: string;
  ms: number;
  rows: number;
}

class StatementTimes implements KyselyPlugin {
  readonly times: { node: RootOperationNode; ms: number; rows: number }[] = [];
  readonly #started = new WeakMap<object, { at: number; node: RootOperationNode }>();
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.#started.set(args.queryId, { at: performance.now(), node: args.node });
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const started = this.#started.get(args.queryId);
    if (started)
      this.times.push({
        node: started.node,
        ms: performance.now() - started.at,
        rows: args.result.rows.length,
      });
    return args.result;
  }
}

/** The node's kind and the tables it reads from, as a label. */
function describe(node: RootOperationNode): string {
  const json = JSON.stringify(node);
  const tables = [
    ...new Set(
      [
        ...json.matchAll(
          /"kind":"TableNode","table":\{[^{]*(?:\{[^}]*\},)?"identifier":\{"kind":"IdentifierNode","name":"([^"]+)"/g,
        ),
      ].map((m) => m[1]),
    ),
  ];
  return `${node.kind.replace('Node', '')} ${tables.slice(0, 6).join(',')}`;
}

/**
 * Times every statement `database` runs from now on (its `db` and `unprepared` handles replaced by
 * timed ones); `take()` returns and forgets those timed so far.
 */
export function timeStatements(database: Database): { take(): StatementTime[] } {
  const plugin = new StatementTimes();
  const same = database.unprepared === database.db;
  database.db = database.db.withPlugin(plugin);
  database.unprepared = same ? database.db : database.unprepared.withPlugin(plugin);
  // Described only when taken: the timed request does not pay for it.
  return { take: () => plugin.times.splice(0).map((t) => ({ text: describe(t.node), ms: t.ms, rows: t.rows })) };
}
