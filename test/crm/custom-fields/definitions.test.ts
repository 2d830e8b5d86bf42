// /v1/custom-fields: definitions and their owner-only setup (document 2, Custom field definition,
// Custom fields, Errors; document 1, Roles: custom-field setup is owner-only).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type Client, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import type { BodyOf } from '#test/helpers/api-types.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

async function field(api: Client, body: BodyOf<'/v1/custom-fields', 'post'>) {
  const res = await api.post('/v1/custom-fields', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.created).toBe(true);
  return res.body.data as Record<string, any>;
}

async function list(w: Workspace, query = '') {
  const res = await w.api.get(`/v1/custom-fields${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Record<string, any>[];
}

/** [key, position] of the entity's fields as the list shows them. */
async function order(w: Workspace, entity: string, includeArchived = false) {
  const rows = await list(w, `?entity_type=${entity}${includeArchived ? '&include_archived=true' : ''}`);
  return rows.map((r) => [r.key, r.position, r.archived_at === null ? 'live' : 'archived']);
}

async function member(w: Workspace, permissions?: string[]) {
  return (await t.user(w.firmId, { role: 'member' }, permissions)).api;
}

describe('POST /v1/custom-fields', () => {
  it('creates a field: 201 {data: field, created: true} with every attribute of the resource', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/custom-fields', { entity_type: 'job', label: 'Gate code' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      created: true,
      data: {
        id: expect.any(Number),
        entity_type: 'job',
        key: 'gate_code',
        label: 'Gate code',
        field_type: 'text',
        options: [],
        required: false,
        filterable: false,
        show_as_flag: false,
        section: 'job_details',
        position: 1,
        archived_at: null,
        created_at: expect.stringMatching(Z),
        updated_at: expect.stringMatching(Z),
      },
    });
  });

  it('takes every field type, required, filterable and show_as_flag', async () => {
    const w = await t.workspace();
    for (const field_type of ['text', 'number', 'date', 'checkbox', 'url'] as const) {
      const f = await field(w.api, { entity_type: 'job', label: `A ${field_type}`, field_type });
      expect(f.field_type).toBe(field_type);
      expect(f.options).toEqual([]);
    }
    const select = await field(w.api, {
      entity_type: 'job',
      label: 'Surface',
      field_type: 'select',
      options: ['Asphalt', 'Concrete'],
      required: true,
      filterable: true,
      show_as_flag: true,
    });
    expect(select).toMatchObject({
      field_type: 'select',
      options: ['Asphalt', 'Concrete'],
      required: true,
      filterable: true,
      show_as_flag: true,
      position: 6,
    });
  });

  it('the default section follows the entity; positions count per entity type', async () => {
    const w = await t.workspace();
    const expected = {
      job: 'job_details',
      account: 'company_profile',
      contact: 'contact_identity',
      location: 'location_identity',
    } as const;
    for (const [entity_type, section] of Object.entries(expected) as [keyof typeof expected, string][]) {
      const f = await field(w.api, { entity_type, label: 'First' });
      expect(f).toMatchObject({ entity_type, section, position: 1, key: 'first' });
      expect((await field(w.api, { entity_type, label: 'Second' })).position).toBe(2);
    }
  });

  it('the key is the slug of the label; a taken key gets _2, _3 (archived fields included)', async () => {
    const w = await t.workspace();
    expect((await field(w.api, { entity_type: 'job', label: '  Gate Code #1 (north)!  ' })).key).toBe(
      'gate_code_1_north',
    );
    expect((await field(w.api, { entity_type: 'job', label: 'Café size' })).key).toBe('cafe_size');
    expect((await field(w.api, { entity_type: 'job', label: '!!!' })).key).toBe('field');
    const a = await field(w.api, { entity_type: 'job', label: 'Lot size' });
    const b = await field(w.api, { entity_type: 'job', label: 'Lot-size' });
    expect([a.key, b.key]).toEqual(['lot_size', 'lot_size_2']);
    expect((await w.api.delete(`/v1/custom-fields/${b.id}`)).status).toBe(204);
    expect((await field(w.api, { entity_type: 'job', label: 'Lot: size' })).key).toBe('lot_size_3');
    // Another entity holds its own keys.
    expect((await field(w.api, { entity_type: 'account', label: 'Lot size' })).key).toBe('lot_size');
  });

  it('an existing label in any case answers that field: 200 created false, nothing added', async () => {
    const w = await t.workspace();
    const f = await field(w.api, { entity_type: 'account', label: 'Billing Code' });
    for (const label of ['Billing Code', 'billing code', '  BILLING   CODE ']) {
      const res = await w.api.post('/v1/custom-fields', { entity_type: 'account', label, field_type: 'number' });
      expect(res.status, label).toBe(200);
      expect(res.body).toEqual({ data: f, created: false });
    }
    expect(await list(w, '?entity_type=account')).toHaveLength(1);
    // The same label on another entity is a new field.
    expect((await field(w.api, { entity_type: 'job', label: 'Billing Code' })).entity_type).toBe('job');
  });

  it('an existing archived label is restored (at the end of the live fields) and answered with created false', async () => {
    const w = await t.workspace();
    const a = await field(w.api, { entity_type: 'contact', label: 'Shoe size' });
    await field(w.api, { entity_type: 'contact', label: 'Nickname' });
    expect((await w.api.delete(`/v1/custom-fields/${a.id}`)).status).toBe(204);
    const res = await w.api.post('/v1/custom-fields', { entity_type: 'contact', label: 'shoe SIZE' });
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(false);
    expect(res.body.data).toMatchObject({
      id: a.id,
      key: 'shoe_size',
      label: 'Shoe size',
      archived_at: null,
      position: 2,
    });
    expect(await order(w, 'contact')).toEqual([
      ['nickname', 1, 'live'],
      ['shoe_size', 2, 'live'],
    ]);
  });

  it('concurrent creates of one label make one field; the others answer it with created false', async () => {
    const w = await t.workspace();
    const answers = await Promise.all(
      ['Crew size', 'crew size', 'CREW SIZE', 'Crew  size'].map((label) =>
        w.api.post('/v1/custom-fields', { entity_type: 'job', label }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(answers.map((r) => r.body.data.id)).size).toBe(1);
    expect(await order(w, 'job')).toEqual([['crew_size', 1, 'live']]);
  });

  it('options are trimmed and de-duplicated in any case (first spelling kept); non-select types keep none', async () => {
    const w = await t.workspace();
    const f = await field(w.api, {
      entity_type: 'job',
      label: 'Color',
      field_type: 'select',
      options: [' Red ', 'red', 'Blue', '', 'BLUE', 'Green'],
    });
    expect(f.options).toEqual(['Red', 'Blue', 'Green']);
    const text = await field(w.api, { entity_type: 'job', label: 'Notes', field_type: 'text', options: ['x'] });
    expect(text.options).toEqual([]);
  });

  it('a select without options is 400 Add at least one dropdown option.', async () => {
    const w = await t.workspace();
    for (const options of [undefined, [], ['  ', '']]) {
      const res = await w.api.post('/v1/custom-fields', {
        entity_type: 'job',
        label: 'Pick',
        field_type: 'select',
        ...(options ? { options } : {}),
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'Add at least one dropdown option.', field: 'options' });
    }
    expect(await list(w)).toEqual([]);
  });

  it('a missing or blank label is 400 Give the field a name.; over 120 characters is 400', async () => {
    const w = await t.workspace();
    for (const body of [
      { entity_type: 'job' },
      { entity_type: 'job', label: '' },
      { entity_type: 'job', label: '   ' },
    ]) {
      const res = await w.api.raw.post('/v1/custom-fields', body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'Give the field a name.', field: 'label' });
    }
    const long = await w.api.post('/v1/custom-fields', { entity_type: 'job', label: 'x'.repeat(121) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ error: 'label must be at most 120 characters', field: 'label' });
    expect((await field(w.api, { entity_type: 'job', label: ` ${'y'.repeat(120)} ` })).label).toBe('y'.repeat(120));
  });

  it('entity_type and field_type must be one of the listed values; entity_type is required', async () => {
    const w = await t.workspace();
    const entity = await w.api.raw.post('/v1/custom-fields', { entity_type: 'invoice', label: 'X' });
    expect(entity.status).toBe(400);
    expect(entity.body).toMatchObject({
      error: 'entity_type must be one of job, account, contact, location',
      field: 'entity_type',
    });
    const type = await w.api.raw.post('/v1/custom-fields', { entity_type: 'job', label: 'X', field_type: 'email' });
    expect(type.status).toBe(400);
    expect(type.body).toMatchObject({
      error: 'field_type must be one of text, number, date, select, checkbox, url',
      field: 'field_type',
    });
    const missing = await w.api.raw.post('/v1/custom-fields', { label: 'X' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'entity_type is required', field: 'entity_type' });
    const unknown = await w.api.raw.post('/v1/custom-fields', { entity_type: 'job', label: 'X', section: 'billing' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'unknown_fields', fields: ['section'] });
  });

  it('show_as_flag is for job fields and filterable for job, account and contact fields', async () => {
    const w = await t.workspace();
    const flag = await w.api.post('/v1/custom-fields', { entity_type: 'account', label: 'VIP', show_as_flag: true });
    expect(flag.status).toBe(400);
    expect(flag.body).toMatchObject({ error: 'show_as_flag can only be set on job fields', field: 'show_as_flag' });
    const filter = await w.api.post('/v1/custom-fields', { entity_type: 'location', label: 'Zone', filterable: true });
    expect(filter.status).toBe(400);
    expect(filter.body).toMatchObject({
      error: 'filterable can only be set on job, account and contact fields',
      field: 'filterable',
    });
    expect((await field(w.api, { entity_type: 'account', label: 'Tier', filterable: true })).filterable).toBe(true);
    expect((await field(w.api, { entity_type: 'contact', label: 'Tier', filterable: true })).filterable).toBe(true);
    expect(
      (await field(w.api, { entity_type: 'location', label: 'Zone', filterable: false, show_as_flag: false }))
        .filterable,
    ).toBe(false);
  });

  it('any write key may create fields (not only owners); a read-only key is 403', async () => {
    const w = await t.workspace();
    const res = await (await member(w)).post('/v1/custom-fields', { entity_type: 'job', label: 'Member made' });
    expect(res.status).toBe(201);
    const readOnly = await member(w, ['read_jobs']);
    const denied = await readOnly.post('/v1/custom-fields', { entity_type: 'job', label: 'Nope' });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('API key lacks job write permission');
  });
});

describe('GET /v1/custom-fields', () => {
  it('lists live fields by entity type (job, account, contact, location) then position', async () => {
    const w = await t.workspace();
    await field(w.api, { entity_type: 'location', label: 'L1' });
    await field(w.api, { entity_type: 'account', label: 'A1' });
    await field(w.api, { entity_type: 'job', label: 'J1' });
    await field(w.api, { entity_type: 'account', label: 'A2' });
    await field(w.api, { entity_type: 'contact', label: 'C1' });
    await field(w.api, { entity_type: 'job', label: 'J2' });
    const res = await w.api.get('/v1/custom-fields');
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data.map((f: any) => `${f.entity_type}:${f.key}:${f.position}`)).toEqual([
      'job:j1:1',
      'job:j2:2',
      'account:a1:1',
      'account:a2:2',
      'contact:c1:1',
      'location:l1:1',
    ]);
  });

  it('entity_type filters; include_archived adds archived fields after the live ones', async () => {
    const w = await t.workspace();
    const a = await field(w.api, { entity_type: 'job', label: 'A' });
    await field(w.api, { entity_type: 'job', label: 'B' });
    await field(w.api, { entity_type: 'account', label: 'Other' });
    await w.api.delete(`/v1/custom-fields/${a.id}`);
    expect(await order(w, 'job')).toEqual([['b', 1, 'live']]);
    expect(await order(w, 'job', true)).toEqual([
      ['b', 1, 'live'],
      ['a', 2, 'archived'],
    ]);
    const archived = (await list(w, '?include_archived=true')).find((f) => f.id === a.id)!;
    expect(archived.archived_at).toMatch(Z);
  });

  it('an unknown entity_type is 400; another workspace sees none of these fields; read needs read_jobs', async () => {
    const w = await t.workspace();
    await field(w.api, { entity_type: 'job', label: 'Mine' });
    const bad = await w.api.get('/v1/custom-fields?entity_type=jobs');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('entity_type must be one of job, account, contact, location');
    expect(await list(await t.workspace())).toEqual([]);
    const writeOnly = await member(w, ['write_jobs']);
    expect((await writeOnly.get('/v1/custom-fields')).status).toBe(403);
  });
});

describe('PATCH /v1/custom-fields/{id}', () => {
  it('changes label (the key stays), required, section, show_as_flag and filterable of a job field', async () => {
    const w = await t.workspace();
    const f = await field(w.api, { entity_type: 'job', label: 'Gate code' });
    const res = await w.api.patch(`/v1/custom-fields/${f.id}`, {
      label: ' Gate / door code ',
      required: true,
      section: 'job_location',
      show_as_flag: true,
      filterable: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: f.id,
      key: 'gate_code',
      label: 'Gate / door code',
      required: true,
      section: 'job_location',
      show_as_flag: true,
      filterable: true,
    });
    expect((await list(w))[0]).toEqual(res.body.data);
  });

  it('a label held by another field of the entity (any case, archived too) is 400 A field named "X" already exists.', async () => {
    const w = await t.workspace();
    const a = await field(w.api, { entity_type: 'account', label: 'Region' });
    const b = await field(w.api, { entity_type: 'account', label: 'Territory' });
    const res = await w.api.patch(`/v1/custom-fields/${b.id}`, { label: 'REGION' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'A field named "Region" already exists.', field: 'label' });
    await w.api.delete(`/v1/custom-fields/${a.id}`);
    expect((await w.api.patch(`/v1/custom-fields/${b.id}`, { label: 'region' })).status).toBe(400);
    // Its own label in another case is fine; another entity's label is fine.
    expect((await w.api.patch(`/v1/custom-fields/${b.id}`, { label: 'TERRITORY' })).body.data.label).toBe('TERRITORY');
    await field(w.api, { entity_type: 'job', label: 'Zone' });
    expect((await w.api.patch(`/v1/custom-fields/${b.id}`, { label: 'Zone' })).status).toBe(200);
    expect((await w.api.patch(`/v1/custom-fields/${b.id}`, { label: '  ' })).body.error).toBe('Give the field a name.');
  });

  it("section must be one of the entity's sections", async () => {
    const w = await t.workspace();
    const cases = {
      job: 'job_location, company_contact, job_details',
      account: 'company_profile, billing, company_notes',
      contact: 'contact_identity, communication, contact_notes',
      location: 'location_identity, property_context, location_notes',
    } as const;
    for (const [entity_type, sections] of Object.entries(cases) as [keyof typeof cases, string][]) {
      const f = await field(w.api, { entity_type, label: 'S' });
      const bad = await w.api.patch(`/v1/custom-fields/${f.id}`, {
        section: entity_type === 'job' ? 'billing' : 'job_details',
      });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: `section must be one of ${sections}`, field: 'section' });
      const last = sections.split(', ').at(-1)!;
      expect((await w.api.patch(`/v1/custom-fields/${f.id}`, { section: last })).body.data.section).toBe(last);
    }
  });

  it('show_as_flag and filterable can only be changed on job fields', async () => {
    const w = await t.workspace();
    const f = await field(w.api, { entity_type: 'account', label: 'Tier', filterable: true });
    const flag = await w.api.patch(`/v1/custom-fields/${f.id}`, { show_as_flag: true });
    expect(flag.status).toBe(400);
    expect(flag.body).toMatchObject({ error: 'show_as_flag can only be changed on job fields' });
    const filter = await w.api.patch(`/v1/custom-fields/${f.id}`, { filterable: false });
    expect(filter.status).toBe(400);
    expect(filter.body).toMatchObject({ error: 'filterable can only be changed on job fields' });
    expect((await list(w))[0]).toMatchObject({ show_as_flag: false, filterable: true });
  });

  it('field_type, options and key cannot be changed (unknown fields)', async () => {
    const w = await t.workspace();
    const f = await field(w.api, { entity_type: 'job', label: 'Fixed' });
    const res = await w.api.raw.patch(`/v1/custom-fields/${f.id}`, { key: 'other', field_type: 'number' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'unknown_fields', fields: ['key', 'field_type'] });
  });

  it('an unchanged PATCH keeps updated_at', async () => {
    const w = await t.workspace();
    const f = await field(w.api, { entity_type: 'job', label: 'Same' });
    await t.database.db
      .updateTable('custom_field_definitions')
      .set({ updated_at: '2026-01-01T00:00:00.000000' })
      .where('id', '=', f.id)
      .execute();
    const res = await w.api.patch(`/v1/custom-fields/${f.id}`, {
      label: 'Same',
      required: false,
      section: 'job_details',
    });
    expect(res.body.data.updated_at).toBe('2026-01-01T00:00:00Z');
  });
});

describe('POST /v1/custom-fields/{id}/move', () => {
  it('swaps with the neighbour up or down; at either end it is a no-op 200', async () => {
    const w = await t.workspace();
    const a = await field(w.api, { entity_type: 'job', label: 'A' });
    const b = await field(w.api, { entity_type: 'job', label: 'B' });
    const c = await field(w.api, { entity_type: 'job', label: 'C' });
    const down = await w.api.post(`/v1/custom-fields/${a.id}/move`, { direction: 'down' });
    expect(down.status).toBe(200);
    expect(down.body.data).toMatchObject({ id: a.id, position: 2 });
    expect(await order(w, 'job')).toEqual([
      ['b', 1, 'live'],
      ['a', 2, 'live'],
      ['c', 3, 'live'],
    ]);
    expect((await w.api.post(`/v1/custom-fields/${c.id}/move`, { direction: 'up' })).body.data.position).toBe(2);
    expect(await order(w, 'job')).toEqual([
      ['b', 1, 'live'],
      ['c', 2, 'live'],
      ['a', 3, 'live'],
    ]);
    const top = await w.api.post(`/v1/custom-fields/${b.id}/move`, { direction: 'up' });
    expect(top.status).toBe(200);
    expect(top.body.data.position).toBe(1);
    expect((await w.api.post(`/v1/custom-fields/${a.id}/move`, { direction: 'down' })).body.data.position).toBe(3);
    expect(await order(w, 'job')).toEqual([
      ['b', 1, 'live'],
      ['c', 2, 'live'],
      ['a', 3, 'live'],
    ]);
  });

  it('skips archived fields: the neighbour is the next live field', async () => {
    const w = await t.workspace();
    const a = await field(w.api, { entity_type: 'location', label: 'A' });
    const b = await field(w.api, { entity_type: 'location', label: 'B' });
    await field(w.api, { entity_type: 'location', label: 'C' });
    await w.api.delete(`/v1/custom-fields/${b.id}`);
    expect((await w.api.post(`/v1/custom-fields/${a.id}/move`, { direction: 'down' })).body.data.position).toBe(2);
    expect(await order(w, 'location', true)).toEqual([
      ['c', 1, 'live'],
      ['a', 2, 'live'],
      ['b', 3, 'archived'],
    ]);
  });

  it('an archived field is 409 archived; direction must be up or down', async () => {
    const w = await t.workspace();
    const a = await field(w.api, { entity_type: 'job', label: 'A' });
    const bad = await w.api.raw.post(`/v1/custom-fields/${a.id}/move`, { direction: 'left' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('direction must be one of up, down');
    await w.api.delete(`/v1/custom-fields/${a.id}`);
    const res = await w.api.post(`/v1/custom-fields/${a.id}/move`, { direction: 'up' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'archived', code: 'archived' });
  });
});

describe('DELETE /v1/custom-fields/{id} and POST /v1/custom-fields/{id}/restore', () => {
  it('archives (204) and renumbers the live fields; restore puts it back at the end', async () => {
    const w = await t.workspace();
    const a = await field(w.api, { entity_type: 'account', label: 'A' });
    await field(w.api, { entity_type: 'account', label: 'B' });
    await field(w.api, { entity_type: 'account', label: 'C' });
    const del = await w.api.delete(`/v1/custom-fields/${a.id}`);
    expect(del.status).toBe(204);
    expect(del.body).toBeNull();
    expect(await order(w, 'account', true)).toEqual([
      ['b', 1, 'live'],
      ['c', 2, 'live'],
      ['a', 3, 'archived'],
    ]);
    // Document 1, retry rules: a second delete is 404 (treat as done), and changes nothing.
    const again404 = await w.api.delete(`/v1/custom-fields/${a.id}`);
    expect(again404.status).toBe(404);
    expect(again404.body).toMatchObject({ error: 'Custom field not found', code: 'already_archived' });
    expect(await order(w, 'account', true)).toEqual([
      ['b', 1, 'live'],
      ['c', 2, 'live'],
      ['a', 3, 'archived'],
    ]);
    const res = await w.api.post(`/v1/custom-fields/${a.id}/restore`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: a.id, key: 'a', archived_at: null, position: 3 });
    expect(await order(w, 'account')).toEqual([
      ['b', 1, 'live'],
      ['c', 2, 'live'],
      ['a', 3, 'live'],
    ]);
    const again = await w.api.post(`/v1/custom-fields/${a.id}/restore`);
    expect(again.body.data).toEqual(res.body.data);
    // Restored, it can be archived again.
    expect((await w.api.delete(`/v1/custom-fields/${a.id}`)).status).toBe(204);
  });

  it('a new field after an archived one lands after the live fields', async () => {
    const w = await t.workspace();
    const a = await field(w.api, { entity_type: 'job', label: 'A' });
    await field(w.api, { entity_type: 'job', label: 'B' });
    await w.api.delete(`/v1/custom-fields/${a.id}`);
    expect((await field(w.api, { entity_type: 'job', label: 'C' })).position).toBe(2);
    expect(await order(w, 'job', true)).toEqual([
      ['b', 1, 'live'],
      ['c', 2, 'live'],
      ['a', 3, 'archived'],
    ]);
  });

  it('DELETE needs delete_records as well as write_jobs', async () => {
    const w = await t.workspace();
    const f = await field(w.api, { entity_type: 'job', label: 'A' });
    const key = await t.key(w.firmId, w.ownerId, ['read_jobs', 'write_jobs']);
    const res = await t.as(key).delete(`/v1/custom-fields/${f.id}`);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('API key lacks delete permission');
    expect((await list(w))[0].archived_at).toBeNull();
  });
});

describe('owner-only setup and other workspaces', () => {
  it('PATCH, move, DELETE and restore are 403 key creator is not an owner for a member, and change nothing', async () => {
    const w = await t.workspace();
    const f = await field(w.api, { entity_type: 'job', label: 'Owned' });
    await field(w.api, { entity_type: 'job', label: 'Second' });
    const api = await member(w);
    const calls = [
      () => api.patch(`/v1/custom-fields/${f.id}`, { label: 'Changed' }),
      () => api.post(`/v1/custom-fields/${f.id}/move`, { direction: 'down' }),
      () => api.delete(`/v1/custom-fields/${f.id}`),
      () => api.post(`/v1/custom-fields/${f.id}/restore`),
    ];
    for (const call of calls) {
      const res = await call();
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: 'key creator is not an owner', code: 'not_owner' });
    }
    expect(await order(w, 'job', true)).toEqual([
      ['owned', 1, 'live'],
      ['second', 2, 'live'],
    ]);
    expect((await list(w))[0].label).toBe('Owned');
  });

  it('a second owner of the workspace may run the setup', async () => {
    const w = await t.workspace();
    const f = await field(w.api, { entity_type: 'job', label: 'Owned' });
    const owner2 = await t.user(w.firmId, { role: 'owner' });
    const res = await owner2.api.patch(`/v1/custom-fields/${f.id}`, { required: true });
    expect(res.status).toBe(200);
    expect(res.body.data.required).toBe(true);
  });

  it("another workspace's field is 404 on PATCH, move, DELETE and restore", async () => {
    const w = await t.workspace();
    const f = await field(w.api, { entity_type: 'job', label: 'Private' });
    const other = await t.workspace();
    const calls = [
      () => other.api.patch(`/v1/custom-fields/${f.id}`, { label: 'Stolen' }),
      () => other.api.post(`/v1/custom-fields/${f.id}/move`, { direction: 'up' }),
      () => other.api.delete(`/v1/custom-fields/${f.id}`),
      () => other.api.post(`/v1/custom-fields/${f.id}/restore`),
      () => w.api.patch('/v1/custom-fields/999999', { label: 'Missing' }),
    ];
    for (const call of calls) {
      const res = await call();
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Custom field not found');
    }
    expect((await list(w))[0]).toMatchObject({ label: 'Private', archived_at: null });
  });
});
