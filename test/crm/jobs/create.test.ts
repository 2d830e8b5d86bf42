// POST /v1/jobs: the job object, upsert on external_ref, the duplicate-name guard, workspace-required
// fields, truncation, validation, money, owner, and customer/site linking (document 2, Jobs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;

const JOB_KEYS = [
  'id',
  'name',
  'company',
  'contact_name',
  'contact_email',
  'contact_phone',
  'bill_to_name',
  'bill_to_email',
  'address',
  'description',
  'notes',
  'job_type',
  'job_types',
  'status',
  'status_label',
  'source',
  'priority',
  'estimated_value',
  'probability',
  'start_date',
  'end_date',
  'next_follow_up',
  'measurement_count',
  'firm_id',
  'team_id',
  'client_account_id',
  'client_account_external_ref',
  'location_id',
  'location_external_ref',
  'external_ref',
  'custom_fields',
  'accounting_sync_error',
  'assigned_to_user_id',
  'assigned_to',
  'created_at',
  'updated_at',
  'crm_deal_id',
  'crm_contact_id',
  'crm_company_id',
  'site_id',
  'estimate_id',
  'estimate_number',
  'estimate_total',
].sort();

const USER_KEYS = [
  'id',
  'name',
  'username',
  'email',
  'role',
  'job_title',
  'phone_number',
  'headshot_url',
  'is_firm_owner',
  'created_at',
].sort();

async function jobCount(w: Workspace): Promise<number> {
  const res = await w.api.get('/v1/jobs');
  expect(res.status).toBe(200);
  return res.body.pagination.total;
}

async function customers(w: Workspace): Promise<any[]> {
  const res = await w.api.get('/v1/client-accounts?limit=200');
  expect(res.status).toBe(200);
  return res.body.data;
}

async function sites(w: Workspace): Promise<any[]> {
  const res = await w.api.get('/v1/locations?limit=200');
  expect(res.status).toBe(200);
  return res.body.data;
}

describe('POST /v1/jobs: the created job', () => {
  it('answers 201 {data, created: true} with every field of the job object', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/jobs', { name: 'North Lot Sealcoat' });
    expect(res.status).toBe(201);
    expect(res.body.created).toBe(true);
    expect(Object.keys(res.body).sort()).toEqual(['created', 'data']);
    const job = res.body.data;
    expect(Object.keys(job).sort()).toEqual(JOB_KEYS);
    expect(job.id).toBeTypeOf('number');
    expect(job.name).toBe('North Lot Sealcoat');
    expect(job.status).toBe('lead');
    expect(job.status_label).toBe('Lead');
    expect(job.source).toBe('api');
    expect(job.priority).toBe('normal');
    expect(job.firm_id).toBe(w.firmId);
    expect(job.measurement_count).toBe(0);
    expect(job.custom_fields).toEqual({});
    expect(job.job_types).toEqual([]);
    for (const k of [
      'company',
      'contact_name',
      'contact_email',
      'contact_phone',
      'bill_to_name',
      'bill_to_email',
      'address',
      'description',
      'notes',
      'job_type',
      'estimated_value',
      'probability',
      'start_date',
      'end_date',
      'next_follow_up',
      'team_id',
      'client_account_id',
      'client_account_external_ref',
      'location_id',
      'location_external_ref',
      'external_ref',
      'accounting_sync_error',
      'crm_deal_id',
      'crm_contact_id',
      'crm_company_id',
      'site_id',
      'estimate_id',
      'estimate_number',
      'estimate_total',
    ] as const) {
      expect(job[k], k).toBeNull();
    }
    expect(job.assigned_to_user_id).toBe(w.ownerId);
    expect(Object.keys(job.assigned_to).sort()).toEqual(USER_KEYS);
    expect(job.assigned_to.id).toBe(w.ownerId);
    expect(job.assigned_to.is_firm_owner).toBe(true);
    expect(job.assigned_to.role).toBe('owner');
    expect(job.assigned_to.created_at).toMatch(MICROS);
    expect(job.created_at).toMatch(MICROS);
    expect(job.updated_at).toMatch(MICROS);
    expect(job.updated_at).toBe(job.created_at);

    const read = await w.api.get(`/v1/jobs/${job.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(job);
  });

  it('stores every sent field', async () => {
    const w = await t.workspace();
    const body = {
      name: 'Full Job',
      contact_name: 'Jane Roe',
      contact_email: 'jane@example.com',
      contact_phone: '(555) 555-0100',
      bill_to_name: 'Billing Co',
      bill_to_email: 'ap@billing.example',
      description: 'Desc',
      notes: 'Notes',
      status: 'active',
      priority: 'high',
      source: 'Website',
      estimated_value: 12500.5,
      probability: 40,
      start_date: '2026-04-01',
      end_date: '2026-04-03',
      next_follow_up: '2026-03-15',
      external_ref: 'CRM-FULL-1',
      job_type: 'Sealcoating',
    };
    const res = await w.api.raw.post('/v1/jobs', body);
    expect(res.status).toBe(201);
    const job = res.body.data;
    for (const [k, v] of Object.entries(body)) expect(job[k], k).toEqual(v);
    expect(job.status_label).toBe('Active');
    expect(job.job_types).toEqual(['Sealcoating']);
  });

  it('accepts the documented priorities, probability 0 and 100, and a workspace stage', async () => {
    const w = await t.workspace({ job_stages: [{ key: 'bidding', label: 'Bidding', type: 'open' }] });
    let i = 0;
    for (const priority of ['low', 'normal', 'high', 'urgent']) {
      const res = await w.api.raw.post('/v1/jobs', { name: `P ${i++}`, priority });
      expect(res.status).toBe(201);
      expect(res.body.data.priority).toBe(priority);
    }
    for (const probability of [0, 100]) {
      const res = await w.api.post('/v1/jobs', { name: `P ${i++}`, probability });
      expect(res.status).toBe(201);
      expect(res.body.data.probability).toBe(probability);
    }
    const staged = await w.api.post('/v1/jobs', { name: 'Staged', status: 'bidding' });
    expect(staged.status).toBe(201);
    expect(staged.body.data.status).toBe('bidding');
    expect(staged.body.data.status_label).toBe('Bidding');
  });
});

describe('POST /v1/jobs: name', () => {
  it('is required: 400 name is required, nothing created', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/jobs', { company: 'Acme' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('name is required');
    const blank = await w.api.post('/v1/jobs', { name: '   ' });
    expect(blank.status).toBe(400);
    expect(await jobCount(w)).toBe(0);
    expect(await customers(w)).toHaveLength(0);
  });

  it('is required with a new external_ref', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/jobs', { external_ref: 'NEW-1', notes: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('name is required');
    expect(await jobCount(w)).toBe(0);
  });
});

describe('POST /v1/jobs: upsert on external_ref', () => {
  it('a second POST with the same ref answers 200 created false, updates the job and makes no new one', async () => {
    const w = await t.workspace();
    const first = await w.api.post('/v1/jobs', {
      name: 'Ref Job',
      external_ref: 'EXT-1',
      notes: 'first',
      contact_name: 'Ann',
    });
    expect(first.status).toBe(201);
    expect(first.body.created).toBe(true);
    const second = await w.api.post('/v1/jobs', { name: 'Ref Job Renamed', external_ref: 'EXT-1', notes: 'second' });
    expect(second.status).toBe(200);
    expect(second.body.created).toBe(false);
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(second.body.data.name).toBe('Ref Job Renamed');
    expect(second.body.data.notes).toBe('second');
    expect(second.body.data.contact_name).toBe('Ann');
    expect(second.body.data.external_ref).toBe('EXT-1');
    expect(Object.keys(second.body.data).sort()).toEqual(JOB_KEYS);
    expect(await jobCount(w)).toBe(1);
    const read = await w.api.get(`/v1/jobs/${first.body.data.id}`);
    expect(read.body.data.name).toBe('Ref Job Renamed');
  });

  it('name may be omitted when the ref exists', async () => {
    const w = await t.workspace();
    const first = await w.api.post('/v1/jobs', { name: 'Named Once', external_ref: 'EXT-2' });
    const second = await w.api.post('/v1/jobs', { external_ref: 'EXT-2', probability: 70 });
    expect(second.status).toBe(200);
    expect(second.body.created).toBe(false);
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(second.body.data.name).toBe('Named Once');
    expect(second.body.data.probability).toBe(70);
    expect(await jobCount(w)).toBe(1);
  });

  it('an upsert may take the name of another job (the duplicate guard is for new jobs only)', async () => {
    const w = await t.workspace();
    const other = await w.api.post('/v1/jobs', { name: 'Taken Name' });
    await w.api.post('/v1/jobs', { name: 'Original', external_ref: 'EXT-4' });
    const res = await w.api.post('/v1/jobs', { name: 'taken name', external_ref: 'EXT-4' });
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(false);
    expect(res.body.data.id).not.toBe(other.body.data.id);
    expect(res.body.data.name).toBe('taken name');
    expect(await jobCount(w)).toBe(2);
  });

  it('an upsert with the same values changes nothing (updated_at kept)', async () => {
    const w = await t.workspace();
    const first = await w.api.post('/v1/jobs', { name: 'Same', external_ref: 'EXT-3', notes: 'n' });
    const second = await w.api.post('/v1/jobs', { name: 'Same', external_ref: 'EXT-3', notes: 'n' });
    expect(second.status).toBe(200);
    expect(second.body.data.updated_at).toBe(first.body.data.updated_at);
  });
});

describe('POST /v1/jobs: duplicate names', () => {
  it('a same-named job (case and spacing ignored) is 409 with duplicate_job_id', async () => {
    const w = await t.workspace();
    const first = await w.api.post('/v1/jobs', { name: 'Main Street Lot' });
    expect(first.status).toBe(201);
    for (const name of ['Main Street Lot', 'main street lot', '  MAIN   Street  lot ']) {
      const dup = await w.api.post('/v1/jobs', { name });
      expect(dup.status, name).toBe(409);
      expect(dup.body.duplicate_job_id).toBe(first.body.data.id);
      expect(dup.body.error).toBeTypeOf('string');
    }
    expect(await jobCount(w)).toBe(1);
  });

  it('is allowed with allow_duplicate_name true', async () => {
    const w = await t.workspace();
    const first = await w.api.post('/v1/jobs', { name: 'Twin' });
    const second = await w.api.post('/v1/jobs', { name: 'twin', allow_duplicate_name: true });
    expect(second.status).toBe(201);
    expect(second.body.created).toBe(true);
    expect(second.body.data.id).not.toBe(first.body.data.id);
    expect(await jobCount(w)).toBe(2);
  });

  it('is not checked when a new external_ref is sent', async () => {
    const w = await t.workspace();
    await w.api.post('/v1/jobs', { name: 'Shared Name' });
    const withRef = await w.api.post('/v1/jobs', { name: 'Shared Name', external_ref: 'NEW-REF' });
    expect(withRef.status).toBe(201);
    expect(withRef.body.created).toBe(true);
    expect(await jobCount(w)).toBe(2);
  });

  it('a job in another workspace with the same name does not count', async () => {
    const a = await t.workspace();
    const b = await t.workspace();
    await a.api.post('/v1/jobs', { name: 'Cross Workspace' });
    const res = await b.api.post('/v1/jobs', { name: 'Cross Workspace' });
    expect(res.status).toBe(201);
  });
});

describe('POST /v1/jobs: workspace-required fields', () => {
  const ALL = ['address', 'company', 'job_type', 'source', 'contact_email'];

  it('missing ones are 422 with missing_fields; nothing is written', async () => {
    const w = await t.workspace({ settings: { required_job_fields: ALL } });
    const res = await w.api.post('/v1/jobs', { name: 'Needs Fields' });
    expect(res.status).toBe(422);
    expect([...(res.body.missing_fields as string[])].sort()).toEqual([...ALL].sort());
    expect(res.body.error).toBeTypeOf('string');
    // Part of the fields: only the missing ones are named; the sent company does not leave a customer behind.
    const partial = await w.api.post('/v1/jobs', { name: 'Needs Fields', company: 'Half Co', address: '1 Half St' });
    expect(partial.status).toBe(422);
    expect([...(partial.body.missing_fields as string[])].sort()).toEqual(['contact_email', 'job_type', 'source']);
    expect(await jobCount(w)).toBe(0);
    expect(await customers(w)).toHaveLength(0);
    expect(await sites(w)).toHaveLength(0);
  });

  it('a job with all of them is created', async () => {
    const w = await t.workspace({ settings: { required_job_fields: ALL } });
    const res = await w.api.post('/v1/jobs', {
      name: 'Complete',
      address: '5 Complete Way',
      company: 'Complete Co',
      job_type: 'Patching',
      source: 'Referral',
      contact_email: 'c@example.com',
    });
    expect(res.status).toBe(201);
  });

  it('a linked customer counts as company', async () => {
    const w = await t.workspace({ settings: { required_job_fields: ['company'] } });
    const cust = await w.api.post('/v1/client-accounts', { name: 'Linked Co', external_ref: 'CUST-L' });
    expect(cust.status).toBe(201);
    const byId = await w.api.post('/v1/jobs', { name: 'By Id', client_account_id: cust.body.data.id });
    expect(byId.status).toBe(201);
    const byRef = await w.api.post('/v1/jobs', { name: 'By Ref', client_account_external_ref: 'CUST-L' });
    expect(byRef.status).toBe(201);
  });

  it("a customer taken from the job's site counts as company", async () => {
    const w = await t.workspace();
    const cust = await w.api.post('/v1/client-accounts', { name: 'Site Holder Co' });
    const site = await w.api.post('/v1/locations', { address: '61 Holder Rd', client_account_id: cust.body.data.id });
    expect(site.status).toBe(201);
    await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { required_job_fields: ['company'] } });
    const res = await w.api.post('/v1/jobs', { name: 'Via Site', address: '61 holder rd' });
    expect(res.status).toBe(201);
    expect(res.body.data.client_account_id).toBe(cust.body.data.id);
    expect(res.body.data.company).toBe('Site Holder Co');
  });

  it('source must be sent explicitly: the default api does not satisfy it', async () => {
    const w = await t.workspace({ settings: { required_job_fields: ['source'] } });
    const res = await w.api.post('/v1/jobs', { name: 'No Source' });
    expect(res.status).toBe(422);
    expect(res.body.missing_fields).toEqual(['source']);
    const ok = await w.api.post('/v1/jobs', { name: 'With Source', source: 'api' });
    expect(ok.status).toBe(201);
    expect(ok.body.data.source).toBe('api');
  });

  it('apply to a create with a new external_ref but not to an upsert onto an existing job', async () => {
    const w = await t.workspace();
    const existing = await w.api.post('/v1/jobs', { name: 'Before Rules', external_ref: 'RQ-1' });
    expect(existing.status).toBe(201);
    await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { required_job_fields: ['address'] } });
    const fresh = await w.api.post('/v1/jobs', { name: 'New With Ref', external_ref: 'RQ-2' });
    expect(fresh.status).toBe(422);
    expect(fresh.body.missing_fields).toEqual(['address']);
    const upsert = await w.api.post('/v1/jobs', { external_ref: 'RQ-1', notes: 'still fine' });
    expect(upsert.status).toBe(200);
    expect(upsert.body.data.notes).toBe('still fine');
  });

  it('blank values do not count', async () => {
    const w = await t.workspace({ settings: { required_job_fields: ['address', 'contact_email'] } });
    const res = await w.api.post('/v1/jobs', { name: 'Blank', address: '   ', contact_email: '' });
    expect(res.status).toBe(422);
    expect([...(res.body.missing_fields as string[])].sort()).toEqual(['address', 'contact_email']);
  });
});

describe('POST /v1/jobs: over-long text is cut', () => {
  it('name 250 → 200, contact_name → 200, contact_email 130 → 120, bill_to_name → 200, bill_to_email → 255, source 120 → 100', async () => {
    const w = await t.workspace();
    const name = 'N'.repeat(250);
    // Valid addresses (checked before they are cut), longer than their maximum.
    const contactEmail = `${'e'.repeat(120)}@x.example`;
    const billToEmail = `${'b'.repeat(290)}@x.example`;
    const source = 's'.repeat(120);
    const res = await w.api.post('/v1/jobs', {
      name,
      contact_name: 'c'.repeat(250),
      contact_email: contactEmail,
      bill_to_name: 'B'.repeat(260),
      bill_to_email: billToEmail,
      source,
    });
    expect(res.status).toBe(201);
    const job = res.body.data;
    expect(job.name).toBe('N'.repeat(200));
    expect(job.contact_name).toBe('c'.repeat(200));
    expect(job.contact_email).toBe('e'.repeat(120));
    expect(job.bill_to_name).toBe('B'.repeat(200));
    expect(job.bill_to_email).toBe('b'.repeat(255));
    expect(job.source).toBe('s'.repeat(100));
  });

  it('text at the maximum is kept whole', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/jobs', {
      name: 'x'.repeat(200),
      contact_email: `${'y'.repeat(110)}@x.example`,
      source: 'z'.repeat(100),
    });
    expect(res.status).toBe(201);
    expect(res.body.data.name).toHaveLength(200);
    expect(res.body.data.contact_email).toHaveLength(120);
    expect(res.body.data.source).toHaveLength(100);
  });

  it('a cut name still counts for the duplicate guard', async () => {
    const w = await t.workspace();
    const first = await w.api.post('/v1/jobs', { name: 'L'.repeat(250) });
    const second = await w.api.post('/v1/jobs', { name: 'L'.repeat(210) });
    expect(second.status).toBe(409);
    expect(second.body.duplicate_job_id).toBe(first.body.data.id);
  });

  it('external_ref longer than 255 is a 400 (not cut); 255 is fine', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/jobs', { name: 'Long Ref', external_ref: 'r'.repeat(256) });
    expect(res.status).toBe(400);
    expect(await jobCount(w)).toBe(0);
    const ok = await w.api.post('/v1/jobs', { name: 'Long Ref', external_ref: 'r'.repeat(255) });
    expect(ok.status).toBe(201);
    expect(ok.body.data.external_ref).toBe('r'.repeat(255));
  });
});

describe('POST /v1/jobs: job_type', () => {
  it('a comma string is matched in any case and stored in the workspace spelling', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/jobs', { name: 'Types A', job_type: 'sealcoating, CRACK FILLING' });
    expect(res.status).toBe(201);
    expect(res.body.data.job_type).toBe('Sealcoating, Crack Filling');
    expect(res.body.data.job_types).toEqual(['Sealcoating', 'Crack Filling']);
  });

  it('an array is accepted', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/jobs', { name: 'Types B', job_type: ['line striping', 'Asphalt paving'] });
    expect(res.status).toBe(201);
    expect(res.body.data.job_type).toBe('Line Striping, Asphalt Paving');
    expect(res.body.data.job_types).toEqual(['Line Striping', 'Asphalt Paving']);
  });

  it('workspace types are used', async () => {
    const w = await t.workspace({ job_types: ['Mulching', 'Irrigation'] });
    const ok = await w.api.post('/v1/jobs', { name: 'Yard', job_type: 'mulching' });
    expect(ok.status).toBe(201);
    expect(ok.body.data.job_type).toBe('Mulching');
    const notHere = await w.api.post('/v1/jobs', { name: 'Lot', job_type: 'Sealcoating' });
    expect(notHere.status).toBe(400);
    expect(notHere.body.code).toBe('unknown_job_type');
  });

  it('an unknown value is 400 unknown_job_type; nothing created', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/jobs', { name: 'Types C', job_type: 'Sealcoating, Underwater Welding' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('unknown_job_type');
    expect(res.body.values).toEqual(['Underwater Welding']);
    expect(res.body.allowed).toEqual(expect.arrayContaining(['Sealcoating']));
    const arr = await w.api.post('/v1/jobs', { name: 'Types C', job_type: ['Bogus'] });
    expect(arr.status).toBe(400);
    expect(arr.body.code).toBe('unknown_job_type');
    expect(await jobCount(w)).toBe(0);
  });
});

describe('POST /v1/jobs: validation', () => {
  it('status that is not a stage is 400', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/jobs', { name: 'Bad Status', status: 'cancelled' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^status must be one of/);
    expect(res.body.error).toContain('lead');
    expect(await jobCount(w)).toBe(0);
  });

  it('priority outside the enum is 400', async () => {
    const w = await t.workspace();
    const res = await w.api.raw.post('/v1/jobs', { name: 'Bad Priority', priority: 'critical' });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('priority');
  });

  it('probability above 100 or below 0, or not an integer, is 400', async () => {
    const w = await t.workspace();
    for (const probability of [101, -1, 50.5, '50']) {
      const res = await w.api.raw.post('/v1/jobs', { name: `Prob ${probability}`, probability });
      expect(res.status, String(probability)).toBe(400);
      expect(res.body.error).toContain('probability');
    }
    expect(await jobCount(w)).toBe(0);
  });

  it('a bad date is 400', async () => {
    const w = await t.workspace();
    for (const [field, value] of [
      ['start_date', '2026-02-30'],
      ['end_date', '04/01/2026'],
      ['next_follow_up', '2026-13-01'],
      ['start_date', '2026-04-01T10:00:00Z'],
    ]) {
      const res = await w.api.post('/v1/jobs', { name: `Date ${field} ${value}`, [field]: value });
      expect(res.status, `${field}=${value}`).toBe(400);
      expect(res.body.error).toContain(field);
    }
    expect(await jobCount(w)).toBe(0);
  });

  it('unknown body fields are 400 naming them', async () => {
    const w = await t.workspace();
    const res = await w.api.raw.post('/v1/jobs', { name: 'Unknown', colour: 'red', size: 3 });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual(expect.arrayContaining(['colour', 'size']));
  });

  it('a read-only key is 403', async () => {
    const w = await t.workspace();
    const key = await t.key(w.firmId, w.ownerId, ['read_jobs']);
    const res = await t.as(key).post('/v1/jobs', { name: 'Nope' });
    expect(res.status).toBe(403);
    expect(await jobCount(w)).toBe(0);
  });
});

describe('POST /v1/jobs: estimated_value', () => {
  it('is kept exact to the cent', async () => {
    const w = await t.workspace();
    const values = [0.29, 0.1, 19.99, 1234.56, 1000000.07, 12345678.91, 0, 42];
    for (const [i, v] of values.entries()) {
      const res = await w.api.post('/v1/jobs', { name: `Money ${i}`, estimated_value: v });
      expect(res.status).toBe(201);
      expect(res.body.data.estimated_value).toBe(v);
      const read = await w.api.get(`/v1/jobs/${res.body.data.id}`);
      expect(read.body.data.estimated_value).toBe(v);
    }
  });

  it('null is accepted', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/jobs', { name: 'No Value', estimated_value: null });
    expect(res.status).toBe(201);
    expect(res.body.data.estimated_value).toBeNull();
  });
});

describe('POST /v1/jobs: owner', () => {
  it("defaults to the key's user", async () => {
    const w = await t.workspace();
    const member = await t.user(w.firmId, { role: 'member', job_title: 'Estimator' });
    const res = await member.api.post('/v1/jobs', { name: 'Member Job' });
    expect(res.status).toBe(201);
    expect(res.body.data.assigned_to_user_id).toBe(member.id);
    expect(res.body.data.assigned_to.id).toBe(member.id);
    expect(res.body.data.assigned_to.role).toBe('member');
    expect(res.body.data.assigned_to.is_firm_owner).toBe(false);
    expect(res.body.data.assigned_to.job_title).toBe('Estimator');
  });

  it('can be another user of the workspace', async () => {
    const w = await t.workspace();
    const member = await t.user(w.firmId, { role: 'member' });
    const res = await w.api.post('/v1/jobs', { name: 'Handed', assigned_to_user_id: member.id });
    expect(res.status).toBe(201);
    expect(res.body.data.assigned_to_user_id).toBe(member.id);
  });

  it('a removed user cannot be given the job (404)', async () => {
    const w = await t.workspace();
    const gone = await t.user(w.firmId, { role: 'member' });
    expect((await t.admin.delete(`/admin/v1/workspaces/${w.firmId}/users/${gone.id}`)).status).toBe(200);
    const res = await w.api.post('/v1/jobs', { name: 'To Removed', assigned_to_user_id: gone.id });
    expect(res.status).toBe(404);
    expect(await jobCount(w)).toBe(0);
  });

  it('an unknown or foreign user id is 404; nothing created', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const foreign = await t.user(other.firmId, { role: 'member' });
    for (const id of [foreign.id, other.ownerId, 999999]) {
      const res = await w.api.post('/v1/jobs', { name: `Assign ${id}`, assigned_to_user_id: id });
      expect(res.status, String(id)).toBe(404);
      expect(res.body.error).toContain('does not match a user in this workspace');
    }
    expect(await jobCount(w)).toBe(0);
  });
});

describe('POST /v1/jobs: customer linking', () => {
  it('company creates a customer, and the same name (any case/spacing) links the same one', async () => {
    const w = await t.workspace();
    const a = await w.api.post('/v1/jobs', { name: 'C1', company: 'Acme Paving' });
    expect(a.status).toBe(201);
    expect(a.body.data.company).toBe('Acme Paving');
    expect(a.body.data.client_account_id).toBeTypeOf('number');
    const b = await w.api.post('/v1/jobs', { name: 'C2', company: 'acme  PAVING' });
    expect(b.status).toBe(201);
    expect(b.body.data.client_account_id).toBe(a.body.data.client_account_id);
    const list = await customers(w);
    expect(list).toHaveLength(1);
    expect(list[0].name).toBe('Acme Paving');
    expect(list[0].id).toBe(a.body.data.client_account_id);
  });

  it('client_account_id wins over company', async () => {
    const w = await t.workspace();
    const cust = await w.api.post('/v1/client-accounts', { name: 'Real Customer' });
    const res = await w.api.post('/v1/jobs', {
      name: 'Winner',
      company: 'Some Other Name',
      client_account_id: cust.body.data.id,
    });
    expect(res.status).toBe(201);
    expect(res.body.data.client_account_id).toBe(cust.body.data.id);
    const list = await customers(w);
    expect(list.map((c) => c.name)).toEqual(['Real Customer']);
  });

  it('client_account_external_ref links the customer and is shown', async () => {
    const w = await t.workspace();
    const cust = await w.api.post('/v1/client-accounts', { name: 'Ref Customer', external_ref: 'QB-77' });
    const res = await w.api.post('/v1/jobs', { name: 'By Customer Ref', client_account_external_ref: 'QB-77' });
    expect(res.status).toBe(201);
    expect(res.body.data.client_account_id).toBe(cust.body.data.id);
    expect(res.body.data.client_account_external_ref).toBe('QB-77');
    expect(res.body.data.company).toBe('Ref Customer');
    const withCompany = await w.api.post('/v1/jobs', {
      name: 'Ref Beats Company',
      company: 'Nobody Inc',
      client_account_external_ref: 'QB-77',
    });
    expect(withCompany.body.data.client_account_id).toBe(cust.body.data.id);
    expect((await customers(w)).map((c) => c.name)).toEqual(['Ref Customer']);
  });

  it('an unknown or foreign client_account_id is 404; nothing created', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const foreign = await other.api.post('/v1/client-accounts', { name: 'Foreign Customer' });
    for (const id of [999999, foreign.body.data.id]) {
      const res = await w.api.post('/v1/jobs', { name: `Cust ${id}`, client_account_id: id });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('client_account_id not found in this workspace');
    }
    const badRef = await w.api.post('/v1/jobs', { name: 'Cust ref', client_account_external_ref: 'NOPE' });
    expect(badRef.status).toBe(404);
    expect(await jobCount(w)).toBe(0);
  });
});

describe('POST /v1/jobs: site linking', () => {
  it('address creates a site; the same address in another case and punctuation links the same site', async () => {
    const w = await t.workspace();
    const a = await w.api.post('/v1/jobs', { name: 'S1', address: '12 Main St., Suite #4' });
    expect(a.status).toBe(201);
    expect(a.body.data.location_id).toBeTypeOf('number');
    expect(a.body.data.site_id).toBe(String(a.body.data.location_id));
    expect(a.body.data.address).toBe('12 Main St., Suite #4');
    const b = await w.api.post('/v1/jobs', { name: 'S2', address: '12 MAIN ST  Suite 4' });
    expect(b.status).toBe(201);
    expect(b.body.data.location_id).toBe(a.body.data.location_id);
    expect(await sites(w)).toHaveLength(1);
  });

  it('an existing site is linked and its external_ref shown', async () => {
    const w = await t.workspace();
    const site = await w.api.post('/v1/locations', { address: '9 Elm Rd', external_ref: 'SITE-9' });
    expect(site.status).toBe(201);
    const res = await w.api.post('/v1/jobs', { name: 'Elm', address: '9 elm rd.' });
    expect(res.body.data.location_id).toBe(site.body.data.id);
    expect(res.body.data.location_external_ref).toBe('SITE-9');
    expect(await sites(w)).toHaveLength(1);
  });

  it('the new site belongs to the job customer', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/jobs', { name: 'Owned Site', company: 'Site Owner Co', address: '77 Birch Ln' });
    const site = await w.api.get(`/v1/locations/${res.body.data.location_id}`);
    expect(site.status).toBe(200);
    expect(site.body.data.client_account_id).toBe(res.body.data.client_account_id);
  });

  it('with require_company_on_sites and no customer the job is still created, without a site', async () => {
    const w = await t.workspace({ settings: { require_company_on_sites: true } });
    const res = await w.api.post('/v1/jobs', { name: 'No Company', address: '3 Lonely Rd' });
    expect(res.status).toBe(201);
    expect(res.body.data.location_id).toBeNull();
    expect(res.body.data.site_id).toBeNull();
    expect(res.body.data.address).toBe('3 Lonely Rd');
    expect(await sites(w)).toHaveLength(0);
    const withCompany = await w.api.post('/v1/jobs', {
      name: 'Has Company',
      company: 'Owner Co',
      address: '3 Lonely Rd',
    });
    expect(withCompany.status).toBe(201);
    expect(withCompany.body.data.location_id).toBeTypeOf('number');
  });

  it("a job without a customer takes its site's customer", async () => {
    const w = await t.workspace();
    const cust = await w.api.post('/v1/client-accounts', { name: 'Site Customer', external_ref: 'SC-1' });
    const site = await w.api.post('/v1/locations', { address: '400 Oak Ave', client_account_id: cust.body.data.id });
    expect(site.status).toBe(201);
    const res = await w.api.post('/v1/jobs', { name: 'Inherits', address: '400 OAK AVE.' });
    expect(res.status).toBe(201);
    expect(res.body.data.location_id).toBe(site.body.data.id);
    expect(res.body.data.client_account_id).toBe(cust.body.data.id);
    expect(res.body.data.client_account_external_ref).toBe('SC-1');
    expect(res.body.data.company).toBe('Site Customer');
  });
});

describe('POST /v1/jobs: events', () => {
  it('a create records job_created; a rejected create records nothing', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/jobs', { name: 'Evented' });
    const rows = await t.database.db
      .selectFrom('events')
      .select(['event_type', 'job_id'])
      .where('firm_id', '=', w.firmId)
      .execute();
    expect(rows.every((r) => r.job_id === res.body.data.id)).toBe(true);
    expect(rows.map((r) => r.event_type)).toEqual(['job_created', 'job_created']);
    await w.api.post('/v1/jobs', { name: 'Evented' }); // 409
    const after = await t.database.db.selectFrom('events').select('id').where('firm_id', '=', w.firmId).execute();
    expect(after).toHaveLength(2);
  });
});
