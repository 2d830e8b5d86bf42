// The crew-day lock rule as a property (document 2, Holds: a held or locked crew day is 409): no
// sequence of hold, move, work, approve, convert and publish calls, made through the API without
// an owner's override, ever leaves two holds, or a hold and locked (published) work, on one crew
// day. Each run drives a fresh workspace with two crews over one week and checks every crew day
// after every call, whatever each call answered.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { scheduleJob, scheduleWorkspace } from '#test/helpers/scenarios/operations.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const DAYS = ['2027-03-01', '2027-03-02', '2027-03-03'];
const day = fc.integer({ min: 0, max: DAYS.length - 1 });
const crew = fc.integer({ min: 0, max: 1 });
const pick = fc.nat();
const span = fc.constantFrom(1, 1.5, 2);

const command = fc.oneof(
  fc.record({ op: fc.constant('hold' as const), crew, day, span }),
  fc.record({ op: fc.constant('work' as const), crew, day, span }),
  fc.record({ op: fc.constant('moveHold' as const), pick, day, crew }),
  fc.record({ op: fc.constant('moveWork' as const), pick, day }),
  fc.record({ op: fc.constant('requestMove' as const), pick, day }),
  fc.record({ op: fc.constant('convert' as const), pick }),
  fc.record({ op: fc.constant('publish' as const) }),
);

/** Crew days breaking the rule: two holds, or a hold and locked work. */
async function violations(firmId: number): Promise<string[]> {
  const rows = await t.database.db
    .selectFrom('work_order_days')
    .select(['crew_id', 'date', 'is_hold', 'locks'])
    .where('firm_id', '=', firmId)
    .where('crew_id', 'is not', null)
    .execute();
  const byDay = new Map<string, { holds: number; lockedWork: number }>();
  for (const r of rows) {
    const key = `${r.crew_id} ${r.date}`;
    const d = byDay.get(key) ?? { holds: 0, lockedWork: 0 };
    if (r.is_hold === 1) d.holds++;
    else if (r.locks === 1) d.lockedWork++;
    byDay.set(key, d);
  }
  return [...byDay].filter(([, d]) => d.holds > 1 || (d.holds === 1 && d.lockedWork > 0)).map(([k]) => k);
}

it('no sequence of calls without an override puts two holds, or a hold and locked work, on a crew day', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(command, { minLength: 2, maxLength: 12 }), async (commands) => {
      const w = await scheduleWorkspace(t);
      const job = await scheduleJob(w);
      const crews = [
        (await ok(w.api.post('/v1/crews', { name: 'A' }))).data.id,
        (await ok(w.api.post('/v1/crews', { name: 'B' }))).data.id,
      ];
      const holds: number[] = [];
      const work: number[] = [];
      for (const c of commands) {
        const at = (list: number[], i: number) => list[i % list.length];
        let res: { status: number } | undefined;
        if (c.op === 'hold') {
          res = await w.api.post('/v1/schedule/holds', {
            job_id: job.id,
            crew_id: crews[c.crew],
            scheduled_date: DAYS[c.day]!,
            estimated_days: c.span,
          });
          if (res.status === 201) holds.push((res as any).body.data.id);
        } else if (c.op === 'work') {
          res = await w.api.post('/v1/work-orders', {
            job_id: job.id,
            title: 'Work',
            crew_id: crews[c.crew],
            scheduled_date: DAYS[c.day]!,
            estimated_days: c.span,
          });
          if (res.status === 201) work.push((res as any).body.data.id);
        } else if (c.op === 'moveHold' && holds.length > 0) {
          res = await w.api.patch(`/v1/schedule/holds/${at(holds, c.pick)}`, {
            scheduled_date: DAYS[c.day]!,
            crew_id: crews[c.crew],
          });
        } else if (c.op === 'moveWork' && work.length > 0) {
          res = await w.api.patch(`/v1/work-orders/${at(work, c.pick)}`, { scheduled_date: DAYS[c.day]! });
        } else if (c.op === 'requestMove' && work.length > 0) {
          const asked = await w.api.post('/v1/schedule/date-requests', {
            kind: 'move',
            work_order_id: at(work, c.pick)!,
            requested_date: DAYS[c.day]!,
          });
          if (asked.status === 201) res = await w.api.post(`/v1/schedule/date-requests/${asked.body.data.id}/approve`);
        } else if (c.op === 'convert' && holds.length > 0) {
          const id = at(holds, c.pick)!;
          res = await w.api.post(`/v1/schedule/holds/${id}/convert`);
          if (res.status === 200) {
            holds.splice(holds.indexOf(id), 1);
            work.push(id);
          }
        } else if (c.op === 'publish') {
          res = await w.api.post('/v1/schedule/publish', { start_date: DAYS[0]!, end_date: '2027-03-07' });
        }
        // Every answer is a success or the rule's refusal, never a server error.
        if (res) expect([200, 201, 400, 409]).toContain(res.status);
        expect(await violations(w.firmId)).toEqual([]);
      }
    }),
    { numRuns: 25 },
  );
}, 240_000);
