// The reports' range placement (src/modules/reports/bucket.ts) on the run's database against the
// plain reading of it: a value goes in the first range whose edge it is before, else the last.
// fast-check picks the edges (instants as the stored text, some repeated, as a clipped week's edge
// may be), the values (indexes or labels) and the value placed, edges included.
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#db/database.ts';
import { bucketOf } from '#reports/index.ts';
import { freshDatabase } from '#test/helpers/harness.ts';

let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  const fresh = await freshDatabase();
  database = fresh.database;
  drop = fresh.drop;
});
afterAll(() => drop());

const instant = fc
  .integer({ min: 0, max: 2000 })
  .map((n) => new Date(Date.UTC(2025, 0, 1) + n * 3_600_000).toISOString().replace('Z', '').concat('000'));

/** The first range whose edge `at` is before, else the last: how a report reads its ranges. */
const byHand = <V>(at: string, edges: readonly string[], values: readonly V[]) => {
  const k = edges.findIndex((e) => at < e);
  return values[k === -1 ? values.length - 1 : k];
};

describe('bucketOf', () => {
  it('places a value as the plain reading does, for one range to over a hundred', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(instant, { minLength: 0, maxLength: 120 }),
        fc.boolean(),
        instant,
        fc.nat(),
        async (unsorted, labelled, at, pickEdge) => {
          const edges = [...unsorted].sort();
          const values: readonly (string | number)[] = labelled
            ? Array.from({ length: edges.length + 1 }, (_, k) => `range ${k}`)
            : Array.from({ length: edges.length + 1 }, (_, k) => k);
          // Half the time the value placed is an edge itself (which belongs to the range after it).
          const value = edges.length > 0 && pickEdge % 2 === 0 ? edges[pickEdge % edges.length]! : at;
          const got = await sql<{ v: string | number }>`select ${bucketOf(
            sql`cast(${value} as text)`,
            edges,
            values,
          )} as v`.execute(database.db);
          const v = got.rows[0]!.v;
          expect(labelled ? v : Number(v)).toBe(byHand(value, edges, values));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('refuses values that do not match the edges', () => {
    expect(() => bucketOf(sql`'x'`, ['a'], [0])).toThrow(/one value more than edges/);
  });
});
