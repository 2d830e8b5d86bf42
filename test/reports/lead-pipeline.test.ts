// GET /v1/reports/lead-pipeline (docs/reports.md, "Lead pipeline"), worked by hand. A Chicago
// workspace (CDT, UTC-5) with the Leads pipeline on; leads are made through the API and their stage,
// value, job and submitted instant placed by hand (the app sets them). June 2026; the end of the
// range is 1 July 00:00 CDT (05:00 UTC).
//
// | lead | stage | value | submitted (local)     | age at end              | job                 |
// | L1   | none  | 1,000 | 10 Jun 09:00          | 20 d 15 h = 20.625 d    | none                |
// | L2   | 1     | 5,000 | 20 Jun 00:00          | 11 d                    | won, value 6,000    |
// | L3   | 1     | 2,000 | 30 Jun 00:00          | 1 d                     | open, value 3,000   |
// | L4   | 2     | none  | 30 Jun 23:30 (in)     | 0.5 h = 0.0208 d        | none                |
// | L5   | 2     | 9,000 | 1 Jul 00:30 (out)     |                         |                     |
// | L6   | 1     | 9,000 | 15 Jun, spam (out)    |                         |                     |
// | L7   | off the pipeline (out)                                                             |
// (no stage): 1 lead, 1,000, 20.6 days. Stage 1: 2 leads, 7,000, (11 + 1) / 2 = 6 days, 2
// converted, 1 won (6,000). Stage 2: 1 lead, 0, 0 days. Total: 4 leads, 8,000,
// (20.625 + 11 + 1 + 0.0208) / 4 = 8.16 -> 8.2 days, 2 converted, 1 won, 6,000.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';

let t: TestApp;
let w: Workspace;
const leads: Record<string, number> = {};

async function lead(name: string, set: Record<string, unknown>, jobOf?: { value: number; status: string }) {
  const made = await ok(w.api.post('/v1/leads', { name, email: `${name.toLowerCase()}@example.com`, notify: false }));
  const id = made.data.id as number;
  leads[name] = id;
  let jobId: number | null = null;
  if (jobOf) {
    jobId = (await ok(w.api.post('/v1/jobs', { name: `${name} job`, estimated_value: jobOf.value }))).data.id;
    await ok(w.api.patch(`/v1/jobs/${jobId}`, { status: jobOf.status }));
  }
  await t.database.db
    .updateTable('leads')
    .set({ ...set, ...(jobId ? { job_id: jobId } : {}) })
    .where('id', '=', id)
    .execute();
}

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ timezone: 'America/Chicago', settings: { leads_pipeline: true } });
  await lead('L1', { submitted_at: '2026-06-10T14:00:00.000000', estimated_value_cents: 100000 });
  await lead(
    'L2',
    { submitted_at: '2026-06-20T05:00:00.000000', pipeline_stage_id: 1, estimated_value_cents: 500000 },
    { value: 6000, status: 'won' },
  );
  await lead(
    'L3',
    { submitted_at: '2026-06-30T05:00:00.000000', pipeline_stage_id: 1, estimated_value_cents: 200000 },
    { value: 3000, status: 'active' },
  );
  await lead('L4', { submitted_at: '2026-07-01T04:30:00.000000', pipeline_stage_id: 2 });
  await lead('L5', { submitted_at: '2026-07-01T05:30:00.000000', pipeline_stage_id: 2, estimated_value_cents: 900000 });
  await lead('L6', {
    submitted_at: '2026-06-15T05:00:00.000000',
    pipeline_stage_id: 1,
    estimated_value_cents: 900000,
    status: 'spam',
  });
  await lead('L7', { submitted_at: '2026-06-15T05:00:00.000000', on_leads_pipeline: 0 });
});
afterAll(() => t.close());

const JUNE = 'start=2026-06-01&end=2026-06-30';
const run = async (query: string): Promise<any> => ok(w.api.get(`/v1/reports/lead-pipeline?${query}`));

describe('GET /v1/reports/lead-pipeline', () => {
  it('leads on the pipeline by stage: count, value, average age at end, converted and won', async () => {
    const d = (await run(JUNE)).data;
    expect(d).toMatchObject({ key: 'lead-pipeline', section: 'Sales', date_basis: 'created' });
    const [stages] = d.tables;
    expect(stages.rows).toEqual([
      {
        stage: '(no stage)',
        leads: 1,
        estimated_value: 1000,
        average_age_days: 20.6,
        converted: 0,
        won: 0,
        won_value: 0,
      },
      { stage: 'Stage 1', leads: 2, estimated_value: 7000, average_age_days: 6, converted: 2, won: 1, won_value: 6000 },
      { stage: 'Stage 2', leads: 1, estimated_value: 0, average_age_days: 0, converted: 0, won: 0, won_value: 0 },
    ]);
    expect(stages.total).toEqual({
      stage: 'Total',
      leads: 4,
      estimated_value: 8000,
      average_age_days: 8.2,
      converted: 2,
      won: 1,
      won_value: 6000,
    });
    expect(d.summary).toEqual([
      { label: 'Leads', value: '4' },
      { label: 'Estimated value', value: '$8,000.00' },
      { label: 'Converted', value: '2' },
      { label: 'Won', value: '1 ($6,000.00)' },
    ]);
  });

  it('local midnight: a range ending 29 June leaves out L3 (30 June 00:00) and L4; July holds L5', async () => {
    const early = (await run('start=2026-06-01&end=2026-06-29')).data;
    expect(early.tables[0].total).toMatchObject({ leads: 2, estimated_value: 6000 });
    const july = (await run('start=2026-07-01&end=2026-07-31')).data;
    expect(july.tables[0].rows.map((r: any) => [r.stage, r.leads])).toEqual([['Stage 2', 1]]);
  });

  it('a parameter it does not use is 400', async () => {
    const res = await w.api.get(`/v1/reports/lead-pipeline?${JUNE}&salesperson_ids=1`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('The lead-pipeline report does not use salesperson_ids');
  });

  it('a member who sees only their own jobs sees the leads assigned to them', async () => {
    const own = await t.user(w.firmId, { name: 'Own Only', sees_own_jobs_only: true, can_view_reports: true });
    await t.database.db.updateTable('leads').set({ assigned_to_user_id: own.id }).where('id', '=', leads.L3).execute();
    const d = (await ok(own.api.get(`/v1/reports/lead-pipeline?${JUNE}`))).data;
    expect(d.tables[0].rows.map((r: any) => [r.stage, r.leads, r.estimated_value])).toEqual([['Stage 1', 1, 2000]]);
  });

  it('a workspace without the pipeline: not listed and 404, until a lead is on the pipeline', async () => {
    const other = await t.workspace();
    const keys = async () => (await ok(other.api.get('/v1/reports'))).data.map((r: any) => r.key);
    expect(await keys()).not.toContain('lead-pipeline');
    const res = await other.api.get('/v1/reports/lead-pipeline');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Report not found');
    const made = await ok(other.api.post('/v1/leads', { name: 'Pat', email: 'pat@example.com', notify: false }));
    await t.database.db.updateTable('leads').set({ on_leads_pipeline: 1 }).where('id', '=', made.data.id).execute();
    expect(await keys()).toContain('lead-pipeline');
    expect((await other.api.get('/v1/reports/lead-pipeline')).status).toBe(200);
    expect(await keys()).toContain('lead-pipeline');
  });
});
