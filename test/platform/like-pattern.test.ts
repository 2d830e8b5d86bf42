// likePattern (src/platform/text.ts) against the LIKE operators it is written for: SQLite's with
// ESCAPE '\\', and the API's search on the database under test (SQLite, or PostgreSQL with
// DATABASE_URL). Its pure properties are in test/engines/time-money.nodb.test.ts.
import SQLite from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { likePattern } from '#platform/text.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

describe('text: likePattern', () => {
  it("with ESCAPE '\\' a real LIKE matches the text literally (substring, ASCII case ignored)", () => {
    const sqlite = new SQLite(':memory:');
    try {
      const stmt = sqlite.prepare("select ? like ? escape '\\' as m");
      const text = fc.string({ unit: fc.constantFrom('a', 'B', '%', '_', '\\', 'x', ' '), maxLength: 12 });
      fc.assert(
        fc.property(text, text, (haystack, q) => {
          const row = stmt.get(haystack, likePattern(q)) as { m: number };
          expect(row.m === 1).toBe(haystack.toLowerCase().includes(q.toLowerCase()));
        }),
        { numRuns: 3000 },
      );
    } finally {
      sqlite.close();
    }
  });

  it('the API search treats wildcards literally', async () => {
    const w = await t.workspace();
    for (const name of ['100% Asphalt', '100 Asphalt', 'Lot_A', 'LotXA']) {
      expect((await w.api.post('/v1/jobs', { name })).status).toBe(201);
    }
    const pct = await w.api.get(`/v1/jobs?q=${encodeURIComponent('100%')}`);
    expect(pct.body.data.map((j: { name: string }) => j.name)).toEqual(['100% Asphalt']);
    const under = await w.api.get(`/v1/jobs?q=${encodeURIComponent('Lot_')}`);
    expect(under.body.data.map((j: { name: string }) => j.name)).toEqual(['Lot_A']);
  });
});
