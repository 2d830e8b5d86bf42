// The delivery queue's statement texts (src/events/delivery-statements.ts) take exactly the values
// their callers (src/events/deliveries.ts) pass, in every shape, and PostgreSQL's are numbered in
// order: a shape the end-to-end tests seldom reach (a claim with no outcome, or none busy) is
// checked here as much as the common ones.
import { describe, expect, it } from 'vitest';
import {
  attemptRowsText,
  leaseText,
  paddedCount,
  recordAndClaimText,
  recordingText,
  recordText,
} from '#events/delivery-statements.ts';

const questionMarks = (text: string) => (text.match(/\?/g) ?? []).length;
const numbered = (text: string) => [...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1]));

/** 12 values an outcome and updated_at (deliveries.ts, recordingValues). */
const recordingValues = (outcomes: number) => 12 * outcomes + 1;

describe('delivery statement texts', () => {
  it('SQLite: one placeholder per value the callers pass', () => {
    for (const n of [1, 2, 16, 32]) {
      expect(questionMarks(recordText('sqlite', n))).toBe(recordingValues(n));
      // Eight values an attempt row.
      expect(questionMarks(attemptRowsText('sqlite', n))).toBe(8 * n);
      // locked_until, lease_token, then the ids.
      expect(questionMarks(leaseText('sqlite', n))).toBe(2 + n);
    }
  });

  it('PostgreSQL: numbered $1 … $N in order, N the values the callers pass, no ? left', () => {
    const expectNumbered = (text: string, values: number) => {
      expect(questionMarks(text)).toBe(0);
      expect(numbered(text)).toEqual(Array.from({ length: values }, (_, i) => i + 1));
    };
    for (const n of [1, 3, 32]) expectNumbered(recordingText('postgres', n), recordingValues(n));
    for (const outcomes of [0, 1, 16]) {
      for (const busy of [0, 1, 8]) {
        // The recording's values, two for each busy subscription, then due, due, the candidates'
        // limit, the share, the limit, locked_until, lease_token.
        const values = (outcomes > 0 ? recordingValues(outcomes) : 0) + 2 * busy + 7;
        expectNumbered(recordAndClaimText('postgres', outcomes, busy), values);
      }
    }
  });

  it("PostgreSQL's row counts are rounded up to a power of two: few shapes for any batch", () => {
    expect([0, 1, 2, 3, 4, 5, 8, 9, 16, 17, 32, 33].map(paddedCount)).toEqual([
      0, 1, 2, 4, 4, 8, 8, 16, 16, 32, 32, 64,
    ]);
    // Every batch of 0 to 32 outcomes with 0 to 16 subscriptions busy: 7 × 6 texts, not 33 × 17.
    const shapes = new Set<string>();
    for (let outcomes = 0; outcomes <= 32; outcomes++) {
      for (let busy = 0; busy <= 16; busy++) {
        shapes.add(recordAndClaimText('postgres', paddedCount(outcomes), paddedCount(busy)));
      }
    }
    expect(shapes.size).toBe(42);
  });

  it('a text made again after many other shapes is the same text', () => {
    const first = recordAndClaimText('postgres', 5, 2);
    for (let n = 1; n <= 700; n++) leaseText('sqlite', n);
    expect(recordAndClaimText('postgres', 5, 2)).toBe(first);
    expect(questionMarks(leaseText('sqlite', 1))).toBe(3);
  });
});
