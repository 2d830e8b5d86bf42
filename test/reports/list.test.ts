// GET /v1/reports (document 2, Owner reports: "list of reports this key can run"; docs/reports.md):
// the reports built so far, each only for a key whose user may run it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { scheduleWorkspace } from '#test/helpers/scenarios/operations.ts';

let t: TestApp;
let w: Workspace;
beforeAll(async () => {
  t = await startApp();
  w = await scheduleWorkspace(t);
});
afterAll(() => t.close());

/**
 * The management reports every workspace lists, in the list's order (src/modules/reports/run.ts);
 * lead-pipeline and brochure-scans appear only where they apply (their own tests).
 */
const MANAGEMENT = [
  'kpi',
  'weekly-sales',
  'week-glance',
  'weekly-summary',
  'cash-forecast',
  'win-loss',
  'win-loss-graph',
  'work-type',
  'market-analysis',
  'zip-code',
  'top-customers',
  'bid-schedule',
  'estimate-totals',
  'receivables',
  'bid-vs-actual',
  'completed-work',
  'data-dump',
  'item-history',
  'material-history',
  'material-usage',
  'resource-utilization',
  'sub-utilization',
  'vendor-utilization',
  'minority',
];

const keys = async (api: Workspace['api']) => (await ok(api.get('/v1/reports'))).data.map((r) => r.key);

describe('GET /v1/reports', () => {
  it('an owner with crew scheduling on can run every report; each entry has key, title, section, description, date_basis', async () => {
    const res = await ok(w.api.get('/v1/reports'));
    expect(res.data.map((r) => r.key)).toEqual([...MANAGEMENT, 'labor-hours', 'month-end-job-cost']);
    for (const entry of res.data) {
      expect(Object.keys(entry).sort()).toEqual(['date_basis', 'description', 'key', 'section', 'title']);
      expect(entry.title.length).toBeGreaterThan(0);
      expect(entry.description.length).toBeGreaterThan(40);
    }
    const byKey = new Map(res.data.map((r) => [r.key, r]));
    expect(byKey.get('receivables')).toEqual({
      key: 'receivables',
      title: 'Receivables',
      section: 'Financial',
      description: expect.stringContaining('61-90'),
      date_basis: 'all',
    });
    expect(byKey.get('win-loss')).toMatchObject({ section: 'Sales', date_basis: 'decided' });
    expect(byKey.get('labor-hours')).toMatchObject({
      title: 'Labor hours',
      section: 'Operations',
      description: expect.stringContaining('overtime'),
      date_basis: 'all',
    });
    expect(byKey.get('month-end-job-cost')).toMatchObject({
      title: 'Month-end job cost',
      section: 'Operations',
      description: expect.stringContaining('gross profit'),
      date_basis: 'all',
    });
  });

  it('lists only what the user may run: reports allowed for management reports, Approve payroll for labor hours, job costs for month-end', async () => {
    const payroll = await t.user(w.firmId, { name: 'Pat Payroll', role: 'member', payroll_approver: true });
    expect(await keys(payroll.api)).toEqual(['labor-hours']);
    const costs = await t.user(w.firmId, { name: 'Cora Costs', role: 'member', can_see_job_costs: true });
    expect(await keys(costs.api)).toEqual(['month-end-job-cost']);
    const member = await t.user(w.firmId, { name: 'Mo Member', role: 'member' });
    expect(await keys(member.api)).toEqual([]);
    const viewer = await t.user(w.firmId, { name: 'Vi Viewer', role: 'member', can_view_reports: true });
    expect(await keys(viewer.api)).toEqual(MANAGEMENT);
  });

  it('every report answers the widest dates it takes (1900 to 9998) without an error', async () => {
    const PERIOD = ['kpi', 'weekly-sales', 'week-glance', 'cash-forecast'];
    for (const key of MANAGEMENT) {
      const latest = await w.api.raw.get(`/v1/reports/${key}?end=9998-12-31`);
      expect(latest.status, `${key}: ${JSON.stringify(latest.body)}`).toBe(200);
      if (PERIOD.includes(key)) continue;
      const widest = await w.api.raw.get(`/v1/reports/${key}?start=1900-01-01&end=9998-12-31`);
      // The weekly summary has a row a week and refuses more than three years of them.
      expect(widest.status, `${key}: ${JSON.stringify(widest.body)}`).toBe(key === 'weekly-summary' ? 400 : 200);
    }
  });

  it('every listed report runs for a user allowed to view reports, one who sees only their jobs included, and refuses anyone else with 403', async () => {
    const member = await t.user(w.firmId, { name: 'Mo Member', role: 'member' });
    const own = await t.user(w.firmId, {
      name: 'Owen Own',
      role: 'member',
      can_view_reports: true,
      sees_own_jobs_only: true,
    });
    for (const key of MANAGEMENT) {
      const refused = await member.api.raw.get(`/v1/reports/${key}`);
      expect(refused.status, key).toBe(403);
      expect(refused.body, key).toMatchObject({ error: 'Reports not available', code: 'reports_not_available' });
      const ran = await own.api.raw.get(`/v1/reports/${key}`);
      expect(ran.status, `${key}: ${JSON.stringify(ran.body)}`).toBe(200);
      expect(ran.body.data.key).toBe(key);
      expect((await member.api.raw.get(`/v1/reports/${key}/csv`)).status, key).toBe(403);
    }
  });

  it('crew scheduling off: the operations reports are not listed', async () => {
    const off = await t.workspace();
    expect(await keys(off.api)).toEqual(MANAGEMENT);
  });

  it('needs Read jobs; takes no query parameters (one sent is ignored)', async () => {
    const writeOnly = await t.key(w.firmId, w.ownerId, ['write_jobs']);
    const res = await t.as(writeOnly).get('/v1/reports');
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('API key lacks job read permission');
    expect((await w.api.raw.get('/v1/reports?limit=5')).status).toBe(200);
  });
});
