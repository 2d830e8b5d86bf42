// Daily logs over HTTP (document 2, Daily logs and reports; the Daily log state table;
// docs/api-decisions.md, "Operations: daily logs and reports"): the office's notes, every row of the
// state table, the day's time approved for payroll, the 409s, office users only, concurrency.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock } from '#platform/time.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { ok, Z_SECONDS } from '#test/helpers/records.ts';
import {
  approvals,
  crewDay,
  DAY,
  fileReport,
  PAYROLL_SIGNOFF,
  SIGNOFF,
  submitDay,
  timeEntry,
  workOrderOn,
} from './kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

describe('POST /v1/daily-logs, GET /v1/daily-logs and /v1/daily-logs/{id}', () => {
  it("makes the day's log on first write, replaces its notes after, and reads it with its reports", async () => {
    const { w, foreman, workOrder, job } = await crewDay(t);
    const first = await w.api.post('/v1/daily-logs', { work_order_id: workOrder.id, date: DAY, notes: 'Rain at 2' });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({
      id: expect.any(Number),
      work_order_id: workOrder.id,
      job_id: job.id,
      date: DAY,
      status: 'draft',
      notes: 'Rain at 2',
      submitted_at: null,
      submitted_by: null,
      office_approved_at: null,
      office_approved_by: null,
      payroll_approved_at: null,
      payroll_approved_by: null,
      returned_at: null,
      return_note: null,
      daily_reports: [],
      created_at: expect.stringMatching(Z_SECONDS),
      updated_at: expect.stringMatching(Z_SECONDS),
    });
    const report = await fileReport(foreman.api, workOrder.id);
    const again = await ok(
      w.api.post('/v1/daily-logs', { work_order_id: workOrder.id, date: DAY, notes: 'Dry all day' }),
    );
    expect(again.data).toMatchObject({ id: first.body.data.id, notes: 'Dry all day', daily_reports: [report] });
    const read = await ok(w.api.get(`/v1/daily-logs/${first.body.data.id}`));
    expect(read.data).toEqual(again.data);
    const list = await ok(w.api.get('/v1/daily-logs'));
    expect(list.pagination).toEqual({ total: 1, limit: 50, offset: 0 });
    const { daily_reports: _reports, ...listed } = again.data;
    expect(list.data).toEqual([listed]);
  });

  it('needs an office user: a crew login is refused (403), and the log is unchanged', async () => {
    const { w, foreman, workOrder } = await crewDay(t);
    const res = await foreman.api.post('/v1/daily-logs', { work_order_id: workOrder.id, date: DAY, notes: 'Mine' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'Office user required', code: 'office_user_required' });
    expect((await ok(w.api.get('/v1/daily-logs'))).data).toEqual([]);
  });

  it('an unknown or foreign work order is 404; missing fields and bad dates are 400', async () => {
    const { w } = await crewDay(t);
    const other = await crewDay(t);
    for (const id of [other.workOrder.id, 999999]) {
      const res = await w.api.post('/v1/daily-logs', { work_order_id: id, date: DAY, notes: 'x' });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Work order not found');
    }
    const missing = await w.api.raw.post('/v1/daily-logs', { work_order_id: other.workOrder.id, date: DAY });
    expect(missing.status).toBe(400);
    const bad = await w.api.raw.post('/v1/daily-logs', { work_order_id: 1, date: '2026-02-30', notes: 'x' });
    expect(bad.status).toBe(400);
    const foreignRead = await w.api.get('/v1/daily-logs/999999');
    expect(foreignRead.status).toBe(404);
    expect(foreignRead.body.error).toBe('Daily log not found');
  });

  it('lists newest day first with its filters; updated_after lists oldest updated first', async () => {
    const { w, job, workOrder, crew } = await crewDay(t, SIGNOFF);
    const second = await workOrderOn(w, job.id, crew.id, '2026-03-11');
    const save = async (id: number, date: string) =>
      (await ok(w.api.post('/v1/daily-logs', { work_order_id: id, date, notes: `${id} ${date}` }))).data.id;
    const a = await save(workOrder.id, '2026-03-09');
    const b = await save(second.id, '2026-03-11');
    const c = await save(workOrder.id, '2026-03-10');
    const ids = async (query: string) =>
      (await ok(w.api.get(`/v1/daily-logs${query}`))).data.map((l: { id: number }) => l.id);
    expect(await ids('')).toEqual([b, c, a]);
    expect(await ids('?start_date=2026-03-10')).toEqual([b, c]);
    expect(await ids('?end_date=2026-03-10')).toEqual([c, a]);
    expect(await ids(`?work_order_id=${second.id}`)).toEqual([b]);
    expect(await ids(`?job_id=${job.id}&limit=1&offset=1`)).toEqual([c]);
    expect(await ids('?status=submitted')).toEqual([]);
    // Touching the oldest day's notes makes it the latest change (a second later: the running
    // second is held back from updated_after pages).
    advanceClock(1100);
    await ok(w.api.post('/v1/daily-logs', { work_order_id: workOrder.id, date: '2026-03-09', notes: 'again' }));
    advanceClock(1100);
    expect(await ids('?updated_after=2000-01-01T00:00:00Z')).toEqual([b, c, a]);
    const bad = await w.api.get('/v1/daily-logs?updated_after=yesterday');
    expect(bad.status).toBe(400);
  });
});

describe('the Daily log state table', () => {
  it('submitted → office_approved approves the day’s time entries (local day in the workspace zone, not voided)', async () => {
    const { w, foreman, workOrder, job, crew } = await crewDay(t, SIGNOFF, { timezone: 'America/Chicago' });
    const other = await workOrderOn(w, job.id, crew.id);
    // 2026-03-10 in Chicago (CDT, UTC-5) runs from 05:00 UTC on the 10th to 05:00 UTC on the 11th.
    const morning = await timeEntry(t, w, workOrder, foreman.id, '2026-03-10T13:00:00.000000');
    const lateEvening = await timeEntry(t, w, workOrder, foreman.id, '2026-03-11T04:30:00.000000');
    const dayBefore = await timeEntry(t, w, workOrder, foreman.id, '2026-03-10T04:30:00.000000');
    const voided = await timeEntry(t, w, workOrder, foreman.id, '2026-03-10T15:00:00.000000', {
      voided_at: '2026-03-10T20:00:00.000000',
    });
    const otherWork = await timeEntry(t, w, other, foreman.id, '2026-03-10T13:00:00.000000');
    const submitted = await submitDay(foreman.api, workOrder.id);
    expect(submitted).toMatchObject({ status: 'submitted', submitted_by: { id: foreman.id } });
    expect(submitted.submitted_at).toMatch(Z_SECONDS);
    const approved = await ok(w.api.post(`/v1/daily-logs/${submitted.id}/approve`));
    expect(approved.data).toMatchObject({
      status: 'office_approved',
      office_approved_by: { id: w.ownerId, name: expect.any(String) },
      payroll_approved_at: null,
    });
    expect(approved.data.office_approved_at).toMatch(Z_SECONDS);
    expect(await approvals(t, [morning, lateEvening, dayBefore, voided, otherWork])).toEqual({
      [morning]: w.ownerId,
      [lateEvening]: w.ownerId,
      [dayBefore]: null,
      [voided]: null,
      [otherWork]: null,
    });
  });

  it('office_approved → payroll_approved needs payroll_signoff (409 otherwise) and a payroll approver (403 otherwise)', async () => {
    const off = await crewDay(t, SIGNOFF);
    const log = await submitDay(off.foreman.api, off.workOrder.id);
    await ok(off.w.api.post(`/v1/daily-logs/${log.id}/approve`));
    const noPayroll = await off.w.api.post(`/v1/daily-logs/${log.id}/approve`);
    expect(noPayroll.status).toBe(409);
    expect(noPayroll.body.code).toBe('invalid_transition');

    const { w, foreman, workOrder } = await crewDay(t, PAYROLL_SIGNOFF);
    const office = await t.user(w.firmId, { name: 'Olive Office', role: 'member' });
    const payroll = await t.user(w.firmId, { name: 'Pat Payroll', role: 'member', payroll_approver: true });
    const day = await submitDay(foreman.api, workOrder.id);
    expect((await ok(office.api.post(`/v1/daily-logs/${day.id}/approve`))).data.status).toBe('office_approved');
    const notPayroll = await office.api.post(`/v1/daily-logs/${day.id}/approve`);
    expect(notPayroll.status).toBe(403);
    expect(notPayroll.body).toMatchObject({ error: 'Payroll approver required', code: 'payroll_approver_required' });
    const signed = await ok(payroll.api.post(`/v1/daily-logs/${day.id}/approve`));
    expect(signed.data).toMatchObject({
      status: 'payroll_approved',
      office_approved_by: { id: office.id, name: 'Olive Office' },
      payroll_approved_by: { id: payroll.id, name: 'Pat Payroll' },
    });
    expect(signed.data.payroll_approved_at).toMatch(Z_SECONDS);
  });

  it('submitted or office_approved → draft by send-back with a note; the day’s time loses its approval', async () => {
    const { w, foreman, workOrder } = await crewDay(t, SIGNOFF);
    const entry = await timeEntry(t, w, workOrder, foreman.id, '2026-03-10T13:00:00.000000');
    const day = await submitDay(foreman.api, workOrder.id);
    const back = await ok(w.api.post(`/v1/daily-logs/${day.id}/send-back`, { note: 'Add the delay' }));
    expect(back.data).toMatchObject({ status: 'draft', return_note: 'Add the delay' });
    expect(back.data.returned_at).toMatch(Z_SECONDS);
    await submitDay(foreman.api, workOrder.id);
    await ok(w.api.post(`/v1/daily-logs/${day.id}/approve`));
    expect(await approvals(t, [entry])).toEqual({ [entry]: w.ownerId });
    const again = await ok(w.api.post(`/v1/daily-logs/${day.id}/send-back`, { note: 'Hours are wrong' }));
    expect(again.data).toMatchObject({
      status: 'draft',
      return_note: 'Hours are wrong',
      office_approved_at: null,
      office_approved_by: null,
    });
    expect(await approvals(t, [entry])).toEqual({ [entry]: null });
    const noNote = await w.api.raw.post(`/v1/daily-logs/${day.id}/send-back`, {});
    expect(noNote.status).toBe(400);
  });

  it('a payroll-approved day: only a payroll approver sends it back; every other change is 409', async () => {
    const { w, foreman, workOrder } = await crewDay(t, PAYROLL_SIGNOFF);
    const office = await t.user(w.firmId, { name: 'Olive Office', role: 'member' });
    const day = await submitDay(foreman.api, workOrder.id);
    await ok(w.api.post(`/v1/daily-logs/${day.id}/approve`));
    await ok(w.api.post(`/v1/daily-logs/${day.id}/approve`));
    const refusals = [
      await office.api.post(`/v1/daily-logs/${day.id}/send-back`, { note: 'Fix it' }),
      await w.api.post(`/v1/daily-logs/${day.id}/approve`),
      await w.api.post('/v1/daily-logs', { work_order_id: workOrder.id, date: DAY, notes: 'Changed' }),
      await foreman.api.post('/v1/crew/daily-reports', { work_order_id: workOrder.id, date: DAY, weather: 'Sun' }),
      await foreman.api.post('/v1/crew/daily-logs/submit', { work_order_id: workOrder.id, date: DAY }),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: 'Day approved by payroll', code: 'day_payroll_approved' });
    }
    const read = await ok(w.api.get(`/v1/daily-logs/${day.id}`));
    expect(read.data).toMatchObject({ status: 'payroll_approved', notes: null, daily_reports: [] });
    const back = await ok(w.api.post(`/v1/daily-logs/${day.id}/send-back`, { note: 'Wrong rate' }));
    expect(back.data).toMatchObject({ status: 'draft', payroll_approved_at: null, payroll_approved_by: null });
  });

  it('approve on a draft and send-back of a draft are 409 invalid_transition', async () => {
    const { w, workOrder } = await crewDay(t, SIGNOFF);
    const log = (await ok(w.api.post('/v1/daily-logs', { work_order_id: workOrder.id, date: DAY, notes: 'n' }))).data;
    const approve = await w.api.post(`/v1/daily-logs/${log.id}/approve`);
    expect(approve.status).toBe(409);
    expect(approve.body).toMatchObject({ error: 'Daily log not submitted', code: 'invalid_transition' });
    const back = await w.api.post(`/v1/daily-logs/${log.id}/send-back`, { note: 'x' });
    expect(back.status).toBe(409);
    expect(back.body).toMatchObject({ error: 'Daily log is a draft', code: 'invalid_transition' });
  });

  it('a workspace without sign-off: approve, send-back and submit are 409', async () => {
    const { w, foreman, workOrder } = await crewDay(t);
    const log = (await ok(w.api.post('/v1/daily-logs', { work_order_id: workOrder.id, date: DAY, notes: 'n' }))).data;
    for (const res of [
      await w.api.post(`/v1/daily-logs/${log.id}/approve`),
      await w.api.post(`/v1/daily-logs/${log.id}/send-back`, { note: 'x' }),
      await foreman.api.post('/v1/crew/daily-logs/submit', { work_order_id: workOrder.id, date: DAY }),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: 'Workspace without sign-off', code: 'signoff_not_used' });
    }
    expect((await ok(w.api.get(`/v1/daily-logs/${log.id}`))).data.status).toBe('draft');
  });

  it('a crew login may not approve or send back (403 office user required)', async () => {
    const { foreman, workOrder } = await crewDay(t, SIGNOFF);
    const day = await submitDay(foreman.api, workOrder.id);
    for (const res of [
      await foreman.api.post(`/v1/daily-logs/${day.id}/approve`),
      await foreman.api.post(`/v1/daily-logs/${day.id}/send-back`, { note: 'x' }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('office_user_required');
    }
  });

  it('parallel approvals of one submitted day: exactly one moves it, the others are 409', async () => {
    // Without a payroll sign-off, so a call after the winner has nothing left to approve either.
    const { w, foreman, workOrder } = await crewDay(t, SIGNOFF);
    const day = await submitDay(foreman.api, workOrder.id);
    const answers = await Promise.all(Array.from({ length: 6 }, () => w.api.post(`/v1/daily-logs/${day.id}/approve`)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
    expect((await ok(w.api.get(`/v1/daily-logs/${day.id}`))).data.status).toBe('office_approved');
  });
});
