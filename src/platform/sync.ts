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
import type { SelectQueryBuilder } from 'kysely';
import { parseUpdatedAfter, type Page } from './pagination.ts';
import { endOfSecond, now, startOfSecond } from './time.ts';

/** How a list shows updated_at: jobs and users to the microsecond, everything else to the second. */
export type WirePrecision = 'second' | 'microsecond';

export interface SyncWindow {
  precision: WirePrecision;
  /** Rows changed after this stored instant (exclusive). */
  after: string;
  /** Rows changed before this stored instant (exclusive): the running second; null when nothing is held back. */
  before: string | null;
}

/** The rest of a full page's last group: rows after `row` in (updated_at, id) order, up to `through`. */
export interface GroupRest {
  row: { updated_at: string; id: number };
  through: string;
}

/** Parses updated_after (400 when it is not ISO 8601) into the window a list reads. */
export function syncWindow(value: string | undefined, precision: WirePrecision): SyncWindow | undefined {
  const parsed = parseUpdatedAfter(value);
  if (parsed === undefined) return undefined;
  if (precision === 'microsecond') return { precision, after: parsed, before: null };
  const wholeSecond = parsed === startOfSecond(parsed);
  return { precision, after: wholeSecond ? endOfSecond(parsed) : parsed, before: startOfSecond(now()) };
}

type Where<QB> = { where: (...args: any[]) => QB };

/** Restricts `table` to the window (and, for a group's rest, to the rows after the page). */
export function whereInWindow<QB extends Where<QB>>(qb: QB, table: string, w: SyncWindow, rest?: GroupRest): QB {
  const at = `${table}.updated_at`;
  qb = qb.where(at, '>', w.after);
  if (w.before !== null) qb = qb.where(at, '<', w.before);
  if (rest) {
    const { updated_at: u, id } = rest.row;
    qb = qb
      .where(at, '<=', rest.through)
      .where((eb: any) => eb.or([eb(at, '>', u), eb.and([eb(at, '=', u), eb(`${table}.id`, '>', id)])]));
  }
  return qb;
}

/**
 * One updated_after page, ordered by updated_at then id: `read()` answers the `page` (limit and
 * offset applied), `read(rest)` the rows of a group's rest (no limit). A full page is completed
 * with the rest of its last row's group, so it may hold more rows than limit.
 */
export async function syncPage<R extends { updated_at: string; id: number }>(
  w: SyncWindow,
  page: Page,
  read: (rest?: GroupRest) => Promise<R[]>,
): Promise<R[]> {
  const rows = await read();
  const last = rows[rows.length - 1];
  if (rows.length < page.limit || !last) return rows;
  const through = w.precision === 'second' ? endOfSecond(last.updated_at) : last.updated_at;
  return [...rows, ...(await read({ row: last, through }))];
}

/**
 * A list's page when its default order is newest first: with updated_after, the window's page
 * (oldest changed first, the last group completed, as syncPage); without, newest `newestBy`
 * first. `rows(rest)` is the list's filtered query with whereInWindow applied; `table` its alias.
 */
export function newestOrSyncPage<R extends { updated_at: string; id: number }>(
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
    const q = rows(rest).orderBy(`${table}.updated_at`).orderBy(`${table}.id`);
    return (rest ? q : q.limit(page.limit).offset(page.offset)).execute();
  });
}
