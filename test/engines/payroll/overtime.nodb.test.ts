// The overtime rule (src/engines/payroll/overtime.ts): reference weeks read off a clock in
// America/New_York across a week boundary and both 2026 daylight-saving changes, and properties
// that hold for any set of entries.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  HOUR_MS,
  hoursOf,
  laborCostCents,
  localDate,
  localDates,
  splitOvertime,
  weekStartOf,
  type WorkedEntry,
} from '#engines/payroll/index.ts';

const NY = 'America/New_York';
const at = (iso: string) => Date.parse(iso);
const entry = (id: number, from: string, to: string, userId = 1): WorkedEntry => ({
  id,
  userId,
  clockInMs: at(from),
  clockOutMs: at(to),
});
const hours = (ms: number) => ms / HOUR_MS;

describe('weeks and days', () => {
  it('starts a week on monday or sunday', () => {
    // 2026-03-08 is a Sunday.
    expect(weekStartOf('2026-03-08', 'monday')).toBe('2026-03-02');
    expect(weekStartOf('2026-03-08', 'sunday')).toBe('2026-03-08');
    expect(weekStartOf('2026-03-09', 'monday')).toBe('2026-03-09');
    expect(weekStartOf('2026-03-14', 'sunday')).toBe('2026-03-08');
  });

  it('reads the day in the workspace time zone', () => {
    // 02:30 UTC on the 10th is the evening of the 9th in New York.
    expect(localDate(at('2026-03-10T02:30:00Z'), NY)).toBe('2026-03-09');
    expect(localDate(at('2026-03-10T02:30:00Z'), 'UTC')).toBe('2026-03-10');
  });
});

describe('local dates read a quarter hour at a time', () => {
  // Zones with whole-hour, half-hour and 45-minute offsets, half-hour DST (Lord Howe), DST ending at
  // midnight (São Paulo, until 2019), and odd-minute offsets before 1972 (Monrovia: -0:44:30).
  const ZONES = [
    NY,
    'UTC',
    'Asia/Kathmandu',
    'Australia/Lord_Howe',
    'Pacific/Chatham',
    'America/Sao_Paulo',
    'Africa/Monrovia',
    'America/St_Johns',
    'Asia/Kolkata',
  ];
  const MIN = Date.UTC(1900, 0, 1);
  const MAX = Date.UTC(2100, 0, 1);

  it('each instant reads the date Intl reads, however many share a slot', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.array(fc.integer({ min: MIN, max: MAX }), { minLength: 1, maxLength: 40 }),
        fc.array(fc.integer({ min: -2 * HOUR_MS, max: 2 * HOUR_MS }), { minLength: 1, maxLength: 10 }),
        (zone, instants, nearby) => {
          const dateOf = localDates(zone);
          // Instants near each other too, so slots are read again and their neighbours tried.
          for (const base of instants) for (const d of nearby) expect(dateOf(base + d)).toBe(localDate(base + d, zone));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('around every midnight and offset change of a year, minute by minute', () => {
    for (const zone of ['America/Sao_Paulo', 'Australia/Lord_Howe', 'Asia/Kathmandu', NY]) {
      const dateOf = localDates(zone);
      for (let ms = Date.UTC(2018, 10, 1); ms < Date.UTC(2018, 11, 1); ms += 7 * 60_000)
        expect(dateOf(ms)).toBe(localDate(ms, zone));
    }
    // Monrovia at -0:44:30 in 1971: its midnights fall inside slots, which are read instant by instant.
    const monrovia = localDates('Africa/Monrovia');
    for (let ms = Date.UTC(1971, 5, 1); ms < Date.UTC(1971, 5, 8); ms += 60_000)
      expect(monrovia(ms)).toBe(localDate(ms, 'Africa/Monrovia'));
  });
});

describe('reference weeks (America/New_York)', () => {
  it('five 9-hour days: the fifth day crosses 40 hours and splits', () => {
    // Mon 2026-03-02 .. Fri 2026-03-06, 08:00-17:00 EST (13:00-22:00 UTC).
    const days = ['02', '03', '04', '05', '06'];
    const split = splitOvertime(
      days.map((d, i) => entry(i + 1, `2026-03-${d}T13:00:00Z`, `2026-03-${d}T22:00:00Z`)),
      NY,
      'monday',
    );
    for (const id of [1, 2, 3, 4]) expect(hours(split.get(id)!.regularMs)).toBe(9);
    expect(hours(split.get(5)!.regularMs)).toBe(4);
    expect(hours(split.get(5)!.overtimeMs)).toBe(5);
    expect(split.get(5)!.date).toBe('2026-03-06');
  });

  it('a new week starts from zero at the workspace week start', () => {
    // 45 hours Mon-Fri, then Monday 2026-03-09 is a new week: regular again.
    const days = ['02', '03', '04', '05', '06'];
    const entries = days.map((d, i) => entry(i + 1, `2026-03-${d}T12:00:00Z`, `2026-03-${d}T21:00:00Z`));
    entries.push(entry(6, '2026-03-09T12:00:00Z', '2026-03-09T20:00:00Z'));
    const monday = splitOvertime(entries, NY, 'monday');
    expect(hours(monday.get(6)!.regularMs)).toBe(8);
    expect(monday.get(6)!.weekStart).toBe('2026-03-09');
    // With weeks starting Sunday, Mon 2 .. Fri 6 is one week too (Sun 1 .. Sat 7).
    const sunday = splitOvertime(entries, NY, 'sunday');
    expect(hours(sunday.get(5)!.overtimeMs)).toBe(5);
    expect(hours(sunday.get(6)!.regularMs)).toBe(8);
  });

  it('a shift past midnight belongs to the day (and week) it began', () => {
    // Sunday 2026-03-01 20:00 EST to Monday 04:00 EST: Sunday's, so the week of Mon 2026-02-23.
    const split = splitOvertime([entry(1, '2026-03-02T01:00:00Z', '2026-03-02T09:00:00Z')], NY, 'monday');
    expect(split.get(1)!.date).toBe('2026-03-01');
    expect(split.get(1)!.weekStart).toBe('2026-02-23');
  });

  it('the spring-forward day (2026-03-08) counts real hours', () => {
    // Sunday 2026-03-08 00:00 EST (05:00Z) to 12:00 EDT (16:00Z): 11 real hours, one skipped.
    const split = splitOvertime([entry(1, '2026-03-08T05:00:00Z', '2026-03-08T16:00:00Z')], NY, 'sunday');
    expect(hours(split.get(1)!.regularMs)).toBe(11);
    expect(split.get(1)!.date).toBe('2026-03-08');
    expect(split.get(1)!.weekStart).toBe('2026-03-08');
  });

  it('the fall-back day (2026-11-01) counts real hours and weeks follow local dates', () => {
    // Saturday 2026-10-31 work fills 40 hours of the week of Sun 2026-10-25 (weeks start Sunday):
    // five 8-hour days Mon 26 .. Fri 30.
    const entries = ['26', '27', '28', '29', '30'].map((d, i) =>
      entry(i + 1, `2026-10-${d}T12:00:00Z`, `2026-10-${d}T20:00:00Z`),
    );
    // Sunday 2026-11-01 00:00 EDT (04:00Z) to 12:00 EST (17:00Z): 13 real hours, a new week.
    entries.push(entry(6, '2026-11-01T04:00:00Z', '2026-11-01T17:00:00Z'));
    // Saturday 2026-10-31 23:00 EDT (03:00Z Nov 1) to 03:00 EST (08:00Z): 5 hours, Saturday's.
    entries.push(entry(7, '2026-11-01T03:00:00Z', '2026-11-01T08:00:00Z', 2));
    const split = splitOvertime(entries, NY, 'sunday');
    expect(hours(split.get(6)!.regularMs)).toBe(13);
    expect(split.get(6)!.weekStart).toBe('2026-11-01');
    expect(split.get(7)!.date).toBe('2026-10-31');
    expect(split.get(7)!.weekStart).toBe('2026-10-25');
    expect(hours(split.get(7)!.regularMs)).toBe(5);
  });

  it('past 60 hours is doubletime; a long entry splits at both points', () => {
    // Five 10-hour days (50 h), then a 14-hour Saturday: 0 regular, 10 overtime, 4 doubletime.
    const entries = ['02', '03', '04', '05', '06'].map((d, i) =>
      entry(i + 1, `2026-03-${d}T12:00:00Z`, `2026-03-${d}T22:00:00Z`),
    );
    entries.push(entry(6, '2026-03-07T11:00:00Z', '2026-03-08T01:00:00Z'));
    const s = splitOvertime(entries, NY, 'monday').get(6)!;
    expect([hours(s.regularMs), hours(s.overtimeMs), hours(s.doubletimeMs)]).toEqual([0, 10, 4]);
    // One 70-hour entry alone splits at 40 and 60.
    const one = splitOvertime([entry(9, '2026-03-02T12:00:00Z', '2026-03-05T10:00:00Z')], NY, 'monday').get(9)!;
    expect([hours(one.regularMs), hours(one.overtimeMs), hours(one.doubletimeMs)]).toEqual([40, 20, 10]);
  });

  it('workers are counted apart', () => {
    const entries = [entry(1, '2026-03-02T12:00:00Z', '2026-03-04T08:00:00Z', 1)]; // 44 h
    entries.push(entry(2, '2026-03-02T12:00:00Z', '2026-03-02T20:00:00Z', 2));
    const split = splitOvertime(entries, NY, 'monday');
    expect(hours(split.get(1)!.overtimeMs)).toBe(4);
    expect(hours(split.get(2)!.regularMs)).toBe(8);
  });
});

describe('labor cost', () => {
  it('pays overtime at 1.5x and doubletime at 2x, rounding to the cent', () => {
    expect(laborCostCents(2500, { regularMs: 8 * HOUR_MS, overtimeMs: 2 * HOUR_MS, doubletimeMs: HOUR_MS })).toBe(
      2500 * 8 + 3750 * 2 + 5000,
    );
    // 20 minutes at $10.01: 333.666.. cents -> 334.
    expect(laborCostCents(1001, { regularMs: 20 * 60_000, overtimeMs: 0, doubletimeMs: 0 })).toBe(334);
    expect(hoursOf(20 * 60_000)).toBe(0.33);
  });
});

const entriesArb = fc
  .array(
    fc.record({
      userId: fc.integer({ min: 1, max: 3 }),
      start: fc.integer({ min: at('2026-02-20T00:00:00Z'), max: at('2026-03-20T00:00:00Z') }),
      length: fc.integer({ min: 0, max: 24 * HOUR_MS }),
    }),
    { maxLength: 60 },
  )
  .map((rows) =>
    rows.map((r, i) => ({ id: i + 1, userId: r.userId, clockInMs: r.start, clockOutMs: r.start + r.length })),
  );

describe('properties', () => {
  it('every entry splits into exactly its length', () => {
    fc.assert(
      fc.property(entriesArb, fc.constantFrom('monday' as const, 'sunday' as const), (entries, ws) => {
        const split = splitOvertime(entries, NY, ws);
        for (const e of entries) {
          const s = split.get(e.id)!;
          expect(s.regularMs + s.overtimeMs + s.doubletimeMs).toBe(e.clockOutMs - e.clockInMs);
        }
      }),
    );
  });

  it('per worker-week: regular at most 40 h, overtime at most 20 h, and overtime only once 40 h are regular', () => {
    fc.assert(
      fc.property(entriesArb, fc.constantFrom('monday' as const, 'sunday' as const), (entries, ws) => {
        const split = splitOvertime(entries, NY, ws);
        const weeks = new Map<string, { regular: number; overtime: number; doubletime: number }>();
        for (const e of entries) {
          const s = split.get(e.id)!;
          const k = `${e.userId}:${s.weekStart}`;
          const w = weeks.get(k) ?? { regular: 0, overtime: 0, doubletime: 0 };
          w.regular += s.regularMs;
          w.overtime += s.overtimeMs;
          w.doubletime += s.doubletimeMs;
          weeks.set(k, w);
        }
        for (const w of weeks.values()) {
          expect(w.regular).toBeLessThanOrEqual(40 * HOUR_MS);
          expect(w.overtime).toBeLessThanOrEqual(20 * HOUR_MS);
          if (w.overtime > 0) expect(w.regular).toBe(40 * HOUR_MS);
          if (w.doubletime > 0) expect(w.overtime).toBe(20 * HOUR_MS);
        }
      }),
    );
  });

  it('the week start is the configured weekday on or before the day', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: at('2020-01-01T00:00:00Z'), max: at('2030-12-31T00:00:00Z') }),
        fc.constantFrom('monday' as const, 'sunday' as const),
        (ms, ws) => {
          const date = localDate(ms, NY);
          const start = weekStartOf(date, ws);
          const gap = (Date.parse(`${date}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000;
          expect(gap).toBeGreaterThanOrEqual(0);
          expect(gap).toBeLessThan(7);
          expect(new Date(`${start}T00:00:00Z`).getUTCDay()).toBe(ws === 'monday' ? 1 : 0);
        },
      ),
    );
  });

  it('labor cost grows with time and never below the regular rate', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 40 * HOUR_MS }),
        fc.integer({ min: 0, max: 20 * HOUR_MS }),
        fc.integer({ min: 0, max: 24 * HOUR_MS }),
        (rate, r, o, d) => {
          const cost = laborCostCents(rate, { regularMs: r, overtimeMs: o, doubletimeMs: d });
          expect(cost).toBeGreaterThanOrEqual(Math.floor((rate * (r + o + d)) / HOUR_MS));
          expect(Number.isSafeInteger(cost)).toBe(true);
        },
      ),
    );
  });
});
