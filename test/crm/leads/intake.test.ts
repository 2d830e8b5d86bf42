// POST /v1/leads: intake in one transaction (document 2, Leads): validation with the spec's words,
// matching the person by email then phone and their company, the job in the first open stage with
// its site, routing, the Call new lead follow-up, the alert, the problem path, leads-pipeline
// workspaces and auto-spam.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { account, created, ok, Z_SECONDS } from '#test/helpers/records.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const lead = (w: Workspace, body: Record<string, unknown>) => w.api.post('/v1/leads', body);

async function mailOf(ref: string) {
  return t.database.db.selectFrom('outgoing_mail').selectAll().where('ref', '=', ref).orderBy('id').execute();
}

describe('POST /v1/leads: the full intake', () => {
  it('creates the person, company, job and site, routes, adds the follow-up and queues the alert', async () => {
    const w = await t.workspace();
    const res = await lead(w, {
      name: 'Pat Jones',
      email: 'pat@example.com',
      phone: '614-555-0101',
      company: 'Maple Ridge HOA',
      address: '12 Elm St, Columbus, OH 43215',
      message: 'Our lot needs sealing before winter.',
      services: ['sealcoating', 'Crack Filling'],
      timing: 'this_season',
      property_type: 'hoa',
      utm: { utm_source: 'google', utm_campaign: 'fall' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const l = res.body.data;
    expect(l).toMatchObject({
      status: 'new',
      status_label: 'New',
      name: 'Pat Jones',
      display_name: 'Pat Jones',
      email: 'pat@example.com',
      phone: '(614) 555-0101',
      company: 'Maple Ridge HOA',
      address: '12 Elm St, Columbus, OH 43215',
      services: 'Sealcoating, Crack Filling',
      source: 'API',
      source_kind: 'api',
      assigned_to_user_id: w.ownerId,
      assigned_to: { id: w.ownerId },
      assignment_reason: 'Round-robin among office teammates',
      first_contacted_at: null,
      first_contact_kind: null,
      first_contacted_by_user_id: null,
      answers: [
        { label: 'Services', value: 'Sealcoating, Crack Filling' },
        { label: 'Timing', value: 'This season' },
        { label: 'Property type', value: 'HOA' },
        { label: 'Message', value: 'Our lot needs sealing before winter.' },
      ],
      utm: { utm_source: 'google', utm_campaign: 'fall' },
      match_reasons: [],
      created_records: { contact: true, account: true, job: true, location: true },
      escalated_at: null,
      auto_spam: false,
      problem: null,
      on_leads_pipeline: false,
      pipeline_stage_id: null,
      estimated_value: null,
      customer_type: null,
      notes: null,
      next_follow_up_at: null,
      replaced_lead_id: null,
    });
    for (const f of ['submitted_at', 'status_changed_at', 'created_at', 'updated_at'] as const)
      expect(l[f]).toMatch(Z_SECONDS);
    expect((await w.api.get(`/v1/leads/${l.id}`)).body.data).toEqual(l);

    const job = (await ok(w.api.get(`/v1/jobs/${l.job_id}`))).data;
    expect(job).toMatchObject({
      name: 'Pat Jones - Sealcoating, Crack Filling',
      status: 'lead',
      company: 'Maple Ridge HOA',
      client_account_id: l.client_account_id,
      location_id: l.location_id,
      contact_name: 'Pat Jones',
      contact_email: 'pat@example.com',
      contact_phone: '(614) 555-0101',
      job_types: ['Sealcoating', 'Crack Filling'],
      source: 'API',
      description: 'Our lot needs sealing before winter.',
      assigned_to_user_id: w.ownerId,
    });
    const contact = (await ok(w.api.get(`/v1/contacts/${l.contact_id}`))).data;
    expect(contact).toMatchObject({
      name: 'Pat Jones',
      email: 'pat@example.com',
      client_account_id: l.client_account_id,
    });
    expect(contact.jobs.map((j: any) => j.job_id)).toEqual([l.job_id]);
    const site = (await ok(w.api.get(`/v1/locations/${l.location_id}`))).data;
    expect(site.address).toBe('12 Elm St, Columbus, OH 43215');

    const task = (await ok(w.api.get(`/v1/account-tasks/${l.follow_up_task_id}`))).data;
    expect(task).toMatchObject({
      client_account_id: l.client_account_id,
      contact_id: l.contact_id,
      title: 'Call new lead: Pat Jones',
      task_type: 'call',
      status: 'open',
      assigned_to_user_id: w.ownerId,
    });
    const due = Date.parse(task.due_at!);
    const submitted = Date.parse(l.submitted_at);
    expect(due - submitted).toBeGreaterThanOrEqual(29 * 60_000);
    expect(due - submitted).toBeLessThanOrEqual(31 * 60_000);

    const mails = await mailOf(`lead:${l.id}`);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      kind: 'lead_alert',
      to_address: 'owner1@example.com',
      subject: 'New lead: Pat Jones',
    });
  });

  it('speed_to_lead_minutes sets when the follow-up is due', async () => {
    const w = await t.workspace({ settings: { speed_to_lead_minutes: 5 } });
    const l = (await created(w, '/v1/leads', { name: 'Quick Quinn', phone: '6145550199' })) as any;
    const task = (await ok(w.api.get(`/v1/account-tasks/${l.follow_up_task_id}`))).data;
    const gap = Date.parse(task.due_at!) - Date.parse(l.submitted_at);
    expect(gap).toBeGreaterThanOrEqual(4 * 60_000);
    expect(gap).toBeLessThanOrEqual(6 * 60_000);
  });

  it('notify false queues nothing; source is kept as sent; the job is never a duplicate-name 409', async () => {
    const w = await t.workspace();
    const a = (await created(w, '/v1/leads', {
      name: 'Sam Lee',
      email: 'sam@example.com',
      notify: false,
      source: 'Website form',
    })) as any;
    expect(a.source).toBe('Website form');
    expect(await mailOf(`lead:${a.id}`)).toHaveLength(0);
    const b = (await created(w, '/v1/leads', { name: 'Sam Lee', email: 'sam@example.com', notify: false })) as any;
    expect(b.job_id).not.toBe(a.job_id);
    expect(b.contact_id).toBe(a.contact_id);
  });
});

describe('POST /v1/leads: matching', () => {
  it('matches the person by email (any case), then by phone digits, and their company', async () => {
    const w = await t.workspace();
    const ca = await account(w, 'Acme Paving');
    const person = await created(w, '/v1/contacts', {
      name: 'Dana White',
      email: 'Dana@Acme.test',
      phone: '(614) 555-0142',
      client_account_id: ca.id,
    });
    const byEmail = (await created(w, '/v1/leads', { name: 'Dana W', email: 'dana@acme.test' })) as any;
    expect(byEmail).toMatchObject({
      contact_id: person.id,
      client_account_id: ca.id,
      match_reasons: ['Contact matched by email dana@acme.test', 'Company of the matched contact: Acme Paving'],
      created_records: { contact: false, account: false, job: true, location: false },
    });
    const byPhone = (await created(w, '/v1/leads', { name: 'Dana', phone: '+1 614 555 0142' })) as any;
    expect(byPhone.contact_id).toBe(person.id);
    expect(byPhone.match_reasons[0]).toBe('Contact matched by phone +1 (614) 555-0142');
  });

  it('a named company is matched by name; an address with a saved site links it', async () => {
    const w = await t.workspace();
    const ca = await account(w, 'Acme Paving');
    const site = await created(w, '/v1/locations', {
      address: '5 Main St, Dublin, OH 43017',
      client_account_id: ca.id,
    });
    const l = (await created(w, '/v1/leads', {
      name: 'New Person',
      email: 'new@example.com',
      company: 'ACME  paving',
      address: '5 main st, dublin, oh 43017',
    })) as any;
    expect(l).toMatchObject({
      client_account_id: ca.id,
      location_id: site.id,
      created_records: { contact: true, account: false, job: true, location: false },
    });
    expect(l.match_reasons).toEqual([
      'Company matched by name Acme Paving',
      'Site matched by address 5 Main St, Dublin, OH 43017',
    ]);
  });

  it('without a company, a new person gets a company in their name (the follow-up hangs on it)', async () => {
    const w = await t.workspace();
    const l = (await created(w, '/v1/leads', { name: 'Rita Home', phone: '6145550177' })) as any;
    const ca = (await ok(w.api.get(`/v1/client-accounts/${l.client_account_id}`))).data;
    expect(ca.name).toBe('Rita Home');
    expect(l.created_records).toEqual({ contact: true, account: true, job: true, location: false });
    expect(l.location_id).toBeNull();
  });
});

describe('POST /v1/leads: validation (400, nothing saved)', () => {
  it('answers each error with the spec wording', async () => {
    const w = await t.workspace();
    const cases: [Record<string, unknown>, string, string | undefined][] = [
      [{ email: 'a@b.test' }, 'name is required', 'name'],
      [{ name: '   ', email: 'a@b.test' }, 'name is required', 'name'],
      [{ name: 'X' }, 'Send an email or a phone number so someone can reach them.', 'email'],
      [{ name: 'X', email: ' ', phone: '' }, 'Send an email or a phone number so someone can reach them.', 'email'],
      [{ name: 'X', phone: '555-0101' }, 'phone must have 10 to 15 digits', 'phone'],
      [{ name: 'X', phone: '+1 234 567 890 123 456' }, 'phone must have 10 to 15 digits', 'phone'],
      [{ name: 'X', email: 'not-an-email' }, 'email does not look like an email address', 'email'],
      [
        { name: 'X', email: 'a@b.test', services: ['Sealcoating', 'Moon paving', 'Gold leaf'] },
        'Unknown services: Moon paving, Gold leaf',
        'services',
      ],
      [
        { name: 'X', email: 'a@b.test', timing: 'yesterday' },
        'timing must be one of asap, 30_days, this_season, budgeting, unsure',
        'timing',
      ],
      [
        { name: 'X', email: 'a@b.test', property_type: 'Castle' },
        'property_type must be one of Residential, Commercial, HOA, Industrial, Municipal, Church, School, Other',
        'property_type',
      ],
    ];
    for (const [body, error, field] of cases) {
      const res = await lead(w, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe(error);
      expect(res.body.field).toBe(field);
    }
    const unknownField = await lead(w, { name: 'X', email: 'a@b.test', budget: 5 });
    expect(unknownField.status).toBe(400);
    expect(JSON.stringify(unknownField.body)).toContain('budget');
    const long = await lead(w, { name: 'X', email: 'a@b.test', message: 'x'.repeat(3001) });
    expect(long.status).toBe(400);
    expect((await lead(w, { name: 'X', email: 'a@b.test', message: 'x'.repeat(3000), notify: false })).status).toBe(
      201,
    );
    expect((await w.api.get('/v1/leads')).body.pagination.total).toBe(1);
    expect((await w.api.get('/v1/contacts')).body.pagination.total).toBe(1);
  });

  it("property_type reads the workspace's own list", async () => {
    const w = await t.workspace({ settings: { property_types: ['Farm', 'Warehouse'] } });
    expect((await lead(w, { name: 'X', email: 'a@b.test', property_type: 'warehouse' })).body.data.answers).toEqual([
      { label: 'Property type', value: 'Warehouse' },
    ]);
    expect((await lead(w, { name: 'X', email: 'a@b.test', property_type: 'HOA' })).status).toBe(400);
  });

  it('a key without write_jobs is 403', async () => {
    const w = await t.workspace();
    const ro = await t.user(w.firmId, { role: 'member' }, ['read_jobs']);
    expect((await ro.api.post('/v1/leads', { name: 'X', email: 'a@b.test' })).status).toBe(403);
  });
});

describe('POST /v1/leads: routing', () => {
  it('territory by ZIP, then by city, then service rules, then round-robin among office users (crew skipped)', async () => {
    const w = await t.workspace();
    const north = await t.user(w.firmId, { role: 'member' });
    const south = await t.user(w.firmId, { role: 'member' });
    const crew = await t.user(w.firmId, { role: 'crew' });
    const seal = await t.user(w.firmId, { role: 'member' });
    await ok(
      t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, {
        settings: {
          lead_routing: {
            round_robin_user_ids: null,
            territory_rules: [
              { user_id: crew.id, zips: ['43215'] },
              { user_id: north.id, zips: ['43215', '43016'] },
              { user_id: south.id, cities: ['Grove City', 'Rancho Santa Fe'] },
            ],
            service_rules: [{ user_id: seal.id, job_types: ['sealcoating'] }],
          },
        },
      }),
    );
    const route = async (body: Record<string, unknown>) =>
      (await created(w, '/v1/leads', { name: 'R', email: `r${Math.random()}@x.test`, notify: false, ...body })) as any;

    let l = await route({ address: '1 High St, Columbus, OH 43215-1234', services: ['Sealcoating'] });
    expect([l.assigned_to_user_id, l.assignment_reason]).toEqual([north.id, 'Territory rule: ZIP 43215']);
    l = await route({ address: '9 Broadway, Grove City OH 43123', services: ['Sealcoating'] });
    expect([l.assigned_to_user_id, l.assignment_reason]).toEqual([south.id, 'Territory rule: city Grove City']);
    l = await route({ address: '3 Via Rd, Rancho Santa Fe, CA 92067' });
    expect(l.assignment_reason).toBe('Territory rule: city Rancho Santa Fe');
    l = await route({ address: '7 Oak St, Dayton, OH 45402', services: ['Sealcoating'] });
    expect([l.assigned_to_user_id, l.assignment_reason]).toEqual([seal.id, 'Service rule: Sealcoating']);
    const job = (await ok(w.api.get(`/v1/jobs/${l.job_id}`))).data;
    expect(job.assigned_to_user_id).toBe(seal.id);

    const office = [w.ownerId, north.id, south.id, seal.id].sort((a, b) => a - b);
    const picks = [];
    for (let i = 0; i < 5; i++) {
      const r = await route({ address: '7 Oak St, Dayton, OH 45402' });
      expect(r.assignment_reason).toBe('Round-robin among office teammates');
      picks.push(r.assigned_to_user_id);
    }
    expect(picks).toEqual([office[0], office[1], office[2], office[3], office[0]]);
    expect(picks).not.toContain(crew.id);
  });

  it('round_robin_user_ids limits the rotation', async () => {
    const w = await t.workspace();
    const a = await t.user(w.firmId, { role: 'member' });
    const b = await t.user(w.firmId, { role: 'member' });
    await ok(
      t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, {
        settings: { lead_routing: { round_robin_user_ids: [b.id, a.id], territory_rules: [], service_rules: [] } },
      }),
    );
    const picks = [];
    for (let i = 0; i < 3; i++)
      picks.push(
        ((await created(w, '/v1/leads', { name: 'R', phone: '6145550100', notify: false })) as any).assigned_to_user_id,
      );
    expect(picks).toEqual([a.id, b.id, a.id]);
  });

  it('the admin settings API refuses a malformed routing setting', async () => {
    const w = await t.workspace();
    const res = await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, {
      settings: {
        lead_routing: {
          round_robin_user_ids: null,
          territory_rules: [{ user_id: 1, zips: ['4321'] }],
          service_rules: [],
        },
      },
    });
    expect(res.status).toBe(400);
    expect(
      (await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { speed_to_lead_minutes: 0 } })).status,
    ).toBe(400);
  });
});

describe('POST /v1/leads: when the job cannot be made', () => {
  it('the lead is still saved with its answers, person, company and follow-up, and problem says why', async () => {
    const w = await t.workspace({ settings: { required_job_fields: ['contact_email'] } });
    const res = await lead(w, {
      name: 'Phone Only',
      phone: '6145550111',
      address: '8 Pine St, Columbus, OH 43215',
      message: 'Call me',
    });
    expect(res.status).toBe(201);
    const l = res.body.data;
    expect(l).toMatchObject({
      status: 'new',
      job_id: null,
      location_id: null,
      problem: 'The job could not be created: This workspace requires contact_email on new jobs',
      answers: [{ label: 'Message', value: 'Call me' }],
      created_records: { contact: true, account: true, job: false, location: false },
    });
    expect(l.contact_id).not.toBeNull();
    expect(l.follow_up_task_id).not.toBeNull();
    // Nothing of the job is left behind: no job, no site, no job events.
    expect((await w.api.get('/v1/jobs')).body.pagination.total).toBe(0);
    expect((await w.api.get('/v1/locations')).body.pagination.total).toBe(0);
    const events = await t.database.db
      .selectFrom('events')
      .select('id')
      .where('firm_id', '=', w.firmId)
      .where('event_type', 'like', 'job%')
      .execute();
    expect(events).toHaveLength(0);
    expect((await mailOf(`lead:${l.id}`))[0]!.text_body).toContain('Intake could not finish');
    const convert = await w.api.post(`/v1/leads/${l.id}/convert`, {});
    expect(convert.status).toBe(409);
    expect(convert.body.code).toBe('no_job');
  });
});

describe('POST /v1/leads: a workspace with a Leads pipeline', () => {
  it('keeps the lead with its person but no company, job or follow-up; convert is 409 no_job', async () => {
    const w = await t.workspace({ settings: { leads_pipeline: true } });
    const l = (await created(w, '/v1/leads', {
      name: 'Pipe Line',
      email: 'pipe@example.com',
      company: 'Pipe Co',
    })) as any;
    expect(l).toMatchObject({
      on_leads_pipeline: true,
      client_account_id: null,
      job_id: null,
      location_id: null,
      follow_up_task_id: null,
      problem: null,
      created_records: { contact: true, account: false, job: false, location: false },
    });
    expect((await w.api.get('/v1/client-accounts')).body.pagination.total).toBe(0);
    const res = await w.api.post(`/v1/leads/${l.id}/convert`, {});
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'No job', code: 'no_job' });
  });
});
