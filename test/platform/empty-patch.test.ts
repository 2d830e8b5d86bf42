// An empty PATCH changes nothing (issue 24): document 1 says a PATCH with the same fields gives the
// same result, and `{}` names no field, so every PATCH route of the API answers `{}` with 2xx and
// the record as it was: no new updated_at, no event, no activity-log line, never a 500 (an UPDATE
// with nothing to set). The exceptions are the routes whose field the spec requires (REQUIRED):
// their 400, with nothing changed. The routes come from the OpenAPI document (checked against Fastify's own
// table by v1Routes), and each is called the way its area's walk calls it, on a workspace holding
// every area's records, so a new PATCH route is covered as soon as its walk case exists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { ALL_WALKS } from '#test/helpers/walk/all.ts';
import {
  provision,
  snapshot,
  unsigned,
  v1Routes,
  type CallCase,
  type RouteCase,
  type Side,
} from '#test/helpers/walk/kit.ts';

let t: TestApp;
let side: Side;
let patches: string[];
let reads: Set<string>;
beforeAll(async () => {
  t = await startApp();
  const routes = await v1Routes(t);
  patches = routes.filter((r) => r.method === 'PATCH').map((r) => `${r.method} ${r.path}`);
  reads = new Set(routes.filter((r) => r.method === 'GET').map((r) => r.path));
  side = await provision(t, [...ALL_WALKS], 'E');
}, 120_000);
afterAll(() => t.close());

/**
 * The PATCH routes whose one field the spec requires: `{}` is its 400 naming the field, and nothing
 * changes. Document 2, Custom fields: "custom_fields (required object {key: value}; null clears)".
 */
const REQUIRED: Record<string, string> = {
  'PATCH /v1/jobs/{id}/custom-fields': 'custom_fields is required',
  'PATCH /v1/client-accounts/{id}/custom-fields': 'custom_fields is required',
  'PATCH /v1/contacts/{id}/custom-fields': 'custom_fields is required',
  'PATCH /v1/locations/{id}/custom-fields': 'custom_fields is required',
};

/** Routes whose answer is another record than their path's read: a line's PATCH answers its estimate (document 3). */
const ANSWERS_ANOTHER = new Set(['PATCH /v1/estimates/{id}/line-items/{line_item_id}']);

/** Fields made afresh by each read: a file's one-hour link is on GET /v1/files/{id} only (document 3). */
const PER_READ = new Set(['signed_url', 'signed_url_expires_at']);

/** A read as text, without the fields made afresh by each read (their expiry moves with the clock). */
const comparable = (body: unknown) =>
  JSON.stringify(body, (key, value) => (PER_READ.has(key) ? undefined : (value as unknown)));

/** The walk's case for a route (walk-coverage.test.ts holds every route to having exactly one). */
function caseOf(route: string): CallCase {
  for (const walk of ALL_WALKS) {
    const c = (walk.routes as Record<string, RouteCase>)[route];
    if (c && c.needs !== 'public') return c;
  }
  throw new Error(`no walk case for ${route}`);
}

/** The record of an answer: `data`, or the body itself where the spec answers it unwrapped. */
const recordOf = (body: any): Record<string, unknown> =>
  body && typeof body.data === 'object' && body.data !== null ? body.data : (body ?? {});

/** Rows only the database shows: events (feed and webhook-only) and queued deliveries. */
async function recorded() {
  const db = t.database.db;
  const count = async (table: 'events' | 'webhook_deliveries') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('firm_id', '=', side.w.firmId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { events: await count('events'), deliveries: await count('webhook_deliveries') };
}

describe('PATCH with {} answers the record unchanged', () => {
  it('covers the PATCH routes the API publishes', () => {
    expect(patches.length).toBeGreaterThanOrEqual(35);
  });

  it('every PATCH route: 2xx, the same record, nothing recorded', async () => {
    const wrong: string[] = [];
    // Every PATCH route's record, read where the API reads it at the same path, beside every area's
    // reads. One snapshot serves as the "after" of one PATCH and the "before" of the next: an empty
    // PATCH changes nothing, and a change any of them makes is still caught by the one after it.
    const targets = patches.map((route) => ({
      route,
      path: caseOf(route).path(side.ids),
      readable: reads.has(route.slice('PATCH '.length)),
    }));
    const owns = targets.filter((x) => x.readable).map((x) => x.path);
    let before = await snapshot(t, [...ALL_WALKS], side, owns);
    let rowsBefore = await recorded();
    for (const { route, path, readable } of targets) {
      const res = await side.w.api.patch(path, {});
      const required = REQUIRED[route];
      if (required) {
        if (res.status !== 400 || res.body?.error !== required)
          wrong.push(`${route} -> ${res.status} ${JSON.stringify(res.body)}, expected 400 ${required}`);
      } else if (res.status < 200 || res.status > 299) {
        wrong.push(`${route} -> ${res.status} ${JSON.stringify(res.body)}`);
      } else if (readable && !ANSWERS_ANOTHER.has(route)) {
        // The answer is the record as it was: every field it shares with the read is the same.
        const answer = recordOf(unsigned(res.body));
        const read = recordOf(before[path]);
        for (const k of Object.keys(answer))
          if (k in read && !PER_READ.has(k) && JSON.stringify(answer[k]) !== JSON.stringify(read[k]))
            wrong.push(
              `${route} answered ${k}: ${JSON.stringify(answer[k])}, the record has ${JSON.stringify(read[k])}`,
            );
      }
      // Nothing changed, whatever the answer (a 400 writes nothing either).
      const after = await snapshot(t, [...ALL_WALKS], side, owns);
      for (const p of Object.keys(before))
        if (comparable(after[p]) !== comparable(before[p])) wrong.push(`${route} changed ${p}`);
      const rowsAfter = await recorded();
      if (JSON.stringify(rowsAfter) !== JSON.stringify(rowsBefore))
        wrong.push(`${route} recorded ${JSON.stringify(rowsBefore)} -> ${JSON.stringify(rowsAfter)}`);
      before = after;
      rowsBefore = rowsAfter;
    }
    expect(wrong).toEqual([]);
    // Every PATCH route with the whole workspace read after it: 35–45 s on a loaded 2-core machine,
    // so the limit (there for a hang) leaves room.
  }, 240_000);
});
