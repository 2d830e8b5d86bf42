// PATCH /v1/{jobs|client-accounts|contacts|locations}/{id}/custom-fields and the values on records
// (document 2, Custom fields, Custom field definition "Values", Errors).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, insertContact, startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { jsonLines, rawGet } from '#test/helpers/downloads.ts';
import type { BodyOf } from '#test/helpers/api-types.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const OLD = '2026-01-01T00:00:00.000000';

async function field(w: Workspace, body: BodyOf<'/v1/custom-fields', 'post'>) {
  const res = await w.api.post('/v1/custom-fields', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as Record<string, any>;
}

async function job(w: Workspace, name = 'Sealcoat lot') {
  const res = await w.api.post('/v1/jobs', { name });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as Record<string, any>;
}

/** A workspace with one job field of every type. */
async function jobFields() {
  const w = await t.workspace();
  await field(w, { entity_type: 'job', label: 'Gate code' });
  await field(w, { entity_type: 'job', label: 'Website', field_type: 'url' });
  await field(w, { entity_type: 'job', label: 'Lots', field_type: 'number' });
  await field(w, { entity_type: 'job', label: 'Due', field_type: 'date' });
  await field(w, { entity_type: 'job', label: 'Surface', field_type: 'select', options: ['Asphalt', 'Concrete PAD'] });
  await field(w, { entity_type: 'job', label: 'Night work', field_type: 'checkbox' });
  return { w, j: await job(w) };
}

const setJob = (w: Workspace, id: number, custom_fields: Record<string, unknown>) =>
  w.api.patch(`/v1/jobs/${id}/custom-fields`, { custom_fields });

async function stored(table: 'jobs' | 'client_accounts' | 'contacts' | 'locations', id: number) {
  const row = await t.database.db
    .selectFrom(table)
    .select(['custom_fields', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { values: JSON.parse(row.custom_fields), updated_at: row.updated_at };
}

const activityOf = (jobId: number) =>
  t.database.db.selectFrom('job_activity').selectAll().where('job_id', '=', jobId).orderBy('id').execute();

describe('PATCH /v1/jobs/{id}/custom-fields', () => {
  it('sets values: {data: {entity_type, id, custom_fields, changed}}; GET /v1/jobs/{id} shows them', async () => {
    const { w, j } = await jobFields();
    const res = await setJob(w, j.id, { gate_code: '#4411', lots: 3, night_work: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        entity_type: 'job',
        id: j.id,
        custom_fields: { gate_code: '#4411', lots: 3, night_work: true },
        changed: ['gate_code', 'lots', 'night_work'],
      },
    });
    expect((await w.api.get(`/v1/jobs/${j.id}`)).body.data.custom_fields).toEqual({
      gate_code: '#4411',
      lots: 3,
      night_work: true,
    });
    // Sending only some keys leaves the others as they are.
    const more = await setJob(w, j.id, { lots: 4 });
    expect(more.body.data).toMatchObject({
      custom_fields: { gate_code: '#4411', lots: 4, night_work: true },
      changed: ['lots'],
    });
  });

  it("logs the change in the job's activity log with the labels, before and after; bumps updated_at and records job_updated", async () => {
    const { w, j } = await jobFields();
    await setJob(w, j.id, { lots: 2 });
    await t.database.db.updateTable('jobs').set({ updated_at: OLD }).where('id', '=', j.id).execute();
    await setJob(w, j.id, { lots: 5, gate_code: '99' });
    const log = await activityOf(j.id);
    expect(log).toHaveLength(2);
    expect(log[1]).toMatchObject({
      kind: 'custom_fields_changed',
      user_id: w.ownerId,
      firm_id: w.firmId,
      summary: 'Custom fields changed: Lots, Gate code',
    });
    expect(JSON.parse(log[1].data)).toEqual({
      changed: ['lots', 'gate_code'],
      before: { lots: 2, gate_code: null },
      after: { lots: 5, gate_code: '99' },
    });
    expect(log[0].summary).toBe('Custom field changed: Lots');
    expect((await stored('jobs', j.id)).updated_at > OLD).toBe(true);
    const updates = (await eventsOf(t.database, j.id)).filter((e) => e.event_type === 'job_updated');
    expect(updates.length).toBe(2);
  });

  it('nothing changed: changed [], no log entry, updated_at kept', async () => {
    const { w, j } = await jobFields();
    await setJob(w, j.id, { surface: 'asphalt' });
    await t.database.db.updateTable('jobs').set({ updated_at: OLD }).where('id', '=', j.id).execute();
    const res = await setJob(w, j.id, { surface: 'ASPHALT', lots: null, due: '' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ custom_fields: { surface: 'Asphalt' }, changed: [] });
    expect((await setJob(w, j.id, {})).body.data.changed).toEqual([]);
    expect(await activityOf(j.id)).toHaveLength(1);
    expect((await stored('jobs', j.id)).updated_at).toBe(OLD);
  });

  it('null and "" clear: the key disappears from custom_fields', async () => {
    const { w, j } = await jobFields();
    await setJob(w, j.id, { gate_code: 'A1', lots: 1, night_work: false });
    const res = await setJob(w, j.id, { gate_code: null, lots: '' });
    expect(res.body.data).toMatchObject({ custom_fields: { night_work: false }, changed: ['gate_code', 'lots'] });
    expect((await w.api.get(`/v1/jobs/${j.id}`)).body.data.custom_fields).toEqual({ night_work: false });
    expect(JSON.parse((await activityOf(j.id)).at(-1)!.data).after).toEqual({ gate_code: null, lots: null });
  });

  it("a job the key's user cannot see is 404 Job not found, as is another workspace's job", async () => {
    const { w, j } = await jobFields();
    const own = await t.user(w.firmId, { role: 'member', sees_own_jobs_only: true });
    const hidden = await own.api.patch(`/v1/jobs/${j.id}/custom-fields`, { custom_fields: { lots: 1 } });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toBe('Job not found');
    const other = await t.workspace();
    const foreign = await other.api.patch(`/v1/jobs/${j.id}/custom-fields`, { custom_fields: {} });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('Job not found');
    expect((await stored('jobs', j.id)).values).toEqual({});
  });
});

describe('value rules', () => {
  it('text and url: a string up to 500 characters (501 is 400); other JSON types are 400', async () => {
    const { w, j } = await jobFields();
    const ok = await setJob(w, j.id, { gate_code: 'é'.repeat(500), website: 'https://example.com/x' });
    expect(ok.body.data.custom_fields).toMatchObject({ gate_code: 'é'.repeat(500), website: 'https://example.com/x' });
    for (const [key, value] of [
      ['gate_code', 'x'.repeat(501)],
      ['website', 'u'.repeat(501)],
      ['gate_code', 12],
      ['website', ['a']],
    ] as const) {
      const res = await setJob(w, j.id, { [key]: value });
      expect(res.status, `${key}=${JSON.stringify(value)}`).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_custom_field', field: key });
    }
  });

  it('number: a number or numeric string (stored as a number); anything else is 400', async () => {
    const { w, j } = await jobFields();
    for (const [value, expected] of [
      [12, 12],
      [-3.5, -3.5],
      ['42', 42],
      [' 7.25 ', 7.25],
      ['1e3', 1000],
      [0, 0],
    ] as const) {
      const res = await setJob(w, j.id, { lots: value });
      expect(res.status, String(value)).toBe(200);
      expect(res.body.data.custom_fields.lots).toBe(expected);
    }
    for (const value of ['12 lots', '1,200', 'abc', true, { n: 1 }, '   ']) {
      const res = await setJob(w, j.id, { lots: value });
      expect(res.status, JSON.stringify(value)).toBe(400);
      expect(res.body).toMatchObject({
        error: 'Invalid value for custom field lots',
        code: 'invalid_custom_field',
        field: 'lots',
      });
      expect(res.body.message).toBe('Lots: must be a number');
    }
  });

  it('date: YYYY-MM-DD of a real day', async () => {
    const { w, j } = await jobFields();
    expect((await setJob(w, j.id, { due: '2026-02-28' })).body.data.custom_fields.due).toBe('2026-02-28');
    expect((await setJob(w, j.id, { due: '2028-02-29' })).status).toBe(200);
    for (const value of ['2026-02-30', '2026/03/01', '03/01/2026', '2026-03-01T10:00:00Z', 20260301]) {
      const res = await setJob(w, j.id, { due: value });
      expect(res.status, String(value)).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_custom_field', field: 'due' });
    }
  });

  it('select: one of the options in any case, stored as spelled in the options', async () => {
    const { w, j } = await jobFields();
    expect((await setJob(w, j.id, { surface: 'concrete pad' })).body.data.custom_fields.surface).toBe('Concrete PAD');
    expect((await setJob(w, j.id, { surface: ' ASPHALT ' })).body.data.custom_fields.surface).toBe('Asphalt');
    const res = await setJob(w, j.id, { surface: 'Gravel' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'invalid_custom_field',
      field: 'surface',
      message: 'Surface: must be one of Asphalt, Concrete PAD',
    });
  });

  it('checkbox: true/false or yes/no (any case), stored as booleans', async () => {
    const { w, j } = await jobFields();
    for (const [value, expected] of [
      [true, true],
      [false, false],
      ['yes', true],
      ['No', false],
      ['TRUE', true],
      ['false', false],
    ] as const) {
      const res = await setJob(w, j.id, { night_work: value });
      expect(res.status, String(value)).toBe(200);
      expect(res.body.data.custom_fields.night_work).toBe(expected);
    }
    for (const value of ['maybe', 1, 'y']) {
      const res = await setJob(w, j.id, { night_work: value });
      expect(res.status, String(value)).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_custom_field', field: 'night_work' });
    }
  });
});

describe('errors save nothing', () => {
  it('unknown keys are one 400 unknown_custom_fields listing them all', async () => {
    const { w, j } = await jobFields();
    const res = await setJob(w, j.id, { lots: 1, colour: 'red', size: 2 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: 'Unknown custom fields: colour, size',
      code: 'unknown_custom_fields',
      fields: ['colour', 'size'],
    });
    expect((await stored('jobs', j.id)).values).toEqual({});
  });

  it('a key of another entity type is unknown on this one', async () => {
    const w = await t.workspace();
    await field(w, { entity_type: 'account', label: 'Billing code' });
    const j = await job(w);
    const res = await setJob(w, j.id, { billing_code: 'X' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'unknown_custom_fields', fields: ['billing_code'] });
  });

  it('a mixed good and bad PATCH is 400 invalid_custom_field and saves none of the values', async () => {
    const { w, j } = await jobFields();
    await setJob(w, j.id, { gate_code: 'old' });
    await t.database.db.updateTable('jobs').set({ updated_at: OLD }).where('id', '=', j.id).execute();
    const res = await setJob(w, j.id, { gate_code: 'new', lots: 5, due: 'tomorrow', night_work: 'yes' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_custom_field', field: 'due' });
    expect(await stored('jobs', j.id)).toEqual({ values: { gate_code: 'old' }, updated_at: OLD });
    expect(await activityOf(j.id)).toHaveLength(1);
  });

  it('an archived field keeps its value, read-only: changing or clearing it is 400; resending it is fine', async () => {
    const { w, j } = await jobFields();
    await setJob(w, j.id, { gate_code: 'keep', lots: 1 });
    const gate = (await w.api.get('/v1/custom-fields?entity_type=job')).body.data.find(
      (f: any) => f.key === 'gate_code',
    );
    expect((await w.api.delete(`/v1/custom-fields/${gate!.id}`)).status).toBe(204);
    expect((await w.api.get(`/v1/jobs/${j.id}`)).body.data.custom_fields).toEqual({ gate_code: 'keep', lots: 1 });
    for (const value of ['changed', null]) {
      const res = await setJob(w, j.id, { gate_code: value, lots: 2 });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_custom_field', field: 'gate_code' });
    }
    const same = await setJob(w, j.id, { gate_code: 'keep', lots: 2 });
    expect(same.body.data).toMatchObject({ custom_fields: { gate_code: 'keep', lots: 2 }, changed: ['lots'] });
    await w.api.post(`/v1/custom-fields/${gate!.id}/restore`);
    expect((await setJob(w, j.id, { gate_code: null })).body.data.changed).toEqual(['gate_code']);
  });

  it('custom_fields is required and must be an object; unknown body fields are 400', async () => {
    const { w, j } = await jobFields();
    const missing = await w.api.raw.patch(`/v1/jobs/${j.id}/custom-fields`, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'custom_fields is required', field: 'custom_fields' });
    for (const custom_fields of [null, ['lots'], 'lots=1', 3]) {
      const res = await w.api.raw.patch(`/v1/jobs/${j.id}/custom-fields`, { custom_fields });
      expect(res.status, JSON.stringify(custom_fields)).toBe(400);
      expect(res.body.error).toBe('custom_fields must be an object');
    }
    const extra = await w.api.raw.patch(`/v1/jobs/${j.id}/custom-fields`, { custom_fields: {}, lots: 1 });
    expect(extra.status).toBe(400);
    expect(extra.body).toMatchObject({ code: 'unknown_fields', fields: ['lots'] });
  });

  it('a read-only key is 403 on every value endpoint', async () => {
    const w = await t.workspace();
    const key = await t.key(w.firmId, w.ownerId, ['read_jobs']);
    for (const path of ['jobs', 'client-accounts', 'contacts', 'locations']) {
      const res = await t.as(key).patch(`/v1/${path}/1/custom-fields`, { custom_fields: {} });
      expect(res.status, path).toBe(403);
      expect(res.body.error).toBe('API key lacks job write permission');
    }
  });
});

describe('customers, contacts and sites', () => {
  it('customers: PATCH /v1/client-accounts/{id}/custom-fields; the customer read and customers.jsonl show the values', async () => {
    const w = await t.workspace();
    await field(w, { entity_type: 'account', label: 'Billing code' });
    await field(w, { entity_type: 'account', label: 'Net terms', field_type: 'number' });
    const c = (await w.api.post('/v1/client-accounts', { name: 'Acme HOA' })).body.data;
    await t.database.db.updateTable('client_accounts').set({ updated_at: OLD }).where('id', '=', c.id).execute();
    const res = await w.api.patch(`/v1/client-accounts/${c.id}/custom-fields`, {
      custom_fields: { billing_code: 'AC-1', net_terms: '30' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      entity_type: 'account',
      id: c.id,
      custom_fields: { billing_code: 'AC-1', net_terms: 30 },
      changed: ['billing_code', 'net_terms'],
    });
    const read = (await w.api.get(`/v1/client-accounts/${c.id}`)).body.data;
    expect(read.custom_fields).toEqual({ billing_code: 'AC-1', net_terms: 30 });
    expect(read.updated_at).not.toBe('2026-01-01T00:00:00Z');
    const exported = await rawGet(t, '/v1/exports/customers.jsonl', w.key);
    expect(jsonLines(exported.bytes).find((r) => r.id === c.id).custom_fields).toEqual({
      billing_code: 'AC-1',
      net_terms: 30,
    });
  });

  it("customers: no change keeps updated_at; another workspace's customer is 404 Client account not found", async () => {
    const w = await t.workspace();
    await field(w, { entity_type: 'account', label: 'Billing code' });
    const c = (await w.api.post('/v1/client-accounts', { name: 'Acme HOA' })).body.data;
    await w.api.patch(`/v1/client-accounts/${c.id}/custom-fields`, { custom_fields: { billing_code: 'X' } });
    await t.database.db.updateTable('client_accounts').set({ updated_at: OLD }).where('id', '=', c.id).execute();
    const same = await w.api.patch(`/v1/client-accounts/${c.id}/custom-fields`, {
      custom_fields: { billing_code: 'X' },
    });
    expect(same.body.data.changed).toEqual([]);
    expect((await stored('client_accounts', c.id)).updated_at).toBe(OLD);
    const other = await t.workspace();
    const res = await other.api.patch(`/v1/client-accounts/${c.id}/custom-fields`, { custom_fields: {} });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Client account not found');
  });

  it('sites: PATCH /v1/locations/{id}/custom-fields; GET /v1/locations/{id} shows them; 404 Location not found elsewhere', async () => {
    const w = await t.workspace();
    await field(w, { entity_type: 'location', label: 'Gate', field_type: 'checkbox' });
    const s = (await w.api.post('/v1/locations', { address: '12 Main St' })).body.data;
    const res = await w.api.patch(`/v1/locations/${s.id}/custom-fields`, { custom_fields: { gate: 'yes' } });
    expect(res.body.data).toEqual({
      entity_type: 'location',
      id: s.id,
      custom_fields: { gate: true },
      changed: ['gate'],
    });
    expect((await w.api.get(`/v1/locations/${s.id}`)).body.data.custom_fields).toEqual({ gate: true });
    const bad = await w.api.patch(`/v1/locations/${s.id}/custom-fields`, { custom_fields: { gate: 'perhaps' } });
    expect(bad.status).toBe(400);
    expect((await stored('locations', s.id)).values).toEqual({ gate: true });
    const other = await t.workspace();
    const res404 = await other.api.patch(`/v1/locations/${s.id}/custom-fields`, { custom_fields: {} });
    expect(res404.status).toBe(404);
    expect(res404.body.error).toBe('Location not found');
  });

  it('contacts: PATCH /v1/contacts/{id}/custom-fields saves the values; 404 Contact not found elsewhere', async () => {
    const w = await t.workspace();
    await field(w, { entity_type: 'contact', label: 'Birthday card', field_type: 'date' });
    await field(w, {
      entity_type: 'contact',
      label: 'Role',
      field_type: 'select',
      options: ['Board member', 'Manager'],
    });
    const id = await insertContact(t.database, w.firmId, { name: 'Pat Lee' });
    const res = await w.api.patch(`/v1/contacts/${id}/custom-fields`, {
      custom_fields: { birthday_card: '2026-05-01', role: 'board MEMBER' },
    });
    expect(res.body.data).toEqual({
      entity_type: 'contact',
      id,
      custom_fields: { birthday_card: '2026-05-01', role: 'Board member' },
      changed: ['birthday_card', 'role'],
    });
    const saved = await stored('contacts', id);
    expect(saved.values).toEqual({ birthday_card: '2026-05-01', role: 'Board member' });
    expect(saved.updated_at > OLD).toBe(true);
    const unknown = await w.api.patch(`/v1/contacts/${id}/custom-fields`, {
      custom_fields: { role: 'Manager', shoe: 9 },
    });
    expect(unknown.body).toMatchObject({ code: 'unknown_custom_fields', fields: ['shoe'] });
    expect((await stored('contacts', id)).values.role).toBe('Board member');
    const other = await t.workspace();
    const res404 = await other.api.patch(`/v1/contacts/${id}/custom-fields`, { custom_fields: {} });
    expect(res404.status).toBe(404);
    expect(res404.body.error).toBe('Contact not found');
  });

  it('concurrent PATCHes of different keys on one record all land (no lost update)', async () => {
    const w = await t.workspace();
    const keys = ['a', 'b', 'c', 'd', 'e', 'f'];
    for (const k of keys) await field(w, { entity_type: 'account', label: k, field_type: 'number' });
    const c = (await w.api.post('/v1/client-accounts', { name: 'Busy' })).body.data;
    const answers = await Promise.all(
      keys.map((k, i) => w.api.patch(`/v1/client-accounts/${c.id}/custom-fields`, { custom_fields: { [k]: i } })),
    );
    expect(answers.map((r) => r.status)).toEqual(keys.map(() => 200));
    expect((await stored('client_accounts', c.id)).values).toEqual(Object.fromEntries(keys.map((k, i) => [k, i])));
  });

  it("jobs.jsonl carries the job's custom_fields", async () => {
    const { w, j } = await jobFields();
    await setJob(w, j.id, { gate_code: 'G7', surface: 'asphalt' });
    const rows = jsonLines((await rawGet(t, '/v1/exports/jobs.jsonl', w.key)).bytes);
    expect(rows.find((r) => r.id === j.id).custom_fields).toEqual({ gate_code: 'G7', surface: 'Asphalt' });
  });
});
