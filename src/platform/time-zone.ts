// Local dates and times in a workspace's time zone (IANA name) and the UTC instants they name.
// Follow-ups today; reminders, crew schedules and daily logs read local times the same way; mail to
// teammates and the customer pages show an instant as localWhen reads it, the zone named.
import { millisOf, now, storedAt } from './time.ts';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
    } catch {
      f = formatterFor('UTC');
    }
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock reading in `timeZone` at the instant `ms`, as epoch ms of that reading taken as UTC. */
function wallMillis(ms: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatterFor(timeZone).formatToParts(new Date(ms)))
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const d = new Date(0);
  d.setUTCFullYear(parts.year, parts.month - 1, parts.day);
  d.setUTCHours(parts.hour, parts.minute, parts.second, 0);
  return d.getTime();
}

/** The UTC instant (stored form) of local `date` `time` in `timeZone`; a time skipped by DST moves forward. */
export function localToStored(date: string, time: string, timeZone: string): string {
  const [y, mo, d] = date.split('-').map(Number);
  const [h, mi] = time.split(':').map(Number);
  const wall = new Date(0);
  wall.setUTCFullYear(y, mo - 1, d);
  wall.setUTCHours(h, mi, 0, 0);
  const target = wall.getTime();
  // Two rounds of "subtract the zone's offset": exact except in a DST gap, where neither
  // candidate reads back as the target and the later one (the time moved forward) is used.
  const a = target - (wallMillis(target, timeZone) - target);
  const b = target - (wallMillis(a, timeZone) - a);
  if (wallMillis(b, timeZone) === target) return storedAt(b);
  if (wallMillis(a, timeZone) === target) return storedAt(a);
  return storedAt(Math.max(a, b));
}

/** Local date and HH:MM in `timeZone` of a stored instant. */
export function storedToLocal(stored: string, timeZone: string): { date: string; time: string } {
  const wall = new Date(wallMillis(millisOf(stored), timeZone)).toISOString();
  return { date: wall.slice(0, 10), time: wall.slice(11, 16) };
}

/** The date (YYYY-MM-DD) it is now in `timeZone`: link expiry, validity and card expiry are dates there. */
export const todayIn = (timeZone: string) => storedToLocal(now(), timeZone).date;

/** "Tue, Mar 10, 2026 at 8:00 AM (America/New_York)" of a stored instant. */
export function localWhen(stored: string, timeZone: string): string {
  const local = storedToLocal(stored, timeZone);
  const [h, m] = local.time.split(':').map(Number);
  const day = new Date(`${local.date}T00:00:00Z`).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
  });
  const clock = `${((h! + 11) % 12) + 1}:${String(m).padStart(2, '0')} ${h! < 12 ? 'AM' : 'PM'}`;
  return `${day} at ${clock} (${timeZone})`;
}
