// What a bulk-export dataset is (document 3, Bulk data export and Export dataset rows). Each area
// declares its own datasets next to its queries (modules/<area>/export.ts) with `defineDataset`,
// and modules/exports/catalog.ts lists them; the stream, the catalog endpoint and the workspace
// file all read that one list, so a new dataset is one declaration and one line in the catalog.
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { User } from '#db/tables.ts';

/** Whose rows, and which: the workspace, the user whose visibility applies, the changed-since bound. */
export interface ExportScope {
  firmId: number;
  /** Users who see only their own jobs export only those jobs (and the records hanging on them). */
  user: User;
  /** Stored-form timestamp: only rows where any changed-since field is later. */
  updatedAfter?: string;
}

/** One keyset page: rows with an id above `afterId`, in id order, at most `limit` of them. */
export interface BatchRequest extends ExportScope {
  afterId: number;
  limit: number;
}

export interface Dataset<Row extends { id: number } = { id: number }> {
  /** The name in the URL (/v1/exports/<name>.jsonl) and in the workspace zip (<name>.jsonl). */
  name: string;
  description: string;
  /** Wire field names; updated_after keeps rows where any of them is later. */
  changedSinceFields: readonly string[];
  /** Reads one keyset page; must scope by firm_id and by the user's visibility. */
  readBatch(db: Executor, request: BatchRequest): Promise<Row[]>;
  /** The exported row: one JSON line. */
  toRow(row: Row): unknown;
}

/** Declares a dataset (typed identity: the row type flows from readBatch to toRow). */
export function defineDataset<Row extends { id: number }>(dataset: Dataset<Row>): Dataset<Row> {
  return dataset;
}

/**
 * "Any changed-since field is later than `after`", for the given columns (qualified when the
 * query joins). A null field never counts as later.
 */
export function changedSince(columns: readonly string[], after: string): Expression<SqlBool> {
  return sql<SqlBool>`(${sql.join(
    columns.map((c) => sql`${sql.ref(c)} > ${after}`),
    sql` or `,
  )})`;
}
