// Timestamps. Stored everywhere as `YYYY-MM-DDTHH:MM:SS.ffffff` (UTC, microseconds, no zone) so
// they sort as text on both engines. Two wire forms: jobs, users and photos keep that stored form;
// everything else is `YYYY-MM-DDTHH:MM:SSZ`.

let lastMicros = 0n;
const hrBase = process.hrtime.bigint();
const wallBaseMicros = BigInt(Date.now()) * 1000n;

// The test clock (see pauseClock below): an offset added to the system clock, or a paused instant.
let offsetMicros = 0n;
let pausedAtMicros: bigint | null = null;

function clockMicros(): bigint {
  return pausedAtMicros ?? wallBaseMicros + (process.hrtime.bigint() - hrBase) / 1000n + offsetMicros;
}

/** Current time in microseconds; strictly increasing within the process so writes order stably. */
function nowMicrosBigint(): bigint {
  let t = clockMicros();
  if (t <= lastMicros) t = lastMicros + 1n;
  lastMicros = t;
  return t;
}

/**
 * Tests only: stops `now()` at the start of the next whole second. While paused every call still
 * answers a later microsecond, so writes keep their order, and all of them fall in that one second
 * (what an incremental-sync test needs, without sleeping). The clock never moves backwards.
 */
export function pauseClock(): void {
  const t = clockMicros();
  pausedAtMicros = (t / 1_000_000n + 1n) * 1_000_000n;
}

/** Tests only: moves the clock forward by `ms`, paused or not. */
export function advanceClock(ms: number): void {
  const by = BigInt(Math.round(ms * 1000));
  if (pausedAtMicros !== null) pausedAtMicros += by;
  else offsetMicros += by;
}

/** Tests only: lets a paused clock run again from where it stands. */
export function resumeClock(): void {
  if (pausedAtMicros === null) return;
  const stood = pausedAtMicros > lastMicros ? pausedAtMicros : lastMicros;
  pausedAtMicros = null;
  offsetMicros += stood - clockMicros();
}

/**
 * Tests only: back to the system clock with no history, as a new process starts. Test files share
 * their worker's modules (vitest.config.ts), so each file starts here (test/helpers/per-file.ts)
 * rather than on the clock an earlier file paused or moved days ahead.
 */
export function resetClockForTests(): void {
  offsetMicros = 0n;
  pausedAtMicros = null;
  lastMicros = 0n;
}

function formatMicros(micros: bigint): string {
  // Floor division, so instants before 1970 keep a fraction in 0..999999.
  let seconds = micros / 1_000_000n;
  let frac = micros % 1_000_000n;
  if (frac < 0n) {
    frac += 1_000_000n;
    seconds -= 1n;
  }
  return new Date(Number(seconds) * 1000).toISOString().slice(0, 19) + '.' + frac.toString().padStart(6, '0');
}

/** Milliseconds since the epoch of a UTC calendar instant; years 0-99 are not read as 19xx. */
function utcMillis(y: number, mo: number, d: number, h: number, mi: number, s: number): number {
  const date = new Date(0);
  date.setUTCFullYear(y, mo, d);
  date.setUTCHours(h, mi, s, 0);
  return date.getTime();
}

/** Now, in the stored form. */
export function now(): string {
  return formatMicros(nowMicrosBigint());
}

/** An instant given in epoch milliseconds (an injected clock's reading), in the stored form. */
export function storedAt(ms: number): string {
  return formatMicros(BigInt(Math.floor(ms)) * 1000n);
}

/** Epoch milliseconds of a stored timestamp. */
export function millisOf(stored: string): number {
  return Date.parse(stored.slice(0, 23) + 'Z');
}

/** Wire form of job, user and photo timestamps: stored form as is (microseconds, no suffix). */
export function microWire(stored: string): string;
export function microWire(stored: string | null): string | null;
export function microWire(stored: string | null): string | null {
  return stored;
}

/** Wire form of every other timestamp: to the second with Z. */
export function zWire(stored: string): string;
export function zWire(stored: string | null): string | null;
export function zWire(stored: string | null): string | null {
  return stored === null ? null : stored.slice(0, 19) + 'Z';
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * Parses an ISO 8601 timestamp (date, or date and time, optional fraction and zone; no zone
 * means UTC) into the stored form. Returns null when the text is not a real instant.
 */
export function parseTimestamp(text: string): string | null {
  const m = ISO.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone] = m;
  const base = utcMillis(+y, +mo - 1, +d, +h, +mi, +s);
  const check = new Date(base);
  if (
    check.getUTCFullYear() !== +y ||
    check.getUTCMonth() !== +mo - 1 ||
    check.getUTCDate() !== +d ||
    +h > 23 ||
    +mi > 59 ||
    +s > 59
  )
    return null;
  let offsetMinutes = 0;
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = +digits.slice(0, 2);
    const om = digits.length > 2 ? +digits.slice(2, 4) : 0;
    if (oh > 23 || om > 59) return null;
    offsetMinutes = sign * (oh * 60 + om);
  }
  const micros = BigInt(base - offsetMinutes * 60_000) * 1000n + BigInt((frac + '000000').slice(0, 6));
  return formatMicros(micros);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written YYYY-MM-DD. */
export function isDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(utcMillis(+m[1], +m[2] - 1, +m[3], 0, 0, 0));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

/** Whole days from one YYYY-MM-DD date to another (negative when `to` is earlier): addDays's inverse. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);
}

/** Whole days from a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const next = new Date(0);
  next.setUTCFullYear(y!, m! - 1, d! + days);
  return next.toISOString().slice(0, 10);
}

/** The first microsecond of the second a stored timestamp falls in. */
export function startOfSecond(stored: string): string {
  return stored.slice(0, 19) + '.000000';
}

/** The last microsecond of the second a stored timestamp falls in. */
export function endOfSecond(stored: string): string {
  return stored.slice(0, 19) + '.999999';
}
