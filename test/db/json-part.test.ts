// A part of a stored JSON document read many times (src/db/dialect.ts, jsonPart, jsonNumberIn and
// jsonTrueIn): the numbers and booleans read out of the part equal those jsonNumber and jsonTrue read
// out of the whole text, a key given by a row's value included, and a missing key is null (false).
// Both engines.
import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshDatabase } from '#test/helpers/harness.ts';

let fresh: Awaited<ReturnType<typeof freshDatabase>>;

beforeAll(async () => {
  fresh = await freshDatabase();
});
afterAll(() => fresh.drop());

const DOCUMENT = JSON.stringify({
  lines: { '7': { price: 12.5, included: true }, '8': { price: 0.455, included: false }, '9': { cost: 3 } },
  cost_lines: { '7': { cost: 1 } },
});

type Read = (doc: RawBuilder<unknown>, part: RawBuilder<unknown>, id: RawBuilder<unknown>) => RawBuilder<unknown>;

/** Each of the ids 7 to 10 with what `whole` reads out of DOCUMENT and `inPart` out of its `lines` part. */
async function readEach(whole: Read, inPart: Read) {
  const { db, dialect } = fresh.database;
  const [doc, part, id] = [sql`d.doc`, sql`p.part`, sql`ids.id`];
  const { rows } = await sql<{ id: number; whole: unknown; in_part: unknown }>`
    with d (doc) as (select ${DOCUMENT}),
      p (part) as (select ${dialect.jsonPart(doc, ['lines'])} from d),
      ids (id) as (select 7 union all select 8 union all select 9 union all select 10)
    select ids.id, ${whole(doc, part, id)} as whole, ${inPart(doc, part, id)} as in_part
    from ids, d, p order by ids.id`.execute(db);
  return rows;
}

it('reads the same numbers out of a part as out of the whole document', async () => {
  const { dialect } = fresh.database;
  const rows = await readEach(
    (doc, _part, id) => dialect.jsonNumber(doc, ['lines', id, 'price']),
    (_doc, part, id) => dialect.jsonNumberIn(part, [id, 'price']),
  );
  const numbers = rows.map((r) => ({
    id: Number(r.id),
    whole: r.whole === null ? null : Number(r.whole),
    in_part: r.in_part === null ? null : Number(r.in_part),
  }));
  expect(numbers).toEqual([
    { id: 7, whole: 12.5, in_part: 12.5 },
    { id: 8, whole: 0.455, in_part: 0.455 },
    { id: 9, whole: null, in_part: null },
    { id: 10, whole: null, in_part: null },
  ]);
});

it('reads the same booleans out of a part as out of the whole document', async () => {
  const { dialect } = fresh.database;
  const asFlag = (test: RawBuilder<boolean>) => sql`case when ${test} then 1 else 0 end`;
  const rows = await readEach(
    (doc, _part, id) => asFlag(dialect.jsonTrue(doc, ['lines', id, 'included'])),
    (_doc, part, id) => asFlag(dialect.jsonTrueIn(part, [id, 'included'])),
  );
  expect(rows.map((r) => [Number(r.id), Number(r.whole), Number(r.in_part)])).toEqual([
    [7, 1, 1],
    [8, 0, 0],
    [9, 0, 0],
    [10, 0, 0],
  ]);
});
