// A batch of outcomes records exactly those outcomes (src/events/deliveries.ts). On PostgreSQL a
// batch's VALUES list is rounded up to a power of two with rows of nulls (delivery-statements.ts,
// paddedCount), which must update no delivery and write no attempt row; batches of 3 and 5 are
// padded to 4 and 8. Both the recording alone and the recording with a claim are checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAndClaim, type AttemptOutcome, type ClaimRequest } from '#events/deliveries.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { job as makeJob } from '#test/helpers/records.ts';
import { subscribe } from './kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const claimOf = (limit: number): ClaimRequest => ({
  at: Date.now() + 1000,
  limit,
  leaseMs: 60_000,
  busy: new Map(),
  perSubscription: limit,
  announced: null,
});

/** A workspace with `n` due deliveries, leased by one claim. */
async function leased(n: number) {
  const w = await t.workspace();
  await subscribe(w, { target_url: 'http://127.0.0.1:9/hooks', event_type: 'job_created' });
  for (let i = 0; i < n; i++) await makeJob(w, { name: `Batch ${n} ${i}` });
  const claimed = await recordAndClaim(t.database, [], claimOf(n));
  expect(claimed).toHaveLength(n);
  return { w, claimed };
}

const succeeded = (claimed: Awaited<ReturnType<typeof leased>>['claimed']): AttemptOutcome[] =>
  claimed.map((c, i) => ({
    claimed: c,
    result: { deliveryUuid: crypto.randomUUID(), ok: true, status: 200, error: null, durationMs: 3 + i },
    signedAt: Date.now(),
    finishedAt: Date.now(),
  }));

async function stateOf(firmId: number) {
  const { db } = t.database;
  const deliveries = await db
    .selectFrom('webhook_deliveries')
    .select(['id', 'status', 'attempts', 'lease_token'])
    .where('firm_id', '=', firmId)
    .orderBy('id')
    .execute();
  const attempts = await db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .select(['a.delivery_id', 'a.number', 'a.duration_ms'])
    .where('d.firm_id', '=', firmId)
    .orderBy('a.delivery_id')
    .execute();
  return { deliveries, attempts };
}

describe('recording a batch of outcomes', () => {
  for (const n of [3, 5]) {
    for (const withClaim of [false, true]) {
      it(`${n} outcomes, ${withClaim ? 'with a claim' : 'alone'}: ${n} deliveries succeeded, ${n} attempt rows`, async () => {
        const { w, claimed } = await leased(n);
        const again = await recordAndClaim(t.database, succeeded(claimed), withClaim ? claimOf(8) : null);
        expect(again).toEqual([]);

        const { deliveries, attempts } = await stateOf(w.firmId);
        expect(deliveries.map((d) => [d.status, Number(d.attempts), d.lease_token])).toEqual(
          Array(n).fill(['succeeded', 1, null]),
        );
        expect(attempts.map((a) => [Number(a.delivery_id), Number(a.number), Number(a.duration_ms)])).toEqual(
          claimed.map((c, i) => [c.id, 1, 3 + i]),
        );
      });
    }
  }
});
