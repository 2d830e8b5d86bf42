// A report run's answer (document 2, "Report": {data: {key, title, section, description, start, end,
// date_basis, summary, tables, truncated}}) and the table options every report shares: `q` keeps
// the rows whose text holds it, `columns` keeps the columns named (in the report's order), and
// `rows_limit` cuts each table, `rows_total` saying how many rows it had and `truncated` that a
// table was cut. Totals are over every row the filters keep, not only those shown.
import { type Static, Type } from '@sinclair/typebox';
import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { badRequest } from '#platform/errors.ts';
import { DateString, Nullable, StringEnum } from '#platform/schemas.ts';
import type { RunParams } from './run-query.ts';
import { DATE_BASES } from './schemas.ts';

export const COLUMN_KINDS = ['text', 'int', 'number', 'money', 'pct', 'date'] as const;
export type ColumnKind = (typeof COLUMN_KINDS)[number];

export interface Column {
  key: string;
  label: string;
  kind: ColumnKind;
}

/** A row's raw values: money and numbers as numbers, pct as fractions, dates YYYY-MM-DD. */
export type Row = Record<string, string | number | boolean | null>;

export interface Table {
  key: string;
  title: string;
  columns: Column[];
  rows: Row[];
  rows_total: number;
  total: Row | null;
  note: string | null;
}

const RowSchema = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]));

export const ReportRun = Type.Object({
  data: Type.Object({
    key: Type.String(),
    title: Type.String(),
    section: Type.String(),
    description: Type.String(),
    start: DateString,
    end: DateString,
    date_basis: StringEnum(DATE_BASES),
    summary: Type.Array(Type.Object({ label: Type.String(), value: Type.String({ description: 'display text' }) })),
    tables: Type.Array(
      Type.Object({
        key: Type.String(),
        title: Type.String(),
        columns: Type.Array(Type.Object({ key: Type.String(), label: Type.String(), kind: StringEnum(COLUMN_KINDS) })),
        rows: Type.Array(RowSchema, {
          description: 'raw values by column key; job rows also carry job_id',
        }),
        rows_total: Type.Integer({ description: 'rows the table has after q, before rows_limit' }),
        total: Nullable(RowSchema),
        note: Nullable(Type.String()),
      }),
    ),
    truncated: Type.Boolean({ description: 'a table held more rows than rows_limit' }),
  }),
});
export type ReportRunObject = Static<typeof ReportRun>['data'];

/** The whole table as the report computed it, before the shared options. */
export interface FullTable {
  key: string;
  title: string;
  columns: Column[];
  rows: Row[];
  /** The total row of the rows kept, or null when the table has none. */
  total: ((rows: Row[]) => Row) | null;
  note?: string | null;
}

/**
 * A table listing records (jobs, invoices …) that may run to thousands of rows: the database
 * applies q, answers only the rows_limit rows shown, and counts rows_total and sums the total row
 * in one aggregate, so a report never holds 20,000 rows in memory to show 200.
 */
export interface ListTable {
  key: string;
  title: string;
  columns: Column[];
  /** The rows, selected and ordered (no limit). */
  // biome-ignore lint/suspicious/noExplicitAny: a report's query joins aliased tables DB does not name
  query: SelectQueryBuilder<any, any, any>;
  /**
   * The same first `limit` rows in the same order, read another way when no q narrows them: the
   * records picked and limited first, then joined to what they show (the database joins every row
   * before a LIMIT cuts it; looking up a job, a wide row, for each of 17,000 owed invoices to show
   * 200 cost more than the report's whole aggregate), or read beside the report's other queries.
   * Absent: `query` limited.
   */
  page?: (limit: number) => Promise<Record<string, unknown>[]>;
  /** A raw row as the table's row. */
  row(raw: Record<string, unknown>): Row;
  /** The SQL of each text column, by column key, for q. */
  text: Record<string, RawBuilder<unknown>>;
  /** The total row: SQL aggregates over every row q keeps, and the row made of them. */
  total: { sums: Record<string, RawBuilder<unknown>>; row(raw: Record<string, unknown>): Row } | null;
  /**
   * rows_total and the sums over every row, when the report has asked for them already (for its
   * summary): taken as they are when no q narrows the rows, rather than asked for again.
   */
  whole?: Record<string, unknown>;
  note?: string | null;
}

export type ReportTable = FullTable | ListTable;

const isList = (t: ReportTable): t is ListTable => 'query' in t;

/** Every column key the report's tables have, so `columns` naming none of them is refused. */
function assertColumnsKnown(tables: readonly ReportTable[], columns: readonly string[]): void {
  const known = new Set(tables.flatMap((t) => t.columns.map((c) => c.key)));
  const unknown = columns.filter((c) => !known.has(c));
  if (unknown.length > 0)
    throw badRequest(`Unknown columns: ${unknown.join(', ')}`, {
      code: 'invalid_request',
      field: 'columns',
      message: `This report's columns are ${[...known].join(', ')}`,
    });
}

const textOf = (row: Row, columns: readonly Column[]) =>
  columns
    .filter((c) => c.kind === 'text')
    .map((c) => String(row[c.key] ?? ''))
    .join(' ')
    .toLowerCase();

/** q in SQL: the text columns joined by spaces, lowered, holding q (its %, _ and ! escaped). */
// biome-ignore lint/suspicious/noExplicitAny: as ListTable.query
function whereText(t: ListTable, q: string): SelectQueryBuilder<any, any, any> {
  const parts = t.columns
    .filter((c) => c.kind === 'text')
    .map((c) => sql`coalesce(cast(${t.text[c.key] ?? sql`null`} as text), '')`);
  if (parts.length === 0) return t.query.where(sql<boolean>`1 = 0`);
  const pattern = `%${q.replace(/[!%_]/g, (c) => `!${c}`)}%`;
  return t.query.where(sql<boolean>`lower(${sql.join(parts, sql` || ' ' || `)}) like ${pattern} escape '!'`);
}

/** The tables as answered: q, columns and rows_limit applied; and whether any was cut. */
export async function shapeTables(
  tables: readonly ReportTable[],
  p: RunParams,
): Promise<{ tables: Table[]; truncated: boolean }> {
  if (p.columns) assertColumnsKnown(tables, p.columns);
  let truncated = false;
  const shaped = await Promise.all(
    tables.map(async (t): Promise<Table> => {
      const columns = p.columns ? t.columns.filter((c) => p.columns!.includes(c.key)) : t.columns;
      const keys = new Set(columns.map((c) => c.key));
      // A job row keeps its job_id whatever the columns (document 2: "job rows also carry job_id").
      const pick = (r: Row): Row =>
        Object.fromEntries(Object.entries(r).filter(([k]) => keys.has(k) || k === 'job_id'));
      let rows: Row[];
      let rowsTotal: number;
      let total: Row | null;
      if (isList(t)) {
        const kept = p.q === null ? t.query : whereText(t, p.q);
        const [page, sums] = await Promise.all([
          p.q === null && t.page ? t.page(p.rowsLimit) : kept.limit(p.rowsLimit).execute(),
          p.q === null && t.whole
            ? t.whole
            : kept
                .clearSelect()
                .clearOrderBy()
                .select([
                  sql<number>`count(*)`.as('rows_total'),
                  ...Object.entries(t.total?.sums ?? {}).map(([k, v]) => v.as(k)),
                ])
                .executeTakeFirst(),
        ]);
        rows = page.map((r) => t.row(r as Record<string, unknown>));
        rowsTotal = Number(sums?.rows_total ?? 0);
        total = t.total ? t.total.row((sums ?? {}) as Record<string, unknown>) : null;
      } else {
        const kept = p.q === null ? t.rows : t.rows.filter((r) => textOf(r, t.columns).includes(p.q!));
        rows = kept.slice(0, p.rowsLimit);
        rowsTotal = kept.length;
        total = t.total ? t.total(kept) : null;
      }
      if (rowsTotal > p.rowsLimit) truncated = true;
      return {
        key: t.key,
        title: t.title,
        columns,
        rows: rows.map(pick),
        rows_total: rowsTotal,
        total: total ? pick(total) : null,
        note: t.note ?? null,
      };
    }),
  );
  return { tables: shaped, truncated };
}
