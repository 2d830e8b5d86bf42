// Re-bids over HTTP (docs/decisions/operations-rebids.md): cycles, history, the list coming due by
// the clock, every action and its errors, sees-own-jobs users, and site merges moving history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { account, job, ok, site, Z_SECONDS } from '#test/helpers/records.ts';
import { advanceClock, pauseClock, resumeClock } from '#platform/time.ts';
import { todayIn } from '#platform/time-zone.ts';
import { addDaysTo, addYears } from '#src/modules/operations/rebids/rules.ts';
import { completedWorkOrder } from './fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

async function todayOf(w: Workspace): Promise<string> {
  const firm = await t.database.db
    .selectFrom('firms')
    .select('timezone')
    .where('id', '=', w.firmId)
    .executeTakeFirstOrThrow();
  return todayIn(firm.timezone);
}

async function cycleId(w: Workspace, service: string): Promise<number> {
  const cycles = (await ok(w.api.get('/v1/rebid-cycles'))).data;
  return cycles.find((c) => c.service === service)!.id;
}

let serial = 0;
/** A customer's site with a job there, and work of `service` done on `doneOn`. */
async function siteWithWork(w: Workspace, service: string, doneOn: string, opts: { company?: boolean } = {}) {
  const n = ++serial;
  const customer = opts.company === false ? null : await account(w.api, `Customer ${n}`);
  const s = await site(w.api, {
    address: `${n} Oak Ave, Springfield`,
    name: `Lot ${n}`,
    ...(customer ? { client_account_id: customer.id } : {}),
  });
  const cycle = await cycleId(w, service);
  const record = (
    await ok(w.api.post('/v1/rebids/history', { location_id: s.id, cycle_id: cycle, done_on: doneOn, amount: 1250.5 }))
  ).data;
  return { site: s, customer, cycle, record, pair: { key: `loc:${s.id}`, cycle_id: cycle } };
}

describe('GET /v1/rebid-cycles and PATCH /v1/rebid-cycles/{id}', () => {
  it('a new workspace starts with the usual cycles, A to Z', async () => {
    const w = await t.workspace();
    const list = await ok(w.api.get('/v1/rebid-cycles'));
    expect(list.data.map((c) => [c.service, c.every_years])).toEqual([
      ['Asphalt repair', 3],
      ['Crack sealing', 1],
      ['Sealcoating', 2],
      ['Striping', 1],
    ]);
    expect(list.data[0]).toEqual({
      id: expect.any(Number),
      service: 'Asphalt repair',
      every_years: 3,
      created_at: expect.stringMatching(Z_SECONDS),
      updated_at: expect.stringMatching(Z_SECONDS),
    });
  });

  it("PATCH changes every_years (office users); another workspace's cycle is 404; bad bodies 400", async () => {
    const w = await t.workspace();
    const id = await cycleId(w, 'Sealcoating');
    const changed = (await ok(w.api.patch(`/v1/rebid-cycles/${id}`, { every_years: 3 }))).data;
    expect(changed).toMatchObject({ id, service: 'Sealcoating', every_years: 3 });
    const other = await t.workspace();
    expect((await other.api.patch(`/v1/rebid-cycles/${id}`, { every_years: 1 })).status).toBe(404);
    const extra = await w.api.raw.patch(`/v1/rebid-cycles/${id}`, { every_years: 2, service: 'X' });
    expect(extra.status).toBe(400);
    expect(JSON.stringify(extra.body)).toContain('service');
    expect((await w.api.raw.patch(`/v1/rebid-cycles/${id}`, { every_years: 0 })).status).toBe(400);
    const crew = await t.user(w.firmId, { name: 'Crew Cy', email: 'cy@rebid.test', role: 'crew' });
    expect((await crew.api.patch(`/v1/rebid-cycles/${id}`, { every_years: 1 })).status).toBe(403);
  });
});

describe('POST /v1/rebids/history and DELETE /v1/rebids/history/{record_id}', () => {
  it('records hand-added work with cycle_id, or with new_service (adding a cycle, default every 2 years)', async () => {
    const w = await t.workspace();
    const today = await todayOf(w);
    const s = await site(w.api, { address: '9 Elm St, Springfield', name: 'Elm lot' });
    const cycle = await cycleId(w, 'Striping');
    const res = await w.api.post('/v1/rebids/history', {
      location_id: s.id,
      cycle_id: cycle,
      done_on: today,
      amount: 99.99,
      note: ' Restriped ',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      location_id: s.id,
      cycle_id: cycle,
      service: 'Striping',
      done_on: today,
      amount: 99.99,
      note: 'Restriped',
      source: 'manual',
      work_order_id: null,
      created_at: expect.stringMatching(Z_SECONDS),
    });
    const fresh = (
      await ok(w.api.post('/v1/rebids/history', { location_id: s.id, new_service: ' Power  washing ', done_on: today }))
    ).data;
    const cycles = (await ok(w.api.get('/v1/rebid-cycles'))).data;
    expect(cycles.find((c) => c.id === fresh.cycle_id)).toMatchObject({ service: 'Power washing', every_years: 2 });
    // The same service again (any case) uses that cycle; new_service_every_years sets a new one's years.
    const again = (
      await ok(w.api.post('/v1/rebids/history', { location_id: s.id, new_service: 'POWER WASHING', done_on: today }))
    ).data;
    expect(again.cycle_id).toBe(fresh.cycle_id);
    const mulch = (
      await ok(
        w.api.post('/v1/rebids/history', {
          location_id: s.id,
          new_service: 'Mulch',
          new_service_every_years: 1,
          done_on: today,
        }),
      )
    ).data;
    expect((await ok(w.api.get('/v1/rebid-cycles'))).data.find((c) => c.id === mulch.cycle_id)?.every_years).toBe(1);
    expect((await ok(w.api.get('/v1/rebid-cycles'))).data).toHaveLength(6);
  });

  it('400s: both or neither of cycle_id and new_service, a future or missing done_on, an unknown field', async () => {
    const w = await t.workspace();
    const today = await todayOf(w);
    const s = await site(w.api, { address: '10 Elm St, Springfield' });
    const cycle = await cycleId(w, 'Striping');
    const both = await w.api.raw.post('/v1/rebids/history', {
      location_id: s.id,
      cycle_id: cycle,
      new_service: 'X',
      done_on: today,
    });
    expect(both.status).toBe(400);
    expect(both.body.field).toBe('new_service');
    const neither = await w.api.raw.post('/v1/rebids/history', { location_id: s.id, done_on: today });
    expect(neither.status).toBe(400);
    const future = await w.api.raw.post('/v1/rebids/history', {
      location_id: s.id,
      cycle_id: cycle,
      done_on: addDaysTo(today, 2),
    });
    expect(future.status).toBe(400);
    expect(future.body.field).toBe('done_on');
    expect((await w.api.raw.post('/v1/rebids/history', { location_id: s.id, cycle_id: cycle })).status).toBe(400);
    const unknown = await w.api.raw.post('/v1/rebids/history', {
      location_id: s.id,
      cycle_id: cycle,
      done_on: today,
      job_id: 1,
    });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('job_id');
    const years = await w.api.raw.post('/v1/rebids/history', {
      location_id: s.id,
      cycle_id: cycle,
      done_on: today,
      new_service_every_years: 3,
    });
    expect(years.status).toBe(400);
    // Another workspace's site and cycle are 404.
    const other = await t.workspace();
    expect(
      (await other.api.post('/v1/rebids/history', { location_id: s.id, new_service: 'X', done_on: today })).status,
    ).toBe(404);
    const os = await site(other.api, { address: '1 Other Rd' });
    expect(
      (await other.api.post('/v1/rebids/history', { location_id: os.id, cycle_id: cycle, done_on: today })).status,
    ).toBe(404);
  });

  it('DELETE removes hand-added work (204); work from a work order is 409; unknown ids 404', async () => {
    const w = await t.workspace();
    const today = await todayOf(w);
    const { record, site: s, cycle } = await siteWithWork(w, 'Sealcoating', today);
    expect((await w.api.delete(`/v1/rebids/history/${record.id}`)).status).toBe(204);
    expect((await w.api.delete(`/v1/rebids/history/${record.id}`)).status).toBe(404);
    // A record written from a completed work order (as recordCompletedWork writes it).
    const j = await job(w.api, { name: 'Seal job', address: s.address });
    const at = '2026-01-01T00:00:00.000000';
    const wo = await completedWorkOrder(t, w.firmId, j.id, { title: 'Sealcoating', completedAt: at });
    const fromJob = await t.database.db
      .insertInto('rebid_history')
      .values({
        firm_id: w.firmId,
        location_id: s.id,
        cycle_id: cycle,
        done_on: today,
        source: 'work_order',
        work_order_id: wo.id,
        created_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await w.api.delete(`/v1/rebids/history/${fromJob.id}`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'Work from a job cannot be removed', code: 'work_from_job' });
    const other = await t.workspace();
    expect((await other.api.delete(`/v1/rebids/history/${fromJob.id}`)).status).toBe(404);
  });
});

describe('GET /v1/rebids', () => {
  it('a re-bid comes due by the clock: upcoming, then due within 90 days, then overdue', async () => {
    const w = await t.workspace();
    pauseClock();
    try {
      const today = await todayOf(w);
      // Sealcoating every 2 years, done so it falls due in 100 days.
      const doneOn = addDaysTo(addYears(today, -2), 100);
      const { pair, site: s, customer } = await siteWithWork(w, 'Sealcoating', doneOn);
      expect((await ok(w.api.get('/v1/rebids'))).data).toEqual([]);
      const all = (await ok(w.api.get('/v1/rebids?status=all'))).data;
      expect(all).toEqual([
        {
          ...pair,
          location_id: s.id,
          location: { id: s.id, name: s.name, address: s.address },
          client_account_id: customer!.id,
          service: 'Sealcoating',
          every_years: 2,
          last_done_on: doneOn,
          last_amount: 1250.5,
          due_on: addYears(doneOn, 2),
          status: 'upcoming',
          snooze_until: null,
          not_doing_reason: null,
          not_doing_note: null,
          rebid_job_id: null,
        },
      ]);
      // A wider window lists it already.
      expect((await ok(w.api.get('/v1/rebids?due_within_days=120'))).data.map((r) => r.key)).toEqual([pair.key]);
      advanceClock(15 * 86_400_000);
      const due = (await ok(w.api.get('/v1/rebids'))).data;
      expect(due.map((r) => [r.key, r.status])).toEqual([[pair.key, 'due']]);
      advanceClock(200 * 86_400_000);
      expect((await ok(w.api.get('/v1/rebids'))).data.map((r) => r.status)).toEqual(['due']);
      // Newer work starts the round afresh: due again two years on.
      const later = await todayOf(w);
      await ok(w.api.post('/v1/rebids/history', { location_id: s.id, cycle_id: pair.cycle_id, done_on: later }));
      expect((await ok(w.api.get('/v1/rebids'))).data).toEqual([]);
      expect((await ok(w.api.get('/v1/rebids?status=all'))).data.map((r) => [r.last_done_on, r.due_on])).toEqual([
        [later, addYears(later, 2)],
      ]);
    } finally {
      resumeClock();
    }
  });

  it('lists soonest due first, filters by location_id and pages; bad queries are 400', async () => {
    const w = await t.workspace();
    const today = await todayOf(w);
    const a = await siteWithWork(w, 'Striping', addDaysTo(today, -400)); // a year on: overdue by 35 days
    const b = await siteWithWork(w, 'Striping', addDaysTo(today, -300)); // due in 65 days
    await siteWithWork(w, 'Sealcoating', today); // two years out
    const list = await ok(w.api.get('/v1/rebids'));
    expect(list.data.map((r) => r.key)).toEqual([a.pair.key, b.pair.key]);
    expect(list.pagination).toEqual({ total: 2, limit: 50, offset: 0 });
    const page = await ok(w.api.get('/v1/rebids?limit=1&offset=1'));
    expect(page.data.map((r) => r.key)).toEqual([b.pair.key]);
    expect(page.pagination).toEqual({ total: 2, limit: 1, offset: 1 });
    expect((await ok(w.api.get(`/v1/rebids?location_id=${b.site.id}`))).data.map((r) => r.key)).toEqual([b.pair.key]);
    expect((await ok(w.api.get('/v1/rebids?status=all'))).pagination.total).toBe(3);
    expect((await w.api.raw.get('/v1/rebids?status=open')).status).toBe(400);
    expect((await w.api.raw.get('/v1/rebids?due_within_days=-1')).status).toBe(400);
    expect((await w.api.raw.get('/v1/rebids?color=red')).status).toBe(400);
  });
});

describe('re-bid actions', () => {
  it('snooze hides it until a date; not-doing takes it off; reset undoes both', async () => {
    const w = await t.workspace();
    const today = await todayOf(w);
    const { pair } = await siteWithWork(w, 'Striping', addDaysTo(today, -380));
    const until = addDaysTo(today, 30);
    const snoozed = (await ok(w.api.post('/v1/rebids/snooze', { ...pair, until }))).data;
    expect(snoozed).toMatchObject({ ...pair, status: 'snoozed', snooze_until: until });
    expect((await ok(w.api.get('/v1/rebids'))).data).toEqual([]);
    expect((await ok(w.api.get('/v1/rebids?status=snoozed'))).data.map((r) => r.key)).toEqual([pair.key]);
    const notDoing = (
      await ok(w.api.post('/v1/rebids/not-doing', { ...pair, reason: 'competitor', note: 'Went with Ace' }))
    ).data;
    expect(notDoing).toMatchObject({
      status: 'not_doing',
      snooze_until: null,
      not_doing_reason: 'competitor',
      not_doing_note: 'Went with Ace',
    });
    expect((await ok(w.api.get('/v1/rebids?status=not_doing'))).data.map((r) => r.key)).toEqual([pair.key]);
    expect((await ok(w.api.get('/v1/rebids?status=snoozed'))).data).toEqual([]);
    const reset = (await ok(w.api.post('/v1/rebids/reset', pair))).data;
    expect(reset).toMatchObject({ status: 'due', snooze_until: null, not_doing_reason: null, not_doing_note: null });
    expect((await ok(w.api.get('/v1/rebids'))).data.map((r) => r.key)).toEqual([pair.key]);
  });

  it('snooze: until after today and at most two years out; not-doing: a known reason, other needs a note', async () => {
    const w = await t.workspace();
    const today = await todayOf(w);
    const { pair } = await siteWithWork(w, 'Striping', addDaysTo(today, -380));
    for (const until of [today, addDaysTo(today, -1), addDaysTo(addYears(today, 2), 1)]) {
      const res = await w.api.post('/v1/rebids/snooze', { ...pair, until });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('until');
    }
    expect((await ok(w.api.post('/v1/rebids/snooze', { ...pair, until: addYears(today, 2) }))).data.status).toBe(
      'snoozed',
    );
    const other = await w.api.post('/v1/rebids/not-doing', { ...pair, reason: 'other', note: '  ' });
    expect(other.status).toBe(400);
    expect(other.body.field).toBe('note');
    expect((await w.api.raw.post('/v1/rebids/not-doing', { ...pair, reason: 'bored' })).status).toBe(400);
    expect(
      (await ok(w.api.post('/v1/rebids/not-doing', { ...pair, reason: 'other', note: 'Lot sold to a school' }))).data
        .not_doing_reason,
    ).toBe('other');
    const extra = await w.api.raw.post('/v1/rebids/reset', { ...pair, until: today });
    expect(extra.status).toBe(400);
    expect(JSON.stringify(extra.body)).toContain('until');
  });

  it('pairs that are not re-bids are 404: no work on record, a bad key, another workspace', async () => {
    const w = await t.workspace();
    const today = await todayOf(w);
    const { pair, site: s } = await siteWithWork(w, 'Striping', addDaysTo(today, -380));
    const sealcoating = await cycleId(w, 'Sealcoating');
    for (const bad of [
      { key: pair.key, cycle_id: sealcoating },
      { key: `${s.address}`, cycle_id: pair.cycle_id },
      { key: 'loc:999999999', cycle_id: pair.cycle_id },
    ]) {
      const res = await w.api.post('/v1/rebids/reset', bad);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: 'Re-bid not found', code: 'not_a_rebid', items: [bad] });
    }
    const other = await t.workspace();
    expect((await other.api.post('/v1/rebids/snooze', { ...pair, until: addDaysTo(today, 3) })).status).toBe(404);
  });

  it("follow-up: a company follow-up on the property's customer; the property needs a company (422)", async () => {
    const w = await t.workspace();
    const today = await todayOf(w);
    const { pair, customer, site: s } = await siteWithWork(w, 'Sealcoating', addDaysTo(today, -700));
    const rep = await t.user(w.firmId, { name: 'Sal Rep', email: 'sal@rebid.test', role: 'member' });
    await ok(
      w.api.post('/v1/jobs', {
        name: 'Old seal job',
        address: s.address,
        client_account_id: customer!.id,
        assigned_to_user_id: rep.id,
      }),
    );
    const due = addDaysTo(today, 7);
    const res = await w.api.post('/v1/rebids/follow-up', { ...pair, due });
    expect(res.status).toBe(201);
    expect(res.body.data.rebid).toMatchObject({ ...pair, status: 'due' });
    expect(res.body.data.task).toMatchObject({
      client_account_id: customer!.id,
      title: `Sealcoating re-bid: ${s.name}`,
      task_type: 'call',
      assigned_to_user_id: rep.id,
    });
    const tasks = (await ok(w.api.get(`/v1/account-tasks?client_account_id=${customer!.id}`))).data;
    expect(tasks.map((x) => x.id)).toEqual([res.body.data.task.id]);
    const own = (
      await ok(
        w.api.post('/v1/rebids/follow-up', {
          ...pair,
          due,
          title: 'Walk the lot',
          task_type: 'site_visit',
          assigned_to_user_id: w.ownerId,
        }),
      )
    ).data.task;
    expect(own).toMatchObject({ title: 'Walk the lot', task_type: 'site_visit', assigned_to_user_id: w.ownerId });
    // No job names a salesperson: the key's user.
    const bare = await siteWithWork(w, 'Striping', addDaysTo(today, -380));
    expect((await ok(w.api.post('/v1/rebids/follow-up', { ...bare.pair, due }))).data.task.assigned_to_user_id).toBe(
      w.ownerId,
    );
    const lone = await siteWithWork(w, 'Striping', addDaysTo(today, -380), { company: false });
    const none = await w.api.post('/v1/rebids/follow-up', { ...lone.pair, due });
    expect(none.status).toBe(422);
    expect(none.body).toMatchObject({ error: 'Property has no company', code: 'company_required' });
    expect((await w.api.raw.post('/v1/rebids/follow-up', pair)).status).toBe(400);
  });

  it('create-jobs: makes each job, returns the existing one after, 201 then 200; non-re-bids fail alone or 404 all', async () => {
    const w = await t.workspace();
    const today = await todayOf(w);
    const a = await siteWithWork(w, 'Sealcoating', addDaysTo(today, -700));
    const b = await siteWithWork(w, 'Striping', addDaysTo(today, -380));
    const stranger = { key: 'loc:999999999', cycle_id: a.cycle };
    const res = await w.api.post('/v1/rebids/create-jobs', { items: [a.pair, stranger, b.pair] });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ created: 2, existing: 0, failed: 1 });
    const [ia, is, ib] = res.body.data.items;
    expect(ia).toEqual({
      ...a.pair,
      result: 'created',
      rebid_job_id: expect.any(Number),
      rebid_job_name: `Sealcoating re-bid: ${a.site.name}`,
      error: null,
    });
    expect(is).toEqual({
      ...stranger,
      result: 'failed',
      rebid_job_id: null,
      rebid_job_name: null,
      error: 'Not a re-bid',
    });
    expect(ib).toMatchObject({ result: 'created', rebid_job_name: `Striping re-bid: ${b.site.name}` });
    const made = (await ok(w.api.get(`/v1/jobs/${ia.rebid_job_id}`))).data;
    expect(made).toMatchObject({
      name: `Sealcoating re-bid: ${a.site.name}`,
      client_account_id: a.customer!.id,
      location_id: a.site.id,
    });
    expect((await ok(w.api.get('/v1/rebids'))).data.find((r) => r.key === a.pair.key)?.rebid_job_id).toBe(
      ia.rebid_job_id,
    );
    const again = await w.api.post('/v1/rebids/create-jobs', { items: [a.pair] });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({
      created: 0,
      existing: 1,
      failed: 0,
      items: [
        {
          ...a.pair,
          result: 'existing',
          rebid_job_id: ia.rebid_job_id,
          rebid_job_name: ia.rebid_job_name,
          error: null,
        },
      ],
    });
    const none = await w.api.post('/v1/rebids/create-jobs', { items: [stranger] });
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ error: 'Re-bid not found', code: 'not_a_rebid', items: [stranger] });
    expect((await w.api.raw.post('/v1/rebids/create-jobs', { items: [] })).status).toBe(400);
    expect((await w.api.raw.post('/v1/rebids/create-jobs', { items: Array(101).fill(a.pair) })).status).toBe(400);
    const extra = await w.api.raw.post('/v1/rebids/create-jobs', { items: [{ ...a.pair, name: 'x' }] });
    expect(extra.status).toBe(400);
  });

  it('create-jobs is 403 when jobs come from a connected system, and makes nothing', async () => {
    const w = await t.workspace();
    const today = await todayOf(w);
    const a = await siteWithWork(w, 'Sealcoating', addDaysTo(today, -700));
    await ok(t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { jobs_from_connected_system: true } }));
    const before = (await ok(w.api.get('/v1/jobs'))).pagination.total;
    const res = await w.api.post('/v1/rebids/create-jobs', { items: [a.pair] });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'Jobs come from a connected system', code: 'jobs_from_connected_system' });
    expect((await ok(w.api.get('/v1/jobs'))).pagination.total).toBe(before);
  });

  it("a user who sees only their own jobs lists and acts on re-bids of their jobs' sites only", async () => {
    const w = await t.workspace();
    const today = await todayOf(w);
    const own = await t.user(w.firmId, {
      role: 'member',
      sees_own_jobs_only: true,
      name: 'Own Olga',
      email: 'olga@rebid.test',
    });
    const mine = await siteWithWork(w, 'Striping', addDaysTo(today, -380));
    const theirs = await siteWithWork(w, 'Striping', addDaysTo(today, -390));
    await ok(w.api.post('/v1/jobs', { name: 'Olga job', address: mine.site.address, assigned_to_user_id: own.id }));
    expect((await ok(own.api.get('/v1/rebids'))).data.map((r) => r.key)).toEqual([mine.pair.key]);
    expect((await ok(w.api.get('/v1/rebids'))).data).toHaveLength(2);
    expect((await own.api.post('/v1/rebids/reset', theirs.pair)).status).toBe(404);
    expect((await own.api.post('/v1/rebids/reset', mine.pair)).status).toBe(200);
    expect(
      (
        await own.api.post('/v1/rebids/history', {
          location_id: theirs.site.id,
          cycle_id: theirs.cycle,
          done_on: today,
        })
      ).status,
    ).toBe(404);
    expect((await own.api.delete(`/v1/rebids/history/${theirs.record.id}`)).status).toBe(404);
    const jobs = await own.api.post('/v1/rebids/create-jobs', { items: [theirs.pair, mine.pair] });
    expect(jobs.status).toBe(201);
    expect(jobs.body.data.items.map((i) => i.result)).toEqual(['failed', 'created']);
  });

  it('a read-only key cannot act (403)', async () => {
    const w = await t.workspace();
    const today = await todayOf(w);
    const { pair, record } = await siteWithWork(w, 'Striping', addDaysTo(today, -380));
    const reader = t.as(await t.key(w.firmId, w.ownerId, ['read_jobs']));
    expect((await reader.get('/v1/rebids')).status).toBe(200);
    expect((await reader.post('/v1/rebids/reset', pair)).status).toBe(403);
    expect((await reader.delete(`/v1/rebids/history/${record.id}`)).status).toBe(403);
  });
});

describe('site merges', () => {
  it("move re-bid history and choices to the kept site; the kept site's own choice wins", async () => {
    const w = await t.workspace();
    const today = await todayOf(w);
    const kept = await siteWithWork(w, 'Striping', addDaysTo(today, -380));
    const away = await siteWithWork(w, 'Striping', addDaysTo(today, -370));
    const awaySeal = (
      await ok(
        w.api.post('/v1/rebids/history', {
          location_id: away.site.id,
          cycle_id: await cycleId(w, 'Sealcoating'),
          done_on: addDaysTo(today, -700),
        }),
      )
    ).data;
    await ok(w.api.post('/v1/rebids/not-doing', { ...kept.pair, reason: 'self' }));
    await ok(w.api.post('/v1/rebids/snooze', { ...away.pair, until: addDaysTo(today, 10) }));
    await ok(
      w.api.post('/v1/rebids/snooze', { key: away.pair.key, cycle_id: awaySeal.cycle_id, until: addDaysTo(today, 20) }),
    );
    const preview = (await ok(w.api.get(`/v1/locations/${away.site.id}/merge-preview?into=${kept.site.id}`))).data;
    expect(JSON.stringify(preview)).toContain('re-bid history');
    await ok(w.api.post(`/v1/locations/${away.site.id}/merge`, { into_location_id: kept.site.id }));
    const all = (await ok(w.api.get('/v1/rebids?status=all'))).data;
    expect(all.map((r) => [r.key, r.service, r.status, r.last_done_on])).toEqual([
      [kept.pair.key, 'Striping', 'due', addDaysTo(today, -370)],
      [kept.pair.key, 'Sealcoating', 'snoozed', addDaysTo(today, -700)],
    ]);
    // The kept site's not-doing was for its older work; the newer (moved) work starts afresh.
    // The old key resolves to the kept site.
    expect((await ok(w.api.post('/v1/rebids/reset', away.pair))).data.key).toBe(kept.pair.key);
  });
});
