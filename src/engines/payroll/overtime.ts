// Overtime (document 2, labor-hours report: "overtime per worker-week"; docs/api-decisions.md,
// "Operations: time and job costs"). Pure: entries in, each entry's regular, overtime and
// doubletime milliseconds out. No I/O and no imports outside engines/.
//
// The rule, in full:
// - An entry's day is the local date of its clock_in in the workspace's time zone; the whole entry
//   belongs to that day (a shift past midnight stays on the day it began), and so to the week that
//   day falls in.
// - A week starts on the workspace's week start (monday or sunday) in its time zone.
// - Within one worker's week, entries count in clock_in order (then id). Hours up to 40 are
//   regular, hours past 40 overtime, hours past 60 doubletime. An entry that crosses the 40- or
//   60-hour point is split there.
// - Hours are measured on the instants (UTC), so a shift across a daylight-saving change is its
//   real length (an 8:00 to 17:00 shift on the day clocks go forward is 8 hours, not 9).
// - Only closed entries count; the caller leaves out open and voided ones.

export type WeekStart = 'monday' | 'sunday';

export const HOUR_MS = 3_600_000;
/** Weekly hours past which time is overtime. */
export const OVERTIME_AFTER_HOURS = 40;
/** Weekly hours past which time is doubletime. */
export const DOUBLETIME_AFTER_HOURS = 60;

export interface WorkedEntry {
  id: number;
  userId: number;
  /** Epoch milliseconds. */
  clockInMs: number;
  clockOutMs: number;
}

export interface EntrySplit {
  /** Local date (YYYY-MM-DD) of clock_in: the entry's day. */
  date: string;
  /** The first day of the entry's week. */
  weekStart: string;
  regularMs: number;
  overtimeMs: number;
  doubletimeMs: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The local date (YYYY-MM-DD) of an instant in an IANA time zone. */
export function localDate(ms: number, timeZone: string): string {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, f);
  }
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(ms))) parts[p.type] = p.value;
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** A quarter hour: every zone's offset since 1972 is whole quarter hours, so its midnights fall on them. */
const SLOT_MS = 15 * 60_000;

/**
 * localDate for many instants in one zone, each 15-minute slot of UTC read once (Intl's zone
 * reading was the largest cost of splitting a report's 60,000 entries). A slot's date is kept only
 * when its first and last millisecond read the same date; a slot a midnight falls inside (an
 * offset of odd minutes, as some zones had before 1972) is read instant by instant. The one case it
 * would miss, a date changing twice within 15 minutes, no zone has ever had.
 */
export function localDates(timeZone: string): (ms: number) => string {
  const slots = new Map<number, string | null>();
  return (ms) => {
    const slot = Math.floor(ms / SLOT_MS);
    let date = slots.get(slot);
    if (date === undefined) {
      const first = localDate(slot * SLOT_MS, timeZone);
      date = first === localDate(slot * SLOT_MS + SLOT_MS - 1, timeZone) ? first : null;
      slots.set(slot, date);
    }
    return date ?? localDate(ms, timeZone);
  };
}

/** The first day of the week `date` falls in. */
export function weekStartOf(date: string, weekStart: WeekStart): string {
  const d = new Date(`${date}T00:00:00Z`);
  const weekday = d.getUTCDay(); // 0 Sunday .. 6 Saturday
  const back = weekStart === 'sunday' ? weekday : (weekday + 6) % 7;
  d.setUTCDate(d.getUTCDate() - back);
  return d.toISOString().slice(0, 10);
}

/** Splits every entry into regular, overtime and doubletime, per worker-week (the rule above). */
export function splitOvertime(
  entries: readonly WorkedEntry[],
  timeZone: string,
  weekStart: WeekStart,
): Map<number, EntrySplit> {
  const overtimeAt = OVERTIME_AFTER_HOURS * HOUR_MS;
  const doubletimeAt = DOUBLETIME_AFTER_HOURS * HOUR_MS;
  const ordered = [...entries].sort((a, b) => a.clockInMs - b.clockInMs || a.id - b.id);
  const worked = new Map<string, number>();
  const out = new Map<number, EntrySplit>();
  const dateOf = localDates(timeZone);
  const weeks = new Map<string, string>();
  for (const e of ordered) {
    const date = dateOf(e.clockInMs);
    let week = weeks.get(date);
    if (week === undefined) {
      week = weekStartOf(date, weekStart);
      weeks.set(date, week);
    }
    const key = `${e.userId}:${week}`;
    const before = worked.get(key) ?? 0;
    const length = Math.max(0, e.clockOutMs - e.clockInMs);
    const after = before + length;
    worked.set(key, after);
    const within = (from: number, to: number) => Math.max(0, Math.min(after, to) - Math.max(before, from));
    out.set(e.id, {
      date,
      weekStart: week,
      regularMs: within(0, overtimeAt),
      overtimeMs: within(overtimeAt, doubletimeAt),
      doubletimeMs: within(doubletimeAt, Number.POSITIVE_INFINITY),
    });
  }
  return out;
}

/** Overtime is paid at 1.5 times the rate, doubletime at 2 times. */
export const OVERTIME_FACTOR = 1.5;
export const DOUBLETIME_FACTOR = 2;

/**
 * The pay for a split at an hourly rate in cents, in whole cents (half a cent rounds up). Integer
 * arithmetic in half-rate units: exact for any rate and length a time entry can have.
 */
export function laborCostCents(
  rateCents: number,
  split: Pick<EntrySplit, 'regularMs' | 'overtimeMs' | 'doubletimeMs'>,
): number {
  const halfUnits = 2 * split.regularMs + 3 * split.overtimeMs + 4 * split.doubletimeMs;
  const twice = 2 * HOUR_MS;
  return Math.floor((rateCents * halfUnits + twice / 2) / twice);
}

/** Milliseconds as hours with two decimals (the wire's hours). */
export function hoursOf(ms: number): number {
  return Math.round(ms / 36_000) / 100;
}
