// Incremental sync (document 1, convention 9): a list that takes updated_after returns rows
// changed after it, oldest updated_at first, and the client pages by sending back the last row's
// updated_at until a page has fewer rows than limit. Timestamps are stored to the microsecond, but
// most lists show them to the second (`Z`), so the value a client sends back may name a whole
// second holding more rows than one page. Three rules make the recipe finish and miss nothing
// (docs/api-decisions.md, "Incremental sync"):
//
// 1. A value sent back names what the client saw: on a list shown to the second, a whole-second
//    value means "after that second" (those rows showed exactly that value); a value with a
//    fraction, and every value on lists shown to the microsecond, compares at the microsecond.
// 2. A page never ends inside a group of rows that show the same updated_at: a full page takes
//    the rest of its last row's group, so the value sent back never leaves rows behind.
// 3. On lists shown to the second, rows of the second still running are held back until it ends,
//    so no later write can land in a second the client has already passed.
//
// A list of records that never change (files: created_after) reads the same window over created_at.
import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { parseAfter, type Page } from './pagination.ts';
import { endOfSecond, now, startOfSecond } from './time.ts';

/** How a list shows updated_at: jobs and users to the microsecond, everything else to the second. */
export type WirePrecision = 'second' | 'microsecond';

/** The timestamp a window reads: updated_at (updated_after), or created_at (created_after) for records that never change. */
export type WindowColumn = 'updated_at' | 'created_at';

/** A row a window pages: its id and the window's timestamp. */
export type WindowRow = { id: number } & { [K in WindowColumn]?: string };

export interface SyncWindow {
  precision: WirePrecision;
  column: WindowColumn;
  /** Rows changed after this stored instant (exclusive). */
  after: string;
  /** Rows changed before this stored instant (exclusive): the running second; null when nothing is held back. */
  before: string | null;
}

/** The rest of a full page's last group: rows after `row` in (timestamp, id) order, up to `through`. */
export interface GroupRest {
  row: { at: string; id: number };
  through: string;
}

/**
 * Parses updated_after (or, with column created_at, created_after; 400 when it is not ISO 8601)
 * into the window a list reads.
 */
export function syncWindow(
  value: string | undefined,
  precision: WirePrecision,
  column: WindowColumn = 'updated_at',
): SyncWindow | undefined {
  const parsed = parseAfter(value, column === 'created_at' ? 'created_after' : 'updated_after');
  if (parsed === undefined) return undefined;
  if (precision === 'microsecond') return { precision, column, after: parsed, before: null };
  const wholeSecond = parsed === startOfSecond(parsed);
  return { precision, column, after: wholeSecond ? endOfSecond(parsed) : parsed, before: startOfSecond(now()) };
}

function stampOf(row: WindowRow, column: WindowColumn): string {
  const at = row[column];
  if (at === undefined) throw new Error(`a window over ${column} read a row without it`);
  return at;
}

type Where<QB> = { where: (...args: any[]) => QB };

/** Restricts `table` to the window (or, for a group's rest, to the rows after the page in that group). */
export function whereInWindow<QB extends Where<QB>>(qb: QB, table: string, w: SyncWindow, rest?: GroupRest): QB {
  const at = `${table}.${w.column}`;
  if (rest) {
    // The group lies inside the window: its row was in it (after < u), and `through` ends before
    // `before` (the end of u's second, when before is a later second's start). So the group's own
    // bounds say it all. Given the window's bounds too, SQLite ranges over the window's (the whole
    // window up to the group: 80 ms at 1M photos) instead of the group's (docs/performance.md).
    const { at: u, id } = rest.row;
    return qb
      .where(at, '>=', u)
      .where(at, '<=', rest.through)
      .where((eb: any) => eb.or([eb(at, '>', u), eb.and([eb(at, '=', u), eb(`${table}.id`, '>', id)])]));
  }
  qb = qb.where(at, '>', w.after);
  if (w.before !== null) qb = qb.where(at, '<', w.before);
  return qb;
}

/**
 * One updated_after (created_after) page, ordered by the window's timestamp then id: `read()`
 * answers the `page` (limit and offset applied), `read(rest)` the rows of a group's rest (no
 * limit). A full page is completed with the rest of its last row's group, so it may hold more rows
 * than limit.
 */
export async function syncPage<R extends WindowRow>(
  w: SyncWindow,
  page: Page,
  read: (rest?: GroupRest) => Promise<R[]>,
): Promise<R[]> {
  const rows = await read();
  const last = rows[rows.length - 1];
  if (rows.length < page.limit || !last) return rows;
  const at = stampOf(last, w.column);
  const through = w.precision === 'second' ? endOfSecond(at) : at;
  return [...rows, ...(await read({ row: { at, id: last.id }, through }))];
}

/**
 * A list's page when its default order is newest first: with updated_after (created_after), the
 * window's page (oldest first, the last group completed, as syncPage); without, newest `newestBy`
 * first. `rows(rest)` is the list's filtered query with whereInWindow applied; `table` its alias.
 */
export function newestOrSyncPage<R extends WindowRow>(
  rows: (rest?: GroupRest) => SelectQueryBuilder<any, any, R>,
  table: string,
  window: SyncWindow | undefined,
  page: Page,
  newestBy: 'created_at' | 'updated_at',
): Promise<R[]> {
  if (window === undefined) {
    return rows()
      .orderBy(`${table}.${newestBy}`, 'desc')
      .orderBy(`${table}.id`, 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
  }
  return syncPage(window, page, (rest) => {
    const q = rows(rest).orderBy(`${table}.${window.column}`).orderBy(`${table}.id`);
    return (rest ? q : q.limit(page.limit).offset(page.offset)).execute();
  });
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
