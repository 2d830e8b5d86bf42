// A Kysely plugin the job scope's queries carry: it drops the scope's LEFT JOINs (the job's stage on
// its workspace's unique stage key, the customer, the job's estimate, its salesperson and the
// estimate's creator, each on a primary key) that nothing else in the query reads. A LEFT JOIN on a
// unique key neither adds nor removes rows, so an unread one changes no answer; but SQLite keeps it
// in an aggregate query (it leaves unread LEFT JOINs out of plain SELECTs only), so every count, sum
// and GROUP BY over the scope looked up four tables per job for nothing, and PostgreSQL, which
// does drop them, cannot drop an inner join (docs/performance.md, "Owner reports").
//
// "Reads" is judged from the query's text as Kysely holds it: the join's name as a table's
// identifier (a reference, `selectAll`, a subquery's table), or followed by a dot in raw SQL,
// anywhere else in the query (its selections, conditions, groups, orders, other joins, subqueries,
// even a parameter). A selection merely named like a join (the estimator group key, `… as
// "estimator"`) is not a read: it kept the estimator's join and the job's estimate it stands on,
// two lookups per row of every estimate-totals query. A false match only keeps a join; a missed
// read would fail the query loudly (no such column), never answer wrongly.
import type {
  JoinNode,
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/** The name a join is known by: its alias, else its table's name. */
function nameOf(join: JoinNode): string | null {
  const table = join.table as unknown as {
    kind: string;
    alias?: { name?: string };
    table?: { identifier?: { name?: string } };
  };
  if (table.kind === 'AliasNode') return table.alias?.name ?? null;
  if (table.kind === 'TableNode') return table.table?.identifier?.name ?? null;
  return null;
}

export class DropUnreadJoins implements KyselyPlugin {
  readonly #names: ReadonlySet<string>;

  constructor(names: readonly string[]) {
    this.#names = new Set(names);
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node;
    if (node.kind !== 'SelectQueryNode' || !node.joins) return node;
    let joins = node.joins;
    // One at a time, until none goes: dropping a join can leave another unread (the estimate's
    // creator is joined on the estimate).
    for (;;) {
      const unread = joins.findIndex((join, i) => {
        const name = nameOf(join);
        if (join.joinType !== 'LeftJoin' || name === null || !this.#names.has(name)) return false;
        const rest = JSON.stringify({ ...node, joins: joins.filter((_, k) => k !== i) });
        const escaped = name.replace(/[^\w]/g, '\\$&');
        return !new RegExp(`"identifier":\\{"kind":"IdentifierNode","name":"${escaped}"\\}|\\b${escaped}\\.`).test(
          rest,
        );
      });
      if (unread === -1) break;
      joins = joins.filter((_, k) => k !== unread);
    }
    return joins === node.joins ? node : { ...node, joins };
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
