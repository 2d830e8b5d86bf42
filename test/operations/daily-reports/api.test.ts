// Daily reports over HTTP (document 2, Daily logs and reports): the list and its filters, one
// report, the send that EMAILS A THIRD PARTY through a real SMTP server on loopback (the message
// parsed with mailparser; a refusal is 502 with nothing recorded), and a job merge moving the
// day's logs and reports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock } from '#platform/time.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { scheduleJob } from '#test/helpers/scenarios/operations.ts';
import { type SmtpPeer, startSmtpPeer } from '#test/helpers/smtp.ts';
import { crewDay, DAY, fileReport, workOrderOn } from '../daily-logs/kit.ts';

let peer: SmtpPeer;
let t: TestApp;
beforeAll(async () => {
  peer = await startSmtpPeer();
  t = await startApp({ mail: peer.transport('office@groundwork.test', 5_000) });
});
afterAll(async () => {
  await t.close();
  await peer.close();
});

const emailed = (id: number) =>
  t.database.db
    .selectFrom('daily_reports')
    .select(['last_emailed_at', 'last_emailed_to'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('GET /v1/daily-reports and /v1/daily-reports/{id}', () => {
  it('lists newest first with its filters, and reads one; another workspace’s report is 404', async () => {
    const { w, foreman, workOrder, job, crew } = await crewDay(t);
    const job2 = await scheduleJob(w);
    const other = await workOrderOn(w, job2.id, crew.id, '2026-03-11');
    const a = await fileReport(foreman.api, workOrder.id, {}, '2026-03-09');
    const b = await fileReport(foreman.api, workOrder.id, {}, '2026-03-10');
    const c = await fileReport(foreman.api, other.id, {}, '2026-03-11');
    const d = await fileReport(foreman.api, workOrder.id, {}, '2026-03-10');
    const ids = async (query: string) =>
      (await ok(w.api.get(`/v1/daily-reports${query}`))).data.map((r: { id: number }) => r.id);
    expect(await ids('')).toEqual([c.id, d.id, b.id, a.id]);
    expect(await ids(`?job_id=${job.id}`)).toEqual([d.id, b.id, a.id]);
    expect(await ids(`?work_order_id=${other.id}`)).toEqual([c.id]);
    expect(await ids('?start_date=2026-03-10&end_date=2026-03-10')).toEqual([d.id, b.id]);
    const page = await ok(w.api.get('/v1/daily-reports?limit=2&offset=1'));
    expect(page.pagination).toEqual({ total: 4, limit: 2, offset: 1 });
    expect(page.data.map((r) => r.id)).toEqual([d.id, b.id]);
    expect((await ok(w.api.get(`/v1/daily-reports/${a.id}`))).data).toEqual(a);
    const stranger = await t.workspace();
    const foreign = await stranger.api.get(`/v1/daily-reports/${a.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('Daily report not found');
    expect((await ok(stranger.api.get('/v1/daily-reports'))).data).toEqual([]);
  });
});

describe('POST /v1/daily-reports/{id}/send', () => {
  it('emails the report to the address (text and escaped HTML) and records the send', async () => {
    const { w, foreman, workOrder } = await crewDay(t);
    const report = await fileReport(foreman.api, workOrder.id, {
      weather: 'Sunny',
      work_performed: 'Sealed <b>north</b> lot & striped',
      completed_quantity: 1200,
      completed_unit: 'SF',
      answers: { 'Site cleaned?': true },
    });
    const before = peer.received.length;
    const res = await w.api.post(`/v1/daily-reports/${report.id}/send`, { to_email: ' gc@builder.example ' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: report, emailed_to: 'gc@builder.example' });
    const [mail] = (await peer.waitFor(before + 1)).slice(before);
    expect(mail!.envelopeTo).toEqual(['gc@builder.example']);
    expect(mail!.parsed.subject).toContain(`daily report for`);
    expect(mail!.parsed.subject).toContain(DAY);
    const text = mail!.parsed.text ?? '';
    expect(text).toContain('Weather: Sunny');
    expect(text).toContain('Work performed: Sealed <b>north</b> lot & striped');
    expect(text).toContain('Completed: 1200 SF');
    expect(text).toContain('Site cleaned?: Yes');
    expect(text).toContain('Work order: Sealcoat the lot');
    const html = String(mail!.parsed.html);
    expect(html).toContain('Sealed &lt;b&gt;north&lt;/b&gt; lot &amp; striped');
    expect(html).not.toContain('<b>north</b>');
    const stored = await emailed(report.id);
    expect(stored.last_emailed_to).toBe('gc@builder.example');
    expect(stored.last_emailed_at).not.toBeNull();
  });

  it('502 and nothing recorded when the mail server refuses the address', async () => {
    const { w, foreman, workOrder } = await crewDay(t);
    const report = await fileReport(foreman.api, workOrder.id);
    peer.refuse.add('bounce@builder.example');
    try {
      const res = await w.api.post(`/v1/daily-reports/${report.id}/send`, { to_email: 'bounce@builder.example' });
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({
        error: 'Email could not be sent',
        code: 'mail_not_delivered',
        retryable: false,
      });
    } finally {
      peer.refuse.delete('bounce@builder.example');
    }
    expect(await emailed(report.id)).toEqual({ last_emailed_at: null, last_emailed_to: null });
  });

  it('a bad address is 400, a crew login 403, another workspace’s report 404 — nothing is sent', async () => {
    const { w, foreman, workOrder } = await crewDay(t);
    const report = await fileReport(foreman.api, workOrder.id);
    const before = peer.received.length;
    const bad = await w.api.post(`/v1/daily-reports/${report.id}/send`, { to_email: 'not-an-address' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_email', field: 'to_email' });
    expect((await w.api.raw.post(`/v1/daily-reports/${report.id}/send`, {})).status).toBe(400);
    const crew = await foreman.api.post(`/v1/daily-reports/${report.id}/send`, { to_email: 'gc@builder.example' });
    expect(crew.status).toBe(403);
    expect(crew.body.code).toBe('office_user_required');
    const stranger = await t.workspace();
    const foreign = await stranger.api.post(`/v1/daily-reports/${report.id}/send`, { to_email: 'gc@builder.example' });
    expect(foreign.status).toBe(404);
    expect(peer.received.length).toBe(before);
    expect(await emailed(report.id)).toEqual({ last_emailed_at: null, last_emailed_to: null });
  });
});

describe('job merge', () => {
  it("moves the merged-away job's daily logs and reports to the kept job", async () => {
    const { w, foreman, workOrder, job: away } = await crewDay(t);
    const kept = await scheduleJob(w);
    const report = await fileReport(foreman.api, workOrder.id);
    const log = (await ok(w.api.get('/v1/daily-logs'))).data[0]!;
    advanceClock(1100);
    const merged = await w.api.post(`/v1/jobs/${away.id}/merge`, { into_job_id: kept.id });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    const moved = await ok(w.api.get(`/v1/daily-logs/${log.id}`));
    expect(moved.data).toMatchObject({ job_id: kept.id, work_order_id: workOrder.id });
    expect(moved.data.updated_at > log.updated_at).toBe(true);
    expect(moved.data.daily_reports).toEqual([{ ...report, job_id: kept.id }]);
    expect((await ok(w.api.get(`/v1/daily-reports?job_id=${kept.id}`))).data.map((r) => r.id)).toEqual([report.id]);
    expect((await ok(w.api.get(`/v1/daily-logs?job_id=${away.id}`))).data).toEqual([]);
  });
});
