// Hours and pay of time entries as shown: the overtime rule (src/engines/payroll) run over each
// worker's whole week, so an entry's split is the same whichever list shows it.
import type { Executor } from '#db/dialect.ts';
import type { TimeEntry } from '#db/tables.ts';
import { millisOf, storedAt } from '#platform/time.ts';
import { type EntrySplit, laborCostCents, localDate, splitOvertime, type WeekStart } from '#engines/payroll/index.ts';
import { countedEntriesOf } from './repo.ts';

/** What the workspace's week is: its time zone and week start. */
export interface WeekRule {
  timeZone: string;
  weekStart: WeekStart;
}

export interface EntryHours {
  date: string;
  /** null while open; zeros for a void entry (it counts for nothing). */
  split: EntrySplit | null;
}

/** A void entry's split: it counts for nothing (its week is not read, so none is named). */
const NOTHING: EntrySplit = { date: '', weekStart: '', regularMs: 0, overtimeMs: 0, doubletimeMs: 0 };

/** A week and a day on each side cover every zone's offset: all entries sharing a week with these. */
const REACH_MS = 8 * 24 * 3_600_000;

type Shown = Pick<TimeEntry, 'id' | 'user_id' | 'clock_in' | 'clock_out' | 'voided_at'>;

export async function entryHours(
  db: Executor,
  firmId: number,
  entries: readonly Shown[],
  rule: WeekRule,
): Promise<Map<number, EntryHours>> {
  const out = new Map<number, EntryHours>();
  const counted = entries.filter((e) => e.clock_out !== null && e.voided_at === null);
  let splits = new Map<number, EntrySplit>();
  if (counted.length > 0) {
    const times = counted.map((e) => millisOf(e.clock_in));
    const from = storedAt(Math.min(...times) - REACH_MS);
    const to = storedAt(Math.max(...times) + REACH_MS);
    const userIds = [...new Set(counted.map((e) => e.user_id))];
    const weeks = await countedEntriesOf(db, firmId, userIds, from, to);
    splits = splitOvertime(
      weeks.map((e) => ({
        id: e.id,
        userId: e.user_id,
        clockInMs: millisOf(e.clock_in),
        clockOutMs: millisOf(e.clock_out!),
      })),
      rule.timeZone,
      rule.weekStart,
    );
  }
  for (const e of entries) {
    const date = localDate(millisOf(e.clock_in), rule.timeZone);
    if (e.clock_out === null) out.set(e.id, { date, split: null });
    else if (e.voided_at !== null) out.set(e.id, { date, split: { ...NOTHING, date } });
    else out.set(e.id, { date, split: splits.get(e.id) ?? null });
  }
  return out;
}

/** The pay of an entry's split at its snapshot rate (cents), or null without a rate or while open. */
export function payCents(rateCents: number | null, split: EntrySplit | null): number | null {
  if (rateCents === null || split === null) return null;
  return laborCostCents(Number(rateCents), split);
}
