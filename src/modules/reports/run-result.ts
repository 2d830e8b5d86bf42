// A report run's answer (document 2, "Report": {data: {key, title, section, description, start, end,
// date_basis, summary, tables, truncated}}) and the table options every report shares: `q` keeps
// the rows whose text holds it, `columns` keeps the columns named (in the report's order), and
// `rows_limit` cuts each table, `rows_total` saying how many rows it had and `truncated` that a
// table was cut. Totals are over every row the filters keep, not only those shown.
import { type Static, Type } from '@sinclair/typebox';
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

/** Every column key the report's tables have, so `columns` naming none of them is refused. */
function assertColumnsKnown(tables: readonly FullTable[], columns: readonly string[]): void {
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

/** The tables as answered: q, columns and rows_limit applied; and whether any was cut. */
export function shapeTables(tables: readonly FullTable[], p: RunParams): { tables: Table[]; truncated: boolean } {
  if (p.columns) assertColumnsKnown(tables, p.columns);
  let truncated = false;
  const shaped = tables.map((t): Table => {
    const kept = p.q === null ? t.rows : t.rows.filter((r) => textOf(r, t.columns).includes(p.q!));
    const columns = p.columns ? t.columns.filter((c) => p.columns!.includes(c.key)) : t.columns;
    const keys = new Set(columns.map((c) => c.key));
    // A job row keeps its job_id whatever the columns (document 2: "job rows also carry job_id").
    const pick = (r: Row): Row => Object.fromEntries(Object.entries(r).filter(([k]) => keys.has(k) || k === 'job_id'));
    if (kept.length > p.rowsLimit) truncated = true;
    return {
      key: t.key,
      title: t.title,
      columns,
      rows: kept.slice(0, p.rowsLimit).map(pick),
      rows_total: kept.length,
      total: t.total ? pick(t.total(kept)) : null,
      note: t.note ?? null,
    };
  });
  return { tables: shaped, truncated };
}
