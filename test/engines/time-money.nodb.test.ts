// Pure helpers every area relies on: timestamps (src/platform/time.ts), money (money.ts) and
// text matching/truncation (text.ts). Reference values plus fast-check properties. likePattern
// against real LIKE operators and the API's search is test/platform/like-pattern.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsToDollars, dollarsToCents } from '#platform/money.ts';
import { addressKey, likePattern, nameKey, truncate } from '#platform/text.ts';
import { isDate, now, parseTimestamp } from '#platform/time.ts';

const MICRO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/;

/** Independent reference formatter: micros since the epoch (any sign) to the stored form. */
function formatRef(micros: bigint): string {
  const M = 1_000_000n;
  let secs = micros / M;
  let frac = micros % M;
  if (frac < 0n) {
    frac += M;
    secs -= 1n;
  }
  return new Date(Number(secs) * 1000).toISOString().slice(0, 19) + '.' + frac.toString().padStart(6, '0');
}

const MIN_MICROS = BigInt(Date.UTC(1000, 0, 2)) * 1000n;
const MAX_MICROS = BigInt(Date.UTC(9999, 11, 30)) * 1000n;
const EPOCH_MICROS = 0n;

describe('parseTimestamp: reference values', () => {
  const cases: [string, string][] = [
    ['2026-11-21', '2026-11-21T00:00:00.000000'],
    ['2026-11-21T06:20', '2026-11-21T06:20:00.000000'],
    ['2026-11-21T06:20:00', '2026-11-21T06:20:00.000000'],
    ['2026-11-21 06:20:00', '2026-11-21T06:20:00.000000'],
    ['2026-11-21T06:20:00Z', '2026-11-21T06:20:00.000000'],
    ['2026-11-21t06:20:00z', '2026-11-21T06:20:00.000000'],
    ['2026-11-21T06:20:00.1', '2026-11-21T06:20:00.100000'],
    ['2026-11-21T06:20:00.123', '2026-11-21T06:20:00.123000'],
    ['2026-11-21T06:20:00.123456', '2026-11-21T06:20:00.123456'],
    ['2026-11-21T06:20:00,5Z', '2026-11-21T06:20:00.500000'],
    ['2026-11-21T06:20:00.123456789Z', '2026-11-21T06:20:00.123456'],
    ['2026-11-21T06:20:00+02:00', '2026-11-21T04:20:00.000000'],
    ['2026-11-21T06:20:00+0200', '2026-11-21T04:20:00.000000'],
    ['2026-11-21T06:20:00+02', '2026-11-21T04:20:00.000000'],
    ['2026-11-21T01:00:00-05:30', '2026-11-21T06:30:00.000000'],
    ['2026-01-01T00:30:00+01:00', '2025-12-31T23:30:00.000000'],
    ['2026-12-31T23:30:00.250-01:00', '2027-01-01T00:30:00.250000'],
    ['2024-02-29T12:00:00Z', '2024-02-29T12:00:00.000000'],
    ['2000-02-29', '2000-02-29T00:00:00.000000'],
    ['  2026-11-21T06:20:00Z  ', '2026-11-21T06:20:00.000000'],
    ['1970-01-01T00:00:00Z', '1970-01-01T00:00:00.000000'],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} -> ${expected}`, () => {
      expect(parseTimestamp(input)).toBe(expected);
    });
  }

  const invalid = [
    'yesterday',
    '',
    'now',
    '2026-02-30',
    '2026-13-01',
    '2026-00-10',
    '2026-04-31',
    '2025-02-29',
    '1900-02-29',
    '2026-11-21T24:00:00',
    '2026-11-21T12:60:00',
    '2026-11-21T12:00:60',
    '2026-11-21T06:20:00+24:00',
    '2026-11-21T06:20:00+02:60',
    '2026-2-3',
    '26-11-21',
    '2026/11/21',
    '21-11-2026',
    '2026-11-21T',
    '2026-11-21T6:20',
    '2026-11-21T06:20:00ZZ',
    '2026-11-21T06:20:00 UTC',
    '1700000000',
  ];
  for (const input of invalid) {
    it(`${JSON.stringify(input)} -> null`, () => {
      expect(parseTimestamp(input)).toBeNull();
    });
  }

  it('years before 100 are real instants too (not read as 19xx)', () => {
    expect(parseTimestamp('0050-06-15')).toBe('0050-06-15T00:00:00.000000');
  });

  it('instants before 1970 keep a well-formed fraction', () => {
    expect(parseTimestamp('1969-12-31T23:59:59.5Z')).toBe('1969-12-31T23:59:59.500000');
    expect(parseTimestamp('1960-01-01T00:00:00.25')).toBe('1960-01-01T00:00:00.250000');
  });
});

describe('parseTimestamp: properties', () => {
  it('any UTC instant written with Z parses to itself (1970 onwards)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: EPOCH_MICROS, max: MAX_MICROS }), (micros) => {
        const stored = formatRef(micros);
        expect(parseTimestamp(stored + 'Z')).toBe(stored);
        expect(parseTimestamp(stored)).toBe(stored);
      }),
      { numRuns: 2000 },
    );
  });

  it('any UTC instant from year 1000 parses to itself', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: MIN_MICROS, max: MAX_MICROS }), (micros) => {
        const stored = formatRef(micros);
        expect(parseTimestamp(stored + 'Z')).toBe(stored);
      }),
      { numRuns: 2000 },
    );
  });

  it('a zone offset is converted to UTC', () => {
    const offset = fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 });
    fc.assert(
      fc.property(
        fc.bigInt({ min: EPOCH_MICROS + 86_400_000_000n, max: MAX_MICROS }),
        offset,
        fc.boolean(),
        (micros, minutes, colon) => {
          const local = formatRef(micros + BigInt(minutes) * 60_000_000n);
          const abs = Math.abs(minutes);
          const hh = String(Math.floor(abs / 60)).padStart(2, '0');
          const mm = String(abs % 60).padStart(2, '0');
          const zone = (minutes < 0 ? '-' : '+') + hh + (colon ? ':' : '') + mm;
          expect(parseTimestamp(local + zone)).toBe(formatRef(micros));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('fractions of 1 to 9 digits become exactly 6 digits (truncated, never rounded up)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{1,9}$/), (frac) => {
        const parsed = parseTimestamp(`2026-03-04T05:06:07.${frac}Z`);
        expect(parsed).toBe(`2026-03-04T05:06:07.${(frac + '000000').slice(0, 6)}`);
      }),
    );
  });

  it('days past the end of their month are refused; days within it are accepted', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 9999 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        (y, m, d) => {
          const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
          const text = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
          if (d <= days) {
            expect(parseTimestamp(text)).toBe(`${text}T00:00:00.000000`);
            expect(isDate(text)).toBe(true);
          } else {
            expect(parseTimestamp(text)).toBeNull();
            expect(isDate(text)).toBe(false);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('never throws, and returns null or the stored form, for arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        const parsed = parseTimestamp(text);
        if (parsed !== null) expect(parsed).toMatch(MICRO);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('now()', () => {
  it('is in the stored form, UTC, and strictly increasing', () => {
    let previous = now();
    expect(previous).toMatch(MICRO);
    expect(Math.abs(Date.parse(previous + 'Z') - Date.now())).toBeLessThan(5_000);
    for (let i = 0; i < 20_000; i++) {
      const next = now();
      expect(next > previous).toBe(true);
      previous = next;
    }
    expect(previous).toMatch(MICRO);
    expect(parseTimestamp(previous)).toBe(previous);
  });
});

describe('money: reference values', () => {
  const cases: [number, number][] = [
    [0, 0],
    [0.01, 1],
    [0.1, 10],
    [0.2, 20],
    [0.1 + 0.2, 30],
    [0.3, 30],
    [1.005, 101],
    [1.015, 102],
    [2.675, 268],
    [19.99, 1999],
    [1234.56, 123456],
    [0.004, 0],
    [0.005, 1],
    [0.0049999, 0],
    [10.125, 1013],
    [1e-7, 0],
    [100, 10000],
    [999999999999.99, 99999999999999],
    [1e12, 100000000000000],
    [-0.1, -10],
    [-19.99, -1999],
    [-1.005, -101],
    [-2.675, -268],
    [-0.005, -1],
    [1.1 * 3, 330],
    [(4.35 * 100) / 100, 435],
  ];
  for (const [dollars, cents] of cases) {
    it(`dollarsToCents(${dollars}) = ${cents}`, () => {
      expect(dollarsToCents(dollars)).toBe(cents);
    });
  }

  it('-0 is 0 cents', () => {
    expect(dollarsToCents(-0) === 0).toBe(true);
  });

  it('non-finite amounts throw', () => {
    expect(() => dollarsToCents(Number.NaN)).toThrow(RangeError);
    expect(() => dollarsToCents(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => dollarsToCents(Number.NEGATIVE_INFINITY)).toThrow(RangeError);
  });

  it('centsToDollars reference values', () => {
    expect(centsToDollars(0)).toBe(0);
    expect(centsToDollars(1)).toBe(0.01);
    expect(centsToDollars(10)).toBe(0.1);
    expect(centsToDollars(1999)).toBe(19.99);
    expect(centsToDollars(123456)).toBe(1234.56);
    expect(centsToDollars(-1999)).toBe(-19.99);
    expect(centsToDollars(null)).toBeNull();
    expect(JSON.stringify({ v: centsToDollars(30) })).toBe('{"v":0.3}');
  });
});

describe('money: properties', () => {
  it('round-trips every integer cents value from -1,000,000 to 1,000,000', () => {
    for (let c = -1_000_000; c <= 1_000_000; c++) {
      const back = dollarsToCents(centsToDollars(c));
      if (back !== c) expect(back, `cents ${c}`).toBe(c);
    }
  });

  it('round-trips any cents value up to 10^15 and prints at most two decimals', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e15, max: 1e15 }), (c) => {
        const dollars = centsToDollars(c);
        expect(dollarsToCents(dollars)).toBe(c);
        expect(JSON.stringify(dollars)).toMatch(/^-?\d+(\.\d{1,2})?$/);
      }),
      { numRuns: 20_000 },
    );
  });

  it('rounds a three-decimal amount half away from zero on its decimal text', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e11 }),
        fc.integer({ min: 0, max: 999 }),
        fc.boolean(),
        (whole, milli, negative) => {
          const text = `${negative ? '-' : ''}${whole}.${String(milli).padStart(3, '0')}`;
          const expected = whole * 100 + Math.floor(milli / 10) + (milli % 10 >= 5 ? 1 : 0);
          const cents = dollarsToCents(Number(text));
          expect(cents === 0 ? 0 : cents).toBe(negative && expected !== 0 ? -expected : expected);
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('a sum of amounts in cents equals the cents of the decimal sum', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 1, maxLength: 50 }), (list) => {
        const cents = list.map((c) => dollarsToCents(centsToDollars(c))).reduce((a, b) => a + b, 0);
        expect(cents).toBe(list.reduce((a, b) => a + b, 0));
      }),
    );
  });
});

describe('text: nameKey and addressKey', () => {
  it('reference values', () => {
    expect(nameKey('  Acme   Paving  ')).toBe('acme paving');
    expect(nameKey('ACME\tPaving\n')).toBe('acme paving');
    expect(nameKey('Acme Paving')).toBe(nameKey('acme  paving'));
    expect(nameKey('Acme Paving')).not.toBe(nameKey('Acme Paving Inc'));
    expect(addressKey('12 Main St.')).toBe(addressKey('12 main st'));
    expect(addressKey('12 Main St., Suite #5; Springfield')).toBe('12 main st suite 5 springfield');
    expect(addressKey('  12   MAIN  ST  ')).toBe('12 main st');
    expect(addressKey('12 Main St')).not.toBe(addressKey('13 Main St'));
  });

  it('keys are idempotent, trimmed, single-spaced and ignore ASCII case', () => {
    const ascii = fc.string({ unit: fc.constantFrom(...'abcXYZ 0123.,#;\t\n-'.split('')), maxLength: 40 });
    fc.assert(
      fc.property(ascii, (s) => {
        for (const key of [nameKey, addressKey]) {
          const k = key(s);
          expect(key(k)).toBe(k);
          expect(k).toBe(k.trim());
          expect(k).not.toMatch(/\s\s|[\t\n]|[A-Z]/);
          expect(key(s.toUpperCase())).toBe(k);
          expect(key(`  ${s}  `)).toBe(k);
        }
        expect(addressKey(s)).not.toMatch(/[.,#;]/);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('text: truncate', () => {
  it('reference values', () => {
    expect(truncate('hello', 10)).toBe('hello');
    expect(truncate('hello', 5)).toBe('hello');
    expect(truncate('hello', 3)).toBe('hel');
    expect(truncate('😀😀😀', 2)).toBe('😀😀');
    expect(truncate('a😀b', 2)).toBe('a😀');
    expect(truncate(null, 3)).toBeNull();
    expect(truncate(undefined, 3)).toBeUndefined();
    expect(truncate('', 0)).toBe('');
  });

  it('never exceeds max characters, never splits a surrogate pair, and keeps a prefix', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), fc.integer({ min: 0, max: 70 }), (s, max) => {
        const out = truncate(s, max);
        const points = Array.from(out);
        expect(points.length).toBeLessThanOrEqual(max);
        expect(s.startsWith(out)).toBe(true);
        // No lone surrogate: every UTF-16 unit belongs to a whole code point.
        expect(out).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
        if (Array.from(s).length <= max) expect(out).toBe(s);
        else expect(points.length).toBe(max);
      }),
      { numRuns: 5000 },
    );
  });
});

describe('text: likePattern', () => {
  it('reference values', () => {
    expect(likePattern('abc')).toBe('%abc%');
    expect(likePattern('50%')).toBe('%50\\%%');
    expect(likePattern('a_b')).toBe('%a\\_b%');
    expect(likePattern('c:\\dir')).toBe('%c:\\\\dir%');
    expect(likePattern('')).toBe('%%');
  });

  it('unescaping the pattern gives back the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (q) => {
        const p = likePattern(q);
        expect(p.startsWith('%') && p.endsWith('%')).toBe(true);
        const inner = p.slice(1, -1);
        // Every %, _ and \ inside is escaped.
        expect(inner.replace(/\\[\\%_]/g, '')).not.toMatch(/[\\%_]/);
        expect(inner.replace(/\\([\\%_])/g, '$1')).toBe(q);
      }),
      { numRuns: 3000 },
    );
  });
});
