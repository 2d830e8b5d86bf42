// When reminders (and follow-ups snoozed in bulk) are due: local times read in an IANA time zone,
// the snooze choices, and the next round of a repeating reminder. The instant "now" comes from the
// caller (the process clock, ctx.deps.clock), so a test walks these across a daylight-saving change.
import { invalidField } from '#platform/errors.ts';
import { addDays, isDate, millisOf, storedAt } from '#platform/time.ts';
import { localToStored, storedToLocal } from '#platform/time-zone.ts';

/** A bare date means this local time (document 2, PATCH /v1/reminders: "a date meaning 9:00 AM"). */
export const DATE_ONLY_TIME = '09:00';
/** "tomorrow" and "next_week" snooze to this local time. */
export const SNOOZE_TIME = '08:00';
export const SNOOZES = ['1h', 'tomorrow', 'next_week'] as const;
export type Snooze = (typeof SNOOZES)[number];
export const REPEAT_UNITS = ['day', 'week', 'month'] as const;
export type RepeatUnit = (typeof REPEAT_UNITS)[number];

const LOCAL = /^(\d{4}-\d{2}-\d{2})(?:T([01]\d|2[0-3]):([0-5]\d))?$/;

/** The IANA zone a body sent, or a 400 naming `timezone`. */
export function timeZoneField(timeZone: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    throw invalidField('timezone', `timezone must be an IANA time zone such as America/Chicago, got "${timeZone}"`);
  }
  return timeZone;
}

/** `due` (local YYYY-MM-DDTHH:MM, or YYYY-MM-DD meaning 9:00 AM) read in `timeZone`, stored form. */
export function localDue(due: string, timeZone: string, field = 'due'): string {
  const m = LOCAL.exec(due);
  if (!m || !isDate(m[1]!))
    throw invalidField(
      field,
      `${field} must be a local date and time YYYY-MM-DDTHH:MM, or a date YYYY-MM-DD (9:00 AM)`,
    );
  return localToStored(m[1]!, m[2] !== undefined ? `${m[2]}:${m[3]}` : DATE_ONLY_TIME, timeZone);
}

/**
 * Where a snooze moves a due time, from the instant `nowMs`: 1h is an hour from now; tomorrow is
 * 8:00 AM local tomorrow; next_week is 8:00 AM local on the next Monday (a week on when today is
 * Monday). Local times are read in `timeZone`, so a daylight-saving change between now and then
 * keeps the wall-clock 8:00.
 */
export function snoozedUntil(snooze: Snooze, nowMs: number, timeZone: string): string {
  if (snooze === '1h') return storedAt(nowMs + 3_600_000);
  const today = storedToLocal(storedAt(nowMs), timeZone).date;
  if (snooze === 'tomorrow') return localToStored(addDays(today, 1), SNOOZE_TIME, timeZone);
  const weekday = new Date(`${today}T00:00:00Z`).getUTCDay(); // 0 Sunday … 6 Saturday
  const toMonday = (8 - weekday) % 7 || 7;
  return localToStored(addDays(today, toMonday), SNOOZE_TIME, timeZone);
}

function daysInMonth(y: number, monthIndex: number): number {
  return new Date(Date.UTC(y, monthIndex + 1, 0)).getUTCDate();
}

/** `date` moved `months` calendar months on, the day of month `anchorDay` clamped to the month's length. */
export function addMonths(date: string, months: number, anchorDay: number): string {
  const [y, m] = date.split('-').map(Number);
  const index = y! * 12 + (m! - 1) + months;
  const ny = Math.floor(index / 12);
  const nm = index % 12;
  const nd = Math.min(anchorDay, daysInMonth(ny, nm));
  return `${String(ny).padStart(4, '0')}-${String(nm + 1).padStart(2, '0')}-${String(nd).padStart(2, '0')}`;
}

/**
 * The next round of a reminder repeating every `every` `unit`s: one interval on at the same local
 * time in `timeZone` (a month keeps the day of month, the 31st becoming the month's last day), and
 * on until it is after `nowStored`, so a reminder completed late does not come due at once again.
 */
export function nextReminderRound(
  dueAt: string,
  every: number,
  unit: RepeatUnit,
  timeZone: string,
  nowStored: string,
): string {
  const local = storedToLocal(dueAt, timeZone);
  const anchorDay = Number(local.date.slice(8, 10));
  let next = dueAt;
  for (let round = 1; round <= 100_000; round++) {
    const date =
      unit === 'month'
        ? addMonths(local.date, every * round, anchorDay)
        : addDays(local.date, every * round * (unit === 'week' ? 7 : 1));
    next = localToStored(date, local.time, timeZone);
    if (millisOf(next) > millisOf(nowStored)) break;
  }
  return next;
}

/** The nominal length in days of one repeat: a month counts 30 (repeat_every_days on the wire). */
export function repeatEveryDays(every: number | null, unit: string | null): number | null {
  if (every === null || unit === null || every <= 0) return null;
  return every * (unit === 'week' ? 7 : unit === 'month' ? 30 : 1);
}
