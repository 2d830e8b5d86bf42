// db/batched-read.ts: keyed reads made in one event-loop turn share one `many` statement on a
// database that batches (PostgreSQL); elsewhere, and in a transaction, each read runs alone.
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { batchedRead, batchReadsOn, MAX_BATCH, paddedKeys } from '#db/batched-read.ts';
import type { DB } from '#db/tables.ts';

interface Row {
  firm: number;
  id: number;
  name: string;
}

/** A stand-in store behind the spec: the helper is what is tested, not a database. */
function reader(rows: Row[], fail = false) {
  const calls: { many: number[][]; one: number[] } = { many: [], one: [] };
  const find = (firm: number, id: number) => rows.find((r) => r.firm === firm && r.id === id);
  const read = batchedRead<{ firm: number; id: number }, Row>({
    one: async (_db, k) => {
      calls.one.push(k.id);
      return find(k.firm, k.id);
    },
    many: async (_db, keys) => {
      calls.many.push(keys.map((k) => k.id));
      if (fail) throw new Error('connection lost');
      return keys.map((k) => find(k.firm, k.id)).filter((r): r is Row => r !== undefined);
    },
    keyOf: (k) => `${k.firm}:${k.id}`,
    rowKey: (r) => `${r.firm}:${r.id}`,
  });
  return { read, calls };
}

const batching = () => {
  const db = { isTransaction: false } as unknown as Kysely<DB>;
  batchReadsOn(db);
  return db;
};
const rows: Row[] = [
  { firm: 1, id: 10, name: 'Lot A' },
  { firm: 1, id: 11, name: 'Lot B' },
  { firm: 2, id: 20, name: 'Other firm' },
];

describe('batchedRead', () => {
  it('answers the reads of one turn with one statement, each with its own row or none', async () => {
    const { read, calls } = reader(rows);
    const db = batching();
    const answers = await Promise.all([
      read(db, { firm: 1, id: 10 }),
      read(db, { firm: 1, id: 11 }),
      read(db, { firm: 1, id: 20 }), // another workspace's id: no row for this key
      read(db, { firm: 1, id: 99 }),
    ]);
    expect(answers.map((a) => a?.name)).toEqual(['Lot A', 'Lot B', undefined, undefined]);
    expect(calls.many).toEqual([[10, 11, 20, 99]]);
    expect(calls.one).toEqual([]);
    expect(read.counts).toEqual({ reads: 4, statements: 1 });
  });

  it('asks for a key once however many wait on it, and gives each caller its own copy', async () => {
    const { read, calls } = reader(rows);
    const db = batching();
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => read(db, { firm: 1, id: 10 })));
    expect(calls.many).toEqual([[10]]);
    expect([a, b, c].map((r) => r?.name)).toEqual(['Lot A', 'Lot A', 'Lot A']);
    expect(new Set([a, b, c]).size).toBe(3);
  });

  it('sends a new statement for reads made after the turn', async () => {
    const { read, calls } = reader(rows);
    const db = batching();
    await read(db, { firm: 1, id: 10 });
    await read(db, { firm: 1, id: 11 });
    expect(calls.many).toEqual([[10], [11]]);
  });

  it(`splits a turn of more than ${MAX_BATCH} keys into statements of at most ${MAX_BATCH}, two out at once`, async () => {
    const many = Array.from({ length: 70 }, (_, i) => ({ firm: 1, id: 1000 + i, name: `Lot ${i}` }));
    const sizes: number[] = [];
    let out = 0;
    let mostOut = 0;
    const read = batchedRead<{ firm: number; id: number }, Row>({
      one: async () => undefined,
      many: async (_db, keys) => {
        sizes.push(keys.length);
        mostOut = Math.max(mostOut, ++out);
        await new Promise((r) => setTimeout(r, 5));
        out--;
        return many.filter((r) => keys.some((k) => k.id === r.id));
      },
      keyOf: (k) => `${k.firm}:${k.id}`,
      rowKey: (r) => `${r.firm}:${r.id}`,
    });
    const db = batching();
    const answers = await Promise.all(many.map((r) => read(db, { firm: 1, id: r.id })));
    expect(answers.map((a) => a?.name)).toEqual(many.map((r) => r.name));
    expect(sizes).toEqual([32, 32, 6]);
    expect(mostOut).toBe(2);
  });

  it('keeps two statements out at most: reads made meanwhile wait and go together in the next', async () => {
    const held: { keys: number[]; release: () => void }[] = [];
    const read = batchedRead<number, { id: number }>({
      one: async () => undefined,
      many: (_db, keys) =>
        new Promise((resolve) => held.push({ keys, release: () => resolve(keys.map((id) => ({ id }))) })),
      keyOf: String,
      rowKey: (r) => String(r.id),
    });
    const db = batching();
    const turn = () => new Promise((r) => setImmediate(r));
    const first = read(db, 1);
    await turn();
    const second = read(db, 2);
    await turn();
    const later = [read(db, 3), read(db, 4)];
    await turn();
    const last = read(db, 5);
    await turn();
    expect(held.map((h) => h.keys)).toEqual([[1], [2]]);
    held[0].release();
    expect(await first).toEqual({ id: 1 });
    await turn(); // the statement's end schedules the send of what gathered, for the turn after
    await turn();
    expect(held.map((h) => h.keys)).toEqual([[1], [2], [3, 4, 5]]);
    held[1].release();
    held[2].release();
    expect(await Promise.all([second, ...later, last])).toEqual([2, 3, 4, 5].map((id) => ({ id })));
    expect(read.counts).toEqual({ reads: 5, statements: 3 });
  });

  it("fails every read of a statement that fails, and the next turn's reads run again", async () => {
    const { read } = reader(rows, true);
    const db = batching();
    const settled = await Promise.allSettled([read(db, { firm: 1, id: 10 }), read(db, { firm: 1, id: 11 })]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    expect((settled[0] as PromiseRejectedResult).reason.message).toBe('connection lost');
  });

  it('reads alone in a transaction and on a database that does not batch (SQLite)', async () => {
    const { read, calls } = reader(rows);
    const trx = { isTransaction: true } as unknown as Kysely<DB>;
    batchReadsOn(trx);
    const plain = { isTransaction: false } as unknown as Kysely<DB>;
    const answers = await Promise.all([read(trx, { firm: 1, id: 10 }), read(plain, { firm: 2, id: 20 })]);
    expect(answers.map((a) => a?.name)).toEqual(['Lot A', 'Other firm']);
    expect(calls).toEqual({ many: [], one: [10, 20] });
    expect(read.counts).toEqual({ reads: 0, statements: 0 });
  });
});

describe('paddedKeys', () => {
  it('pads to the next power of two with the last key, so few statement texts are prepared', () => {
    expect(paddedKeys([7])).toEqual([7]);
    expect(paddedKeys([1, 2, 3])).toEqual([1, 2, 3, 3]);
    expect(paddedKeys([1, 2, 3, 4, 5])).toEqual([1, 2, 3, 4, 5, 5, 5, 5]);
    expect(paddedKeys(Array.from({ length: 32 }, (_, i) => i))).toHaveLength(32);
  });
});
