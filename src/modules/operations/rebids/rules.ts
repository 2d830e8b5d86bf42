// The re-bid arithmetic and matching, with no I/O (docs/decisions/operations-rebids.md): when a
// site's service comes due again, where a re-bid stands, and which cycle a completed work order's
// work counts for. Kept pure so the rules have their own tests (test/operations/rebids/rules.nodb.test.ts).

/** A re-bid is "due" from this many days before its due date (and stays due while overdue). */
export const DUE_WINDOW_DAYS = 90;

/** What a workspace's cycles start as: the common pavement-maintenance rhythms. */
export const STARTER_CYCLES: readonly { service: string; every_years: number }[] = [
  { service: 'Sealcoating', every_years: 2 },
  { service: 'Striping', every_years: 1 },
  { service: 'Crack sealing', every_years: 1 },
  { service: 'Asphalt repair', every_years: 3 },
];

/** A date `years` years on; 29 February lands on 28 February in a common year. */
export function addYears(date: string, years: number): string {
  const y = Number(date.slice(0, 4)) + years;
  const md = date.slice(5);
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return `${String(y).padStart(4, '0')}-${md === '02-29' && !leap ? '02-28' : md}`;
}

/** A date `days` days on (negative: before). */
export function addDaysTo(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export type RebidStatus = 'due' | 'upcoming' | 'snoozed' | 'not_doing';
export const REBID_STATUSES: readonly RebidStatus[] = ['due', 'upcoming', 'snoozed', 'not_doing'];

/** The office's choice on one re-bid, as it applies to the current round (null: none). */
export interface RebidChoice {
  status: 'open' | 'snoozed' | 'not_doing';
  snooze_until: string | null;
}

/**
 * Where a re-bid stands today: not doing; snoozed while the snooze date is after today; else due
 * when its due date is within DUE_WINDOW_DAYS (or past), upcoming before that.
 */
export function rebidStatus(dueOn: string, today: string, choice: RebidChoice | null): RebidStatus {
  if (choice?.status === 'not_doing') return 'not_doing';
  if (choice?.status === 'snoozed' && choice.snooze_until !== null && choice.snooze_until > today) return 'snoozed';
  return dueOn <= addDaysTo(today, DUE_WINDOW_DAYS) ? 'due' : 'upcoming';
}

/** Lower case, runs of anything but letters and digits as one space, trimmed. */
export function serviceKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** True when `words` (a service key) appears in `text`'s key as whole words. */
function namesService(text: string | null | undefined, words: string): boolean {
  if (!text || words === '') return false;
  return ` ${serviceKey(text)} `.includes(` ${words} `);
}

/**
 * The cycle a completed work order's work counts for: the first cycle whose service is named, as
 * whole words and any case, by the work's estimate line (its service name, then its service type),
 * then by the work order's title, then its phase. Among cycles named by the same text the longest
 * service wins ("Crack sealing" over "Sealing"). Null when none is named.
 */
export function matchCycle<C extends { id: number; service: string }>(
  cycles: readonly C[],
  work: { lineName?: string | null; lineServiceType?: string | null; title: string; phase?: string | null },
): C | null {
  const byLength = [...cycles].sort(
    (a, b) => serviceKey(b.service).length - serviceKey(a.service).length || a.id - b.id,
  );
  for (const text of [work.lineName, work.lineServiceType, work.title, work.phase]) {
    const hit = byLength.find((c) => namesService(text, serviceKey(c.service)));
    if (hit) return hit;
  }
  return null;
}

/** The key of a site's re-bids. */
export const siteKey = (locationId: number) => `loc:${locationId}`;

/** The site id a re-bid key names, or null when it is not of the loc:<site_id> form. */
export function siteOfKey(key: string): number | null {
  const m = /^loc:([1-9][0-9]{0,9})$/.exec(key);
  if (!m) return null;
  const id = Number(m[1]);
  return id <= 2147483647 ? id : null;
}
