// GET /v1/search (document 2, Search and merge): jobs, customers, contacts and sites found by
// each searched field, the q bounds, the types filter, best few per type and their order, what
// the key's user sees, archived records, other workspaces, index upkeep and literal text.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_SEARCH_FIELDS, pgSearchText } from '#db/migrations/004_search.ts';
import { insertJobs } from '../../../bench/seed.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import type { BodyOf } from '#test/helpers/api-types.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const pg = () => t.database.dialect.engine === 'postgres';

async function job(w: Workspace, body: Record<string, unknown>) {
  const res = await w.api.post('/v1/jobs', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number; name: string };
}

async function details(w: Workspace, id: number, body: Record<string, unknown>) {
  const res = await w.api.patch(`/v1/jobs/${id}/details`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { job_number: number };
}

async function customer(w: Workspace, body: BodyOf<'/v1/client-accounts', 'post'>) {
  const res = await w.api.post('/v1/client-accounts', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number };
}

async function site(w: Workspace, body: BodyOf<'/v1/locations', 'post'>) {
  const res = await w.api.post('/v1/locations', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number };
}

/** Contacts are written directly: their endpoints belong to another area. */
async function contact(
  w: Workspace,
  fields: { name?: string; email?: string; phone?: string; company?: string; title?: string; archived?: boolean },
) {
  const at = '2026-01-01T00:00:00.000000';
  const row = await t.database.db
    .insertInto('contacts')
    .values({
      firm_id: w.firmId,
      name: fields.name ?? null,
      email: fields.email ?? null,
      phone: fields.phone ?? null,
      company: fields.company ?? null,
      title: fields.title ?? null,
      client_account_id: null,
      archived_at: fields.archived ? at : null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function channel(w: Workspace, contactId: number, kind: 'phone' | 'email', value: string) {
  const at = '2026-01-01T00:00:00.000000';
  const row = await t.database.db
    .insertInto('contact_channels')
    .values({
      firm_id: w.firmId,
      contact_id: contactId,
      kind,
      label: 'other',
      value,
      value_key: value.toLowerCase(),
      is_primary: 0,
      do_not_contact: 0,
      position: 1,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function find(w: Workspace, q: string, types?: string) {
  const res = await w.api.get(
    `/v1/search?q=${encodeURIComponent(q)}${types ? `&types=${encodeURIComponent(types)}` : ''}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as {
    data: {
      type: string;
      id: number;
      title: string;
      subtitle: string | null;
      status: string | null;
      app_url: string;
    }[];
    query: string;
  };
}

const ids = (body: Awaited<ReturnType<typeof find>>, type: string) =>
  body.data.filter((r) => r.type === type).map((r) => r.id);

describe('GET /v1/search: jobs', () => {
  it('finds a job by name, number, company, address, contact, Property ID, work order and accounting number', async () => {
    const w = await t.workspace();
    const j = await job(w, {
      name: 'Riverside Mall Resurface',
      company: 'Quillfeather Holdings',
      address: '742 Evergreen Terrace',
      contact_name: 'Marguerite Oyelaran',
    });
    const d = await details(w, j.id, {
      job_number: 48213,
      external_work_order_number: 'WO-77Q31',
      accounting_job_number: 'ACCT-5590Z',
      property_reference: 'PID-3318K',
    });
    expect(d.job_number).toBe(48213);
    const other = await job(w, { name: 'Unrelated Job', company: 'Nobody', address: '1 Nowhere Rd' });
    for (const q of [
      'Riverside',
      'mall resurf',
      '48213',
      '482',
      'Quillfeather',
      'evergreen terr',
      'Oyelaran',
      'PID-3318K',
      '3318',
      'WO-77Q31',
      '77Q3',
      'ACCT-5590Z',
      '5590',
    ]) {
      const body = await find(w, q, 'job');
      expect(ids(body, 'job'), q).toEqual([j.id]);
    }
    const body = await find(w, 'Riverside');
    expect(body.query).toBe('Riverside');
    expect(body.data).toEqual([
      {
        type: 'job',
        id: j.id,
        title: 'Riverside Mall Resurface',
        subtitle: '#48213 · Quillfeather Holdings · 742 Evergreen Terrace',
        status: 'lead',
        app_url: `/app/jobs/${j.id}`,
      },
    ]);
    expect(ids(await find(w, 'Unrelated'), 'job')).toEqual([other.id]);
  });

  it("finds a job by its site's Property ID unless the job has its own", async () => {
    const w = await t.workspace();
    const s = await site(w, { address: '5 Harbor Way', property_reference: 'PARCEL-90210X' });
    const a = await job(w, { name: 'Harbor A' });
    const b = await job(w, { name: 'Harbor B' });
    for (const j of [a, b])
      expect((await w.api.put(`/v1/jobs/${j.id}/location`, { location_id: s.id })).status).toBe(200);
    await details(w, b.id, { property_reference: 'OWN-1234' });
    const body = await find(w, 'PARCEL-90210X');
    expect(ids(body, 'job')).toEqual([a.id]);
    expect(ids(body, 'location')).toEqual([s.id]);
    expect(ids(await find(w, 'OWN-1234', 'job'), 'job')).toEqual([b.id]);
  });

  it('a member who sees only their own jobs finds only those', async () => {
    const w = await t.workspace();
    const member = await t.user(w.firmId, { role: 'member', sees_own_jobs_only: true });
    const mine = await job(w, { name: 'Zephyrine Lot Mine', assigned_to_user_id: member.id });
    const assigned = await job(w, { name: 'Zephyrine Lot Shared' });
    await t.database.db.insertInto('job_assignees').values({ job_id: assigned.id, user_id: member.id }).execute();
    await job(w, { name: 'Zephyrine Lot Theirs' });
    expect(ids(await find(w, 'Zephyrine'), 'job')).toHaveLength(3);
    const res = await member.api.get('/v1/search?q=Zephyrine');
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { id: number }) => r.id).sort()).toEqual([mine.id, assigned.id].sort());
  });

  it('keeps the index in step: a renamed job is found by its new name only; a deleted job is gone', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Oldname Parkade', address: '9 Birch Ln' });
    expect(ids(await find(w, 'Oldname'), 'job')).toEqual([j.id]);
    expect((await w.api.patch(`/v1/jobs/${j.id}`, { name: 'Newtitle Parkade', address: '10 Cedar Ct' })).status).toBe(
      200,
    );
    expect(ids(await find(w, 'Oldname'), 'job')).toEqual([]);
    expect(ids(await find(w, 'Birch'), 'job')).toEqual([]);
    expect(ids(await find(w, 'Newtitle'), 'job')).toEqual([j.id]);
    expect(ids(await find(w, 'Cedar Ct'), 'job')).toEqual([j.id]);
    // A status change (no indexed field) keeps it findable.
    expect((await w.api.patch(`/v1/jobs/${j.id}`, { status: 'active' })).status).toBe(200);
    expect((await find(w, 'Newtitle')).data[0]).toMatchObject({ id: j.id, status: 'active' });
    expect((await w.api.delete(`/v1/jobs/${j.id}`)).status).toBe(204);
    expect(ids(await find(w, 'Newtitle'), 'job')).toEqual([]);
  });
});

describe('GET /v1/search: customers, contacts and sites', () => {
  it('finds a customer by name, email, phone and address; archived customers drop out', async () => {
    const w = await t.workspace();
    const c = await customer(w, {
      name: 'Brightwater Logistics',
      email: 'ap@brightwater.example',
      phone: '(555) 867-5309',
      address: '300 Quay Street',
    });
    for (const q of ['Brightwater Log', 'ap@brightwater', '867-5309', 'Quay Str']) {
      expect(ids(await find(w, q, 'client_account'), 'client_account'), q).toEqual([c.id]);
    }
    expect((await find(w, 'Brightwater Logistics')).data).toEqual([
      {
        type: 'client_account',
        id: c.id,
        title: 'Brightwater Logistics',
        subtitle: '300 Quay Street · ap@brightwater.example · (555) 867-5309',
        status: null,
        app_url: `/app/client-accounts/${c.id}`,
      },
    ]);
    expect((await w.api.patch(`/v1/client-accounts/${c.id}`, { archived: true })).status).toBe(200);
    expect(ids(await find(w, 'Brightwater'), 'client_account')).toEqual([]);
  });

  it('finds a contact by name, email, phone, company, title and any other phone or email; archived contacts drop out', async () => {
    const w = await t.workspace();
    const id = await contact(w, {
      name: 'Thaddeus Vorhees',
      email: 'tvorhees@mail.example',
      phone: '555-2468',
      company: 'Ironbark Civil',
      title: 'Procurement Lead',
    });
    await channel(w, id, 'email', 'thad.second@elsewhere.example');
    const chId = await channel(w, id, 'phone', '555-9753');
    await contact(w, { name: 'Thaddeus Archived', archived: true });
    for (const q of ['Thaddeus', 'tvorhees@', '2468', 'Ironbark', 'Procurement', 'thad.second', '9753']) {
      expect(ids(await find(w, q, 'contact'), 'contact'), q).toEqual([id]);
    }
    expect((await find(w, 'Vorhees')).data).toEqual([
      {
        type: 'contact',
        id,
        title: 'Thaddeus Vorhees',
        subtitle: 'Procurement Lead · Ironbark Civil · tvorhees@mail.example · 555-2468',
        status: null,
        app_url: `/app/contacts/${id}`,
      },
    ]);
    // Channels stay in step.
    await t.database.db.updateTable('contact_channels').set({ value: '555-1111' }).where('id', '=', chId).execute();
    expect(ids(await find(w, '9753', 'contact'), 'contact')).toEqual([]);
    expect(ids(await find(w, '1111', 'contact'), 'contact')).toEqual([id]);
    await t.database.db.deleteFrom('contact_channels').where('id', '=', chId).execute();
    expect(ids(await find(w, '1111', 'contact'), 'contact')).toEqual([]);
  });

  it('finds a site by name, address and Property ID; archived sites drop out', async () => {
    const w = await t.workspace();
    const s = await site(w, { name: 'Northgate Depot', address: '88 Foundry Road', property_reference: 'APN-4471' });
    for (const q of ['Northgate', 'Foundry Ro', 'APN-4471', '4471']) {
      expect(ids(await find(w, q, 'location'), 'location'), q).toEqual([s.id]);
    }
    expect((await find(w, 'Northgate')).data).toEqual([
      {
        type: 'location',
        id: s.id,
        title: 'Northgate Depot',
        subtitle: '88 Foundry Road · Property ID APN-4471',
        status: null,
        app_url: `/app/locations/${s.id}`,
      },
    ]);
    expect((await w.api.patch(`/v1/locations/${s.id}`, { archived: true })).status).toBe(200);
    expect(ids(await find(w, 'Northgate'), 'location')).toEqual([]);
  });

  it("never shows another workspace's records", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    await job(other, { name: 'Xylophone Plaza' });
    await customer(other, { name: 'Xylophone Co' });
    await site(other, { address: '1 Xylophone Ave' });
    await contact(other, { name: 'Xylophone Person' });
    expect((await find(other, 'Xylophone')).data).toHaveLength(4);
    expect((await find(w, 'Xylophone')).data).toEqual([]);
    expect((await find(w, 'Xy')).data).toEqual([]);
  });
});

describe('GET /v1/search: query rules', () => {
  it('q is 2 to 120 characters after trimming, else 400 with a clear message', async () => {
    const w = await t.workspace();
    for (const q of [undefined, '', ' ', 'a', '  a  ', 'x'.repeat(121)]) {
      const res = await w.api.get(q === undefined ? '/v1/search' : `/v1/search?q=${encodeURIComponent(q)}`);
      expect(res.status, String(q)).toBe(400);
      expect(res.body.error).toMatch(/q must be 2 to 120 characters/);
      expect(res.body.field).toBe('q');
    }
    const long = 'Lengthy '.repeat(15).slice(0, 119) + 'X';
    const j = await job(w, { name: long });
    expect(Array.from(long)).toHaveLength(120);
    expect(ids(await find(w, long), 'job')).toEqual([j.id]);
    expect(ids(await find(w, `  ${long}  `), 'job')).toEqual([j.id]);
    // Two characters: the start of a word (the field's first word included).
    const k = await job(w, { name: 'Kv Quarry', address: '4 Old Kvarn Rd' });
    expect((await find(w, ' kv ')).query).toBe('kv');
    expect(ids(await find(w, 'kv', 'job'), 'job').sort()).toEqual([k.id]);
    expect(ids(await find(w, 'ar', 'job'), 'job')).toEqual([]); // "Quarry", "Kvarn": not a word start
    expect(ids(await find(w, 'ld', 'job'), 'job')).toEqual([]);
  });

  it('types filters; unknown types are 400 listing the accepted ones; types with no records yet return nothing', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Pemberton Works' });
    const c = await customer(w, { name: 'Pemberton' });
    const s = await site(w, { address: '2 Pemberton Sq' });
    const all = await find(w, 'Pemberton');
    expect(all.data.map((r) => [r.type, r.id])).toEqual([
      ['job', j.id],
      ['client_account', c.id],
      ['location', s.id],
    ]);
    expect((await find(w, 'Pemberton', 'location, job')).data.map((r) => r.type)).toEqual(['job', 'location']);
    expect((await find(w, 'Pemberton', 'lead,proposal,invoice,note,project,measurement')).data).toEqual([]);
    const bad = await w.api.get('/v1/search?q=Pemberton&types=job,jobs,widget');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/Unknown types jobs, widget/);
    expect(bad.body.accepted).toEqual([
      'job',
      'client_account',
      'contact',
      'location',
      'lead',
      'proposal',
      'invoice',
      'note',
      'project',
      'measurement',
    ]);
  });

  it('returns the best 5 of each type: exact, then prefix, then contains, then most recently updated', async () => {
    const w = await t.workspace();
    const contains = [];
    for (let i = 0; i < 4; i++) contains.push(await job(w, { name: `Old Gravelpit ${i}` }));
    const prefix = await job(w, { name: 'Gravelpit North' });
    const exact = await job(w, { name: 'Gravelpit' });
    for (let i = 4; i < 6; i++) contains.push(await job(w, { name: `Old Gravelpit ${i}` }));
    // Touch contains[1] so it is the most recently updated of its tier.
    expect((await w.api.patch(`/v1/jobs/${contains[1].id}`, { notes: 'touched' })).status).toBe(200);
    const body = await find(w, 'gravelpit');
    expect(ids(body, 'job')).toEqual([exact.id, prefix.id, contains[1].id, contains[5].id, contains[4].id]);
    // An exact job number comes first even among many jobs containing it.
    const numbered = await job(w, { name: 'Numbered' });
    await details(w, numbered.id, { job_number: 777 });
    for (const n of [17770, 27771, 37772])
      await details(w, (await job(w, { name: `Other ${n}` })).id, { job_number: n });
    expect(ids(await find(w, '777', 'job'), 'job')[0]).toBe(numbered.id);
    expect(ids(await find(w, '#777', 'job'), 'job')).toEqual([numbered.id]);
  });

  it('takes %, _, quotes, backslashes and FTS operators literally', async () => {
    const w = await t.workspace();
    const pct = await job(w, { name: 'Discount 50% off lot' });
    const under = await job(w, { name: 'snake_case yard' });
    const quote = await job(w, { name: `O'Brien "Big" Lot` });
    const ops = await job(w, { name: 'Rock AND Roll NEAR Pits*' });
    const slash = await job(w, { name: 'Back\\slash Court' });
    await job(w, { name: 'Discount 50 percent' });
    await job(w, { name: 'snakeXcase yard' });
    expect(ids(await find(w, '50%'), 'job')).toEqual([pct.id]);
    expect(ids(await find(w, '% o'), 'job')).toEqual([pct.id]);
    expect(ids(await find(w, '0%'), 'job')).toEqual([]); // two characters: word starts only
    expect(ids(await find(w, 'e_c'), 'job')).toEqual([under.id]);
    expect(ids(await find(w, `O'Brien`), 'job')).toEqual([quote.id]);
    expect(ids(await find(w, `"Big"`), 'job')).toEqual([quote.id]);
    expect(ids(await find(w, `"`.repeat(3)), 'job')).toEqual([]);
    expect(ids(await find(w, 'AND Roll'), 'job')).toEqual([ops.id]);
    expect(ids(await find(w, 'Pits*'), 'job')).toEqual([ops.id]);
    expect(ids(await find(w, 'Rock NEAR Roll'), 'job')).toEqual([]);
    expect(ids(await find(w, 'Rock OR Discount'), 'job')).toEqual([]);
    expect(ids(await find(w, 'k\\s'), 'job')).toEqual([slash.id]);
    for (const q of ['%%', '__', '**', '()', 'NOT x', '^x', '-"a"', ':col']) {
      const res = await w.api.get(`/v1/search?q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
    }
  });

  it('folds case in any script', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'école Saint-Exupéry' });
    const g = await job(w, { name: 'Ωμέγα Σταθμός' });
    expect(ids(await find(w, 'ÉCOLE'), 'job')).toEqual([j.id]);
    expect(ids(await find(w, 'SAINT-EXUPÉRY'), 'job')).toEqual([j.id]);
    expect(ids(await find(w, 'ÉC'), 'job')).toEqual([j.id]);
    expect(ids(await find(w, 'ΩΜΈΓΑ'), 'job')).toEqual([g.id]);
    expect(ids(await find(w, 'ΩΜΈΓΑ'), 'job')).toEqual([g.id]);
  });

  it('needs read_jobs', async () => {
    const w = await t.workspace();
    const u = await t.user(w.firmId, { role: 'member' }, ['write_jobs']);
    expect((await u.api.get('/v1/search?q=abc')).status).toBe(403);
    expect((await t.anon.get('/v1/search?q=abc')).status).toBe(401);
  });
});

describe('GET /v1/search uses the text index', () => {
  it('the job match is answered by the FTS5 table or the trigram index, not a scan of jobs', async () => {
    const w = await t.workspace();
    await insertJobs(t.database, w.firmId, w.ownerId, 20_000, { namePrefix: 'Bulk lot' });
    const body = await find(w, 'bulk lot 12345', 'job');
    expect(body.data.map((r) => r.title)).toEqual(['Bulk lot 12345']);
    const { db } = t.database;
    if (!pg()) {
      const plan = await sql<{ detail: string }>`explain query plan select jobs.id from search_jobs as s cross join jobs
        where jobs.id = s.rowid and search_jobs match ${'"bulk lot 12345"'} and jobs.firm_id = ${w.firmId}
        order by s.rowid desc limit 200`.execute(db);
      const details = plan.rows.map((r) => r.detail);
      expect(details[0]).toMatch(/^SCAN s VIRTUAL TABLE INDEX \d+:M/);
      expect(details).toContain('SEARCH jobs USING INTEGER PRIMARY KEY (rowid=?)');
      expect(details.some((d) => /SCAN jobs/.test(d))).toBe(false);
    } else {
      const plan = await sql<{ 'QUERY PLAN': string }>`explain select jobs.id from jobs where jobs.firm_id = ${w.firmId}
        and ${sql.raw(pgSearchText(JOB_SEARCH_FIELDS, 'jobs'))} ilike ${'%bulk lot 12345%'} order by jobs.id desc limit 200`.execute(
        db,
      );
      const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(text).toMatch(/Bitmap Index Scan on jobs_search/);
      expect(text).not.toMatch(/Seq Scan on jobs/);
    }
  });
});
