// A Kysely plugin that puts a materialized CTE in front of the query that carries it: for a query
// built from a builder that starts at the database handle (the reports' job scope), which cannot
// take `with` afterwards. Attached to a builder, it goes wherever that builder goes: run alone, the
// CTE heads the statement; used as a subquery (a derived table, an IN list), the subquery carries
// its own WITH, which both engines accept.
import type {
  Kysely,
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  SelectQueryBuilder,
  SelectQueryNode,
  UnknownRow,
  WithNode,
} from 'kysely';

export class WithMaterialized implements KyselyPlugin {
  readonly #with: WithNode;

  // biome-ignore lint/suspicious/noExplicitAny: any database's handle and any select
  constructor(db: Kysely<any>, name: string, query: SelectQueryBuilder<any, any, any>) {
    const carrier = db
      .with(
        (cte) => cte(name).materialized(),
        () => query,
      )
      .selectFrom(name)
      .selectAll()
      .toOperationNode() as SelectQueryNode;
    if (!carrier.with) throw new Error('a query made with `with` carries a WITH');
    this.#with = carrier.with;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node;
    if (node.kind !== 'SelectQueryNode') return node;
    const expressions = [...this.#with.expressions, ...(node.with?.expressions ?? [])];
    return { ...node, with: { ...this.#with, ...node.with, expressions } };
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}
