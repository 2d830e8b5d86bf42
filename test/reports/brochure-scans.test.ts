// GET /v1/reports/brochure-scans (docs/reports.md, "Brochure scans"), worked by hand. A Chicago
// workspace (CDT, UTC-5); leads made through the API (intake opens each one's job), their submitted
// instant, contact and status placed by hand. June 2026:
//
// | lead | how it is a scan            | campaign      | submitted (local)   | contacted | converted | job       |
// | B1   | utm_medium qr               | spring-mailer | 5 Jun               | yes       | yes       | won 4,000 |
// | B2   | utm_medium QR (any case)    | spring-mailer | 30 Jun 23:30 (in)   | yes       | no        |           |
// | B9   | utm_medium qr               | spring-mailer | 8 Jun               | no        | no        |           |
// | B3   | utm_source brochure         | (none)        | 12 Jun              | no        | no        |           |
// | B4   | source "Brochure"           | fair          | 15 Jun              | no        | yes       | open      |
// | B8   | utm_medium brochure         | fair          | 20 Jun              | no        | no        |           |
// | B5   | utm_medium qr               | spring-mailer | 1 Jul 00:30 (out)   |           |           |           |
// | B6   | utm_medium email: not a scan                                                                     |
// | B7   | utm_medium qr but spam: out                                                                      |
// spring-mailer 3 scans, 2 contacted, 1 converted (33.33%), 1 won 4,000; fair 2, 0, 1 (50%), 0;
// (no campaign) 1, 0, 0, 0. Total 6 scans, 2 contacted, 2 converted (33.33%), 1 won, 4,000.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';

let t: TestApp;
let w: Workspace;
const leads: Record<string, number> = {};

async function lead(
  ws: Workspace,
  name: string,
  body: Record<string, unknown>,
  set: Record<string, unknown>,
  won?: number,
) {
  const made = await ok(
    ws.api.post('/v1/leads', { name, email: `${name.toLowerCase()}@example.com`, notify: false, ...body }),
  );
  leads[name] = made.data.id;
  if (Object.keys(set).length > 0)
    await t.database.db.updateTable('leads').set(set).where('id', '=', made.data.id).execute();
  if (won !== undefined) {
    const jobId = made.data.job_id as number;
    await ok(ws.api.patch(`/v1/jobs/${jobId}`, { status: 'won' }));
    await t.database.db
      .updateTable('jobs')
      .set({ estimated_value_cents: won * 100 })
      .where('id', '=', jobId)
      .execute();
  }
}

const contacted = { first_contacted_at: '2026-06-21T15:00:00.000000', first_contact_kind: 'call' };

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ timezone: 'America/Chicago' });
  const qr = (campaign?: string) => ({ utm: { utm_medium: 'qr', ...(campaign ? { utm_campaign: campaign } : {}) } });
  await lead(
    w,
    'B1',
    qr('spring-mailer'),
    { submitted_at: '2026-06-05T15:00:00.000000', ...contacted, status: 'converted' },
    4000,
  );
  await lead(
    w,
    'B2',
    { utm: { utm_medium: 'QR', utm_campaign: 'spring-mailer' } },
    { submitted_at: '2026-07-01T04:30:00.000000', ...contacted, status: 'contacted' },
  );
  await lead(w, 'B9', qr('spring-mailer'), { submitted_at: '2026-06-08T15:00:00.000000' });
  await lead(w, 'B3', { utm: { utm_source: 'brochure' } }, { submitted_at: '2026-06-12T15:00:00.000000' });
  await lead(
    w,
    'B4',
    { source: 'Brochure', utm: { utm_campaign: 'fair' } },
    { submitted_at: '2026-06-15T15:00:00.000000', status: 'converted' },
  );
  await lead(
    w,
    'B8',
    { utm: { utm_medium: 'brochure', utm_campaign: 'fair' } },
    { submitted_at: '2026-06-20T15:00:00.000000' },
  );
  await lead(w, 'B5', qr('spring-mailer'), { submitted_at: '2026-07-01T05:30:00.000000' });
  await lead(w, 'B6', { utm: { utm_medium: 'email' } }, { submitted_at: '2026-06-09T15:00:00.000000' });
  await lead(w, 'B7', qr('spring-mailer'), { submitted_at: '2026-06-09T15:00:00.000000', status: 'spam' });
});
afterAll(() => t.close());

const JUNE = 'start=2026-06-01&end=2026-06-30';
const run = async (query: string): Promise<any> => ok(w.api.get(`/v1/reports/brochure-scans?${query}`));

describe('GET /v1/reports/brochure-scans', () => {
  it('scans by campaign: contacted, converted, jobs won and their value', async () => {
    const d = (await run(JUNE)).data;
    expect(d).toMatchObject({ key: 'brochure-scans', section: 'Sales', date_basis: 'created' });
    expect(d.tables[0].rows).toEqual([
      {
        campaign: 'spring-mailer',
        scans: 3,
        contacted: 2,
        converted: 1,
        conversion_rate: 0.3333,
        won: 1,
        won_value: 4000,
      },
      { campaign: 'fair', scans: 2, contacted: 0, converted: 1, conversion_rate: 0.5, won: 0, won_value: 0 },
      { campaign: '(no campaign)', scans: 1, contacted: 0, converted: 0, conversion_rate: 0, won: 0, won_value: 0 },
    ]);
    expect(d.tables[0].total).toEqual({
      campaign: 'Total',
      scans: 6,
      contacted: 2,
      converted: 2,
      conversion_rate: 0.3333,
      won: 1,
      won_value: 4000,
    });
    expect(d.summary).toEqual([
      { label: 'Scans', value: '6' },
      { label: 'Contacted', value: '2' },
      { label: 'Converted', value: '2 (33.33%)' },
      { label: 'Jobs won', value: '1 ($4,000.00)' },
    ]);
  });

  it('local midnight: B2 (30 June 23:30 CDT) is out of a range ending 29 June; B5 (1 July 00:30) is July’s', async () => {
    const early = (await run('start=2026-06-01&end=2026-06-29')).data;
    // spring-mailer and fair tie at 2 scans: by campaign name then.
    expect(early.tables[0].rows.map((r: any) => [r.campaign, r.scans, r.contacted])).toEqual([
      ['fair', 2, 0],
      ['spring-mailer', 2, 1],
      ['(no campaign)', 1, 0],
    ]);
    const july = (await run('start=2026-07-01&end=2026-07-31')).data;
    expect(july.tables[0].rows.map((r: any) => [r.campaign, r.scans])).toEqual([['spring-mailer', 1]]);
    const q = (await run(`${JUNE}&q=fair`)).data;
    expect(q.tables[0].rows.map((r: any) => r.campaign)).toEqual(['fair']);
  });

  it('a parameter it does not use is 400', async () => {
    const res = await w.api.get(`/v1/reports/brochure-scans?${JUNE}&date_basis=bid`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('The brochure-scans report does not use date_basis');
  });

  it('a member who sees only their own jobs sees the leads assigned to them', async () => {
    const own = await t.user(w.firmId, { name: 'Own Only', sees_own_jobs_only: true, can_view_reports: true });
    await t.database.db.updateTable('leads').set({ assigned_to_user_id: own.id }).where('id', '=', leads.B8).execute();
    const d = (await ok(own.api.get(`/v1/reports/brochure-scans?${JUNE}`))).data;
    expect(d.tables[0].rows.map((r: any) => [r.campaign, r.scans])).toEqual([['fair', 1]]);
  });

  it('a workspace without brochure scans: not listed and 404, until a scan comes in', async () => {
    const other = await t.workspace();
    await lead(other, 'E1', { utm: { utm_medium: 'email' } }, {});
    const keys = async () => (await ok(other.api.get('/v1/reports'))).data.map((r: any) => r.key);
    expect(await keys()).not.toContain('brochure-scans');
    const res = await other.api.get('/v1/reports/brochure-scans');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Report not found');
    await lead(other, 'Q1', { utm: { utm_medium: 'qr' } }, {});
    expect(await keys()).toContain('brochure-scans');
    expect((await other.api.get('/v1/reports/brochure-scans')).status).toBe(200);
  });
});
