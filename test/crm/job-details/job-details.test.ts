// Job details, people on a job, operations assignment and the job's site (document 2, Job details;
// "Job details, site, tags ..." endpoints; docs/api-decisions.md, Job details, site, tags).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertContact, startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

async function job(w: Workspace, body: Record<string, unknown>) {
  const res = await w.api.post('/v1/jobs', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as Record<string, any>;
}

async function details(w: Workspace, jobId: number) {
  const res = await w.api.get(`/v1/jobs/${jobId}/details`);
  expect(res.status).toBe(200);
  return res.body.data as Record<string, any>;
}

const DIVISIONS = [
  { key: 'paving', name: 'Paving' },
  { key: 'seal', name: 'Sealcoating' },
];
const crewWorkspace = () => t.workspace({ settings: { crew_scheduling_enabled: true }, divisions: DIVISIONS });

describe('GET /v1/jobs/{job_id}/details', () => {
  it('has the full shape, with flags null until answered and operations null when crew scheduling is off', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Shape', address: '1 Shape St' });
    const res = await w.api.get(`/v1/jobs/${j.id}/details`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      job_id: j.id,
      job_number: expect.any(Number),
      display_job_number: String(res.body.data.job_number),
      accounting_job_number: null,
      property_reference: null,
      own_property_reference: null,
      external_work_order_number: null,
      description_customer_visible: false,
      bid_due_date: null,
      customer_type: null,
      property_type: null,
      bond_required: null,
      liquidated_damages: null,
      davis_bacon: null,
      liquidated_damages_per_day: null,
      linked_contact_id: null,
      location_id: j.location_id,
      location: { id: j.location_id, name: '1 Shape St', address: '1 Shape St' },
      tags: [],
      operations: null,
    });
  });

  it('a job without a site has location_id and location null', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'No site' });
    const d = await details(w, j.id);
    expect(d.location_id).toBeNull();
    expect(d.location).toBeNull();
  });

  it('404 Job not found for missing and foreign jobs', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const theirs = await job(other, { name: 'Theirs' });
    for (const id of [theirs.id, 999999]) {
      const res = await w.api.get(`/v1/jobs/${id}/details`);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Job not found');
    }
  });
});

describe('job numbers', () => {
  it('are allocated uniquely per workspace, from 1001 upward', async () => {
    const w = await t.workspace();
    const nums = [];
    for (let i = 0; i < 4; i++) nums.push((await details(w, (await job(w, { name: `Numbered ${i}` })).id)).job_number);
    expect(new Set(nums).size).toBe(4);
    expect(nums).toEqual([1001, 1002, 1003, 1004]);
    const other = await t.workspace();
    expect((await details(other, (await job(other, { name: 'First' })).id)).job_number).toBe(1001);
  });

  it('stay unique when jobs are created at the same time', async () => {
    const w = await t.workspace();
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, i) => w.api.post('/v1/jobs', { name: `Parallel ${i}` })),
    );
    for (const res of created) expect(res.status).toBe(201);
    const nums = await Promise.all(created.map(async (res) => (await details(w, res.body.data.id)).job_number));
    expect(new Set(nums).size).toBe(12);
  });

  it('PATCH job_number: a free number is taken, numbers typed by hand are skipped by allocation', async () => {
    const w = await t.workspace();
    const a = await job(w, { name: 'A' });
    const res = await w.api.patch(`/v1/jobs/${a.id}/details`, { job_number: 1002 });
    expect(res.status).toBe(200);
    expect(res.body.data.job_number).toBe(1002);
    expect(res.body.data.display_job_number).toBe('1002');
    const b = await job(w, { name: 'B' });
    // A took 1001; the counter's next, 1002, is A's now: B gets 1003, and the counter moves past it.
    expect((await details(w, b.id)).job_number).toBe(1003);
    expect((await details(w, (await job(w, { name: 'C' })).id)).job_number).toBe(1004);
    // Re-sending its own number is fine.
    expect((await w.api.patch(`/v1/jobs/${a.id}/details`, { job_number: 1002 })).status).toBe(200);
  });

  it('PATCH job_number held by another job is 400 naming the holder, nothing changes', async () => {
    const w = await t.workspace();
    const a = await job(w, { name: 'Holder Job' });
    const b = await job(w, { name: 'Other Job' });
    const na = (await details(w, a.id)).job_number;
    const before = await details(w, b.id);
    const res = await w.api.patch(`/v1/jobs/${b.id}/details`, { job_number: na, accounting_job_number: 'ACC-1' });
    expect(res.status).toBe(400);
    expect(res.body.holder).toEqual({ id: a.id, name: 'Holder Job' });
    expect(res.body.code).toBe('job_number_taken');
    expect(res.body.error).toContain('Holder Job');
    expect(await details(w, b.id)).toEqual(before);
  });

  it('a job number used in another workspace is free here', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    await job(other, { name: 'Theirs' });
    await other.api.patch(`/v1/jobs/${(await job(other, { name: 'Theirs 2' })).id}/details`, { job_number: 5000 });
    const mine = await job(w, { name: 'Mine' });
    const res = await w.api.patch(`/v1/jobs/${mine.id}/details`, { job_number: 5000 });
    expect(res.status).toBe(200);
  });
});

describe('PATCH /v1/jobs/{job_id}/details', () => {
  it('sets every detail field; only sent fields change', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Detailed' });
    const res = await w.api.patch(`/v1/jobs/${j.id}/details`, {
      accounting_job_number: 'QB-77',
      external_work_order_number: 'WO-5',
      description_customer_visible: true,
      bid_due_date: '2026-12-01',
      customer_type: 'Commercial',
      property_type: 'Retail',
      bond_required: true,
      liquidated_damages: false,
      davis_bacon: true,
      liquidated_damages_per_day: 250.5,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      job_id: j.id,
      accounting_job_number: 'QB-77',
      external_work_order_number: 'WO-5',
      description_customer_visible: true,
      bid_due_date: '2026-12-01',
      customer_type: 'Commercial',
      property_type: 'Retail',
      bond_required: true,
      liquidated_damages: false,
      davis_bacon: true,
      liquidated_damages_per_day: 250.5,
    });
    const second = await w.api.patch(`/v1/jobs/${j.id}/details`, {
      davis_bacon: null,
      liquidated_damages_per_day: 0.1,
    });
    expect(second.body.data).toMatchObject({
      accounting_job_number: 'QB-77',
      bond_required: true,
      davis_bacon: null,
      liquidated_damages_per_day: 0.1,
    });
    expect(await details(w, j.id)).toEqual(second.body.data);
  });

  it('accounting_job_number over 80 characters is 400; 80 is fine', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Acct' });
    const long = await w.api.patch(`/v1/jobs/${j.id}/details`, { accounting_job_number: 'x'.repeat(81) });
    expect(long.status).toBe(400);
    expect(long.body.error).toContain('accounting_job_number');
    expect((await details(w, j.id)).accounting_job_number).toBeNull();
    const ok = await w.api.patch(`/v1/jobs/${j.id}/details`, { accounting_job_number: 'y'.repeat(80) });
    expect(ok.status).toBe(200);
    expect(ok.body.data.accounting_job_number).toBe('y'.repeat(80));
    const cleared = await w.api.patch(`/v1/jobs/${j.id}/details`, { accounting_job_number: null });
    expect(cleared.body.data.accounting_job_number).toBeNull();
  });

  it('bad values and unknown fields are 400', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Bad' });
    const before = await details(w, j.id);
    for (const body of [
      { bid_due_date: '2026-13-01' },
      { bid_due_date: 'tomorrow' },
      { bond_required: 'yes' },
      { job_number: 'ten' },
      { liquidated_damages_per_day: 'lots' },
      { description_customer_visible: null },
      { job_name: 'x' },
    ]) {
      const res = await w.api.raw.patch(`/v1/jobs/${j.id}/details`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const unknown = await w.api.raw.patch(`/v1/jobs/${j.id}/details`, { job_name: 'x', crew: 2 });
    expect(unknown.body.fields).toEqual(expect.arrayContaining(['job_name', 'crew']));
    expect(await details(w, j.id)).toEqual(before);
  });

  it("404 for another workspace's job, which stays unchanged", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const theirs = await job(other, { name: 'Theirs' });
    const res = await w.api.patch(`/v1/jobs/${theirs.id}/details`, { accounting_job_number: 'HACK' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Job not found');
    expect((await details(other, theirs.id)).accounting_job_number).toBeNull();
  });
});

describe('property_reference', () => {
  it("falls back to the site's Property ID; the job's own wins; blank or null reverts", async () => {
    const w = await t.workspace();
    const site = await w.api.post('/v1/locations', { address: '40 Ref Rd', property_reference: 'SITE-PID' });
    expect(site.status).toBe(201);
    const j = await job(w, { name: 'Ref', address: '40 Ref Rd' });
    expect(j.location_id).toBe(site.body.data.id);
    let d = await details(w, j.id);
    expect(d.property_reference).toBe('SITE-PID');
    expect(d.own_property_reference).toBeNull();

    const own = await w.api.patch(`/v1/jobs/${j.id}/details`, { property_reference: 'JOB-PID' });
    expect(own.status).toBe(200);
    expect(own.body.data.property_reference).toBe('JOB-PID');
    expect(own.body.data.own_property_reference).toBe('JOB-PID');

    const blank = await w.api.patch(`/v1/jobs/${j.id}/details`, { property_reference: '  ' });
    expect(blank.body.data.property_reference).toBe('SITE-PID');
    expect(blank.body.data.own_property_reference).toBeNull();

    await w.api.patch(`/v1/jobs/${j.id}/details`, { property_reference: 'AGAIN' });
    const nulled = await w.api.patch(`/v1/jobs/${j.id}/details`, { property_reference: null });
    expect(nulled.body.data.property_reference).toBe('SITE-PID');
    expect(nulled.body.data.own_property_reference).toBeNull();

    // The site's Property ID changed through PATCH /v1/locations shows through.
    const changed = await w.api.patch(`/v1/locations/${site.body.data.id}`, { property_reference: 'SITE-PID-2' });
    expect(changed.status).toBe(200);
    d = await details(w, j.id);
    expect(d.property_reference).toBe('SITE-PID-2');
    expect(d.own_property_reference).toBeNull();
  });

  it('is null with no own value and no site', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Bare' });
    expect((await details(w, j.id)).property_reference).toBeNull();
    const own = await w.api.patch(`/v1/jobs/${j.id}/details`, { property_reference: 'OWN' });
    expect(own.body.data.property_reference).toBe('OWN');
  });
});

describe('linked_contact_id', () => {
  it('makes a saved contact the main contact and copies its name, email and phone to the job', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Contact job', contact_name: 'Old Name', contact_email: 'old@x.test' });
    const cid = await insertContact(t.database, w.firmId, {
      name: 'Pat Lee',
      email: 'pat@lee.test',
      phone: '555-0142',
    });
    const res = await w.api.patch(`/v1/jobs/${j.id}/details`, { linked_contact_id: cid });
    expect(res.status).toBe(200);
    expect(res.body.data.linked_contact_id).toBe(cid);
    const read = await w.api.get(`/v1/jobs/${j.id}`);
    expect(read.body.data).toMatchObject({
      contact_name: 'Pat Lee',
      contact_email: 'pat@lee.test',
      contact_phone: '555-0142',
    });
  });

  it('a contact of another workspace is 404 and nothing changes', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const j = await job(w, { name: 'Guarded', contact_name: 'Keep Me' });
    const foreign = await insertContact(t.database, other.firmId, { name: 'Spy', email: 'spy@x.test' });
    const res = await w.api.patch(`/v1/jobs/${j.id}/details`, { linked_contact_id: foreign });
    expect(res.status).toBe(404);
    expect((await details(w, j.id)).linked_contact_id).toBeNull();
    expect((await w.api.get(`/v1/jobs/${j.id}`)).body.data.contact_name).toBe('Keep Me');
    const missing = await w.api.patch(`/v1/jobs/${j.id}/details`, { linked_contact_id: 888888 });
    expect(missing.status).toBe(404);
  });

  it('a contact of another customer is 400', async () => {
    const w = await t.workspace();
    const mine = (await w.api.post('/v1/client-accounts', { name: 'Mine Co' })).body.data;
    const theirs = (await w.api.post('/v1/client-accounts', { name: 'Other Co' })).body.data;
    const j = await job(w, { name: 'Customer job', client_account_id: mine.id });
    const stranger = await insertContact(t.database, w.firmId, { name: 'Stranger', client_account_id: theirs.id });
    const res = await w.api.patch(`/v1/jobs/${j.id}/details`, { linked_contact_id: stranger });
    expect(res.status).toBe(400);
    expect((await details(w, j.id)).linked_contact_id).toBeNull();
    const friend = await insertContact(t.database, w.firmId, { name: 'Friend', client_account_id: mine.id });
    expect((await w.api.patch(`/v1/jobs/${j.id}/details`, { linked_contact_id: friend })).status).toBe(200);
  });
});

describe('DELETE /v1/jobs/{job_id}/contacts/{contact_id}', () => {
  it('takes the person off the job (204); a second call is 404', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'People job' });
    const cid = await insertContact(t.database, w.firmId, { name: 'On Job', email: 'on@job.test' });
    expect((await w.api.patch(`/v1/jobs/${j.id}/details`, { linked_contact_id: cid })).status).toBe(200);
    const res = await w.api.delete(`/v1/jobs/${j.id}/contacts/${cid}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    expect((await details(w, j.id)).linked_contact_id).toBeNull();
    const again = await w.api.delete(`/v1/jobs/${j.id}/contacts/${cid}`);
    expect(again.status).toBe(404);
  });

  it("404 when the person is not on the job, and for another workspace's job", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const j = await job(w, { name: 'Empty job' });
    const cid = await insertContact(t.database, w.firmId, { name: 'Not On Job' });
    expect((await w.api.delete(`/v1/jobs/${j.id}/contacts/${cid}`)).status).toBe(404);
    const theirJob = await job(other, { name: 'Their job' });
    const theirContact = await insertContact(t.database, other.firmId, { name: 'Theirs' });
    await other.api.patch(`/v1/jobs/${theirJob.id}/details`, { linked_contact_id: theirContact });
    const foreign = await w.api.delete(`/v1/jobs/${theirJob.id}/contacts/${theirContact}`);
    expect(foreign.status).toBe(404);
    expect((await details(other, theirJob.id)).linked_contact_id).toBe(theirContact);
  });

  it('when the main person leaves, another person on the job becomes the main one', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Two people' });
    const first = await insertContact(t.database, w.firmId, { name: 'First' });
    const second = await insertContact(t.database, w.firmId, { name: 'Second' });
    await w.api.patch(`/v1/jobs/${j.id}/details`, { linked_contact_id: first });
    await w.api.patch(`/v1/jobs/${j.id}/details`, { linked_contact_id: second });
    expect((await details(w, j.id)).linked_contact_id).toBe(second);
    expect((await w.api.delete(`/v1/jobs/${j.id}/contacts/${second}`)).status).toBe(204);
    expect((await details(w, j.id)).linked_contact_id).toBe(first);
  });
});

describe('PATCH /v1/jobs/{job_id}/operations-assignment', () => {
  it('403 when crew scheduling is off', async () => {
    const w = await t.workspace({ divisions: DIVISIONS });
    const j = await job(w, { name: 'Ops off' });
    const res = await w.api.patch(`/v1/jobs/${j.id}/operations-assignment`, { division: 'paving' });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Crew scheduling not enabled');
    expect((await details(w, j.id)).operations).toBeNull();
  });

  it('403 view_only for a member without schedule edit permission; a schedule editor may', async () => {
    const w = await crewWorkspace();
    const j = await job(w, { name: 'Ops perms' });
    const member = await t.user(w.firmId, { role: 'member' });
    const denied = await member.api.patch(`/v1/jobs/${j.id}/operations-assignment`, { division: 'paving' });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('view_only');
    expect((await details(w, j.id)).operations.division).toBeNull();
    const editor = await t.user(w.firmId, { role: 'member', schedule_editor: true });
    const ok = await editor.api.patch(`/v1/jobs/${j.id}/operations-assignment`, { division: 'seal' });
    expect(ok.status).toBe(200);
    expect(ok.body.data!.division).toBe('seal');
  });

  it('the owner sets division and assignee; details.operations reflects it', async () => {
    const w = await crewWorkspace();
    const j = await job(w, { name: 'Ops owner' });
    const crewLead = await t.user(w.firmId, { name: 'Casey Crew', role: 'member' });
    expect((await details(w, j.id)).operations).toEqual({
      division: null,
      division_name: null,
      division_options: DIVISIONS,
      assignee_user_id: null,
      assignee: null,
    });
    const res = await w.api.patch(`/v1/jobs/${j.id}/operations-assignment`, {
      division: 'paving',
      operations_assignee_user_id: crewLead.id,
    });
    expect(res.status).toBe(200);
    const expected = {
      division: 'paving',
      division_name: 'Paving',
      division_options: DIVISIONS,
      assignee_user_id: crewLead.id,
      assignee: { id: crewLead.id, name: 'Casey Crew' },
    };
    expect(res.body.data).toEqual(expected);
    expect((await details(w, j.id)).operations).toEqual(expected);

    const cleared = await w.api.patch(`/v1/jobs/${j.id}/operations-assignment`, {
      division: null,
      operations_assignee_user_id: null,
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toEqual({
      division: null,
      division_name: null,
      division_options: DIVISIONS,
      assignee_user_id: null,
      assignee: null,
    });

    // Turning crew scheduling off hides operations and refuses the assignment at once.
    expect(
      (await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { crew_scheduling_enabled: false } }))
        .status,
    ).toBe(200);
    expect((await details(w, j.id)).operations).toBeNull();
    const off = await w.api.patch(`/v1/jobs/${j.id}/operations-assignment`, { division: 'paving' });
    expect(off.status).toBe(403);
  });

  it('division must be one of the workspace divisions (400)', async () => {
    const w = await crewWorkspace();
    const j = await job(w, { name: 'Ops division' });
    const res = await w.api.patch(`/v1/jobs/${j.id}/operations-assignment`, { division: 'snow' });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('division');
    expect((await details(w, j.id)).operations.division).toBeNull();
  });

  it('an assignee of another workspace, or a removed user, is 404', async () => {
    const w = await crewWorkspace();
    const other = await t.workspace();
    const j = await job(w, { name: 'Ops assignee' });
    const gone = await t.user(w.firmId, { role: 'member' });
    await t.admin.delete(`/admin/v1/workspaces/${w.firmId}/users/${gone.id}`);
    for (const id of [other.ownerId, gone.id, 999999]) {
      const res = await w.api.patch(`/v1/jobs/${j.id}/operations-assignment`, { operations_assignee_user_id: id });
      expect(res.status, String(id)).toBe(404);
    }
    expect((await details(w, j.id)).operations.assignee_user_id).toBeNull();
  });

  it("an unknown field is 400; another workspace's job is 404", async () => {
    const w = await crewWorkspace();
    const other = await crewWorkspace();
    const j = await job(w, { name: 'Ops strict' });
    expect((await w.api.raw.patch(`/v1/jobs/${j.id}/operations-assignment`, { crew_id: 1 })).status).toBe(400);
    const theirs = await job(other, { name: 'Ops theirs' });
    const res = await w.api.patch(`/v1/jobs/${theirs.id}/operations-assignment`, { division: 'paving' });
    expect(res.status).toBe(404);
    expect((await details(other, theirs.id)).operations.division).toBeNull();
  });
});

describe('PUT /v1/jobs/{job_id}/location', () => {
  it("{location_id} links a site; a job without address and customer takes the site's", async () => {
    const w = await t.workspace();
    const c = (await w.api.post('/v1/client-accounts', { name: 'Site Owner LLC' })).body.data;
    const site = (
      await w.api.post('/v1/locations', { address: '77 Link Ln', name: 'Link Yard', client_account_id: c.id })
    ).body.data;
    const j = await job(w, { name: 'Linkless' });
    const res = await w.api.put(`/v1/jobs/${j.id}/location`, { location_id: site.id });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      job_id: j.id,
      location_id: site.id,
      location: { id: site.id, name: 'Link Yard', address: '77 Link Ln' },
      client_account_id: c.id,
    });
    const read = (await w.api.get(`/v1/jobs/${j.id}`)).body.data;
    expect(read).toMatchObject({
      location_id: site.id,
      address: '77 Link Ln',
      client_account_id: c.id,
      company: 'Site Owner LLC',
    });
    expect((await details(w, j.id)).location).toEqual({ id: site.id, name: 'Link Yard', address: '77 Link Ln' });
  });

  it('a job with its own address and customer keeps them when linked', async () => {
    const w = await t.workspace();
    const mine = (await w.api.post('/v1/client-accounts', { name: 'Mine' })).body.data;
    const theirs = (await w.api.post('/v1/client-accounts', { name: 'Theirs' })).body.data;
    const site = (await w.api.post('/v1/locations', { address: '1 Far Rd', client_account_id: theirs.id })).body.data;
    const j = await job(w, { name: 'Own address', address: '2 Near Rd', client_account_id: mine.id });
    const res = await w.api.put(`/v1/jobs/${j.id}/location`, { location_id: site.id });
    expect(res.status).toBe(200);
    expect(res.body.data.client_account_id).toBe(mine.id);
    const read = (await w.api.get(`/v1/jobs/${j.id}`)).body.data;
    expect(read).toMatchObject({ location_id: site.id, address: '2 Near Rd', client_account_id: mine.id });
  });

  it('{location_id: null} detaches the site; the address stays', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Detach', address: '5 Detach Dr' });
    expect(j.location_id).toEqual(expect.any(Number));
    const res = await w.api.put(`/v1/jobs/${j.id}/location`, { location_id: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ job_id: j.id, location_id: null, location: null });
    const read = (await w.api.get(`/v1/jobs/${j.id}`)).body.data;
    expect(read.location_id).toBeNull();
    expect(read.address).toBe('5 Detach Dr');
  });

  it("{create_from_address: true} links the existing site at the job's address", async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Relink', address: '8 Relink Rd' });
    const siteId = j.location_id;
    await w.api.put(`/v1/jobs/${j.id}/location`, { location_id: null });
    const res = await w.api.put(`/v1/jobs/${j.id}/location`, { create_from_address: true });
    expect(res.status).toBe(200);
    expect(res.body.data.location_id).toBe(siteId);
    expect((await w.api.get('/v1/locations')).body.pagination.total).toBe(1);
  });

  it("{create_from_address: true} saves the job's address as a new site when none exists", async () => {
    const w = await t.workspace();
    const c = (await w.api.post('/v1/client-accounts', { name: 'Fresh Co' })).body.data;
    const j = await job(w, { name: 'New site', address: '9 Fresh Ave', client_account_id: c.id });
    await w.api.put(`/v1/jobs/${j.id}/location`, { location_id: null });
    // Move the old site elsewhere, so no site is at the job's address any more.
    await w.api.patch(`/v1/locations/${j.location_id}`, { address: '10 Elsewhere Ave' });
    const res = await w.api.put(`/v1/jobs/${j.id}/location`, { create_from_address: true });
    expect(res.status).toBe(200);
    expect(res.body.data.location_id).not.toBe(j.location_id);
    expect(res.body.data.location).toMatchObject({ address: '9 Fresh Ave' });
    expect(res.body.data.client_account_id).toBe(c.id);
    const created = await w.api.get(`/v1/locations/${res.body.data.location_id}`);
    expect(created.body.data.client_account_id).toBe(c.id);
    expect((await w.api.get(`/v1/jobs/${j.id}`)).body.data.location_id).toBe(res.body.data.location_id);
    const sites = (await w.api.get('/v1/locations')).body.data.map((s: any) => s.address);
    expect(sites).toEqual(['10 Elsewhere Ave', '9 Fresh Ave']);
  });

  it('{create_from_address: true} on a job without an address is 422', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'No address' });
    const res = await w.api.put(`/v1/jobs/${j.id}/location`, { create_from_address: true });
    expect(res.status).toBe(422);
    expect((await w.api.get('/v1/locations')).body.pagination.total).toBe(0);
  });

  it('both or neither of location_id and create_from_address is 400', async () => {
    const w = await t.workspace();
    const site = (await w.api.post('/v1/locations', { address: '3 Either Way' })).body.data;
    const j = await job(w, { name: 'Either', address: '4 Either Way' });
    for (const body of [
      {},
      { location_id: site.id, create_from_address: true },
      { create_from_address: false },
      { location_id: null, create_from_address: true },
    ]) {
      const res = await w.api.put(`/v1/jobs/${j.id}/location`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await w.api.get(`/v1/jobs/${j.id}`)).body.data.location_id).toBe(j.location_id);
    expect((await w.api.raw.put(`/v1/jobs/${j.id}/location`, { site_id: site.id })).status).toBe(400);
  });

  it('a site of another workspace is 404, and the job keeps its site', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const theirs = (await other.api.post('/v1/locations', { address: '1 Foreign Rd' })).body.data;
    const j = await job(w, { name: 'Foreign link', address: '2 Home Rd' });
    const res = await w.api.put(`/v1/jobs/${j.id}/location`, { location_id: theirs.id });
    expect(res.status).toBe(404);
    expect((await w.api.get(`/v1/jobs/${j.id}`)).body.data.location_id).toBe(j.location_id);
    const theirJob = await job(other, { name: 'Their job' });
    const mine = (await w.api.post('/v1/locations', { address: '3 Home Rd' })).body.data;
    const res2 = await w.api.put(`/v1/jobs/${theirJob.id}/location`, { location_id: mine.id });
    expect(res2.status).toBe(404);
    expect((await other.api.get(`/v1/jobs/${theirJob.id}`)).body.data.location_id).toBeNull();
  });
});
