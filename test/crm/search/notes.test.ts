// GET /v1/search, type note: notes and logged interactions on jobs, people and customers, found by
// their content; title, subtitle and app_url; what the key's user sees; archived parents; other
// workspaces; edits and deletes keeping the index in step; the index itself.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgNoteSearchText } from '#db/migrations/004_search.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import type { BodyOf } from '#test/helpers/api-types.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const pg = () => t.database.dialect.engine === 'postgres';

type Api = Workspace['api'];

async function created(res: { status: number; body: any }) {
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number };
}

const job = (w: Workspace, body: BodyOf<'/v1/jobs', 'post'>) => w.api.post('/v1/jobs', body).then(created);
const person = (w: Workspace, body: BodyOf<'/v1/contacts', 'post'>) => w.api.post('/v1/contacts', body).then(created);
const customer = (w: Workspace, body: BodyOf<'/v1/client-accounts', 'post'>) =>
  w.api.post('/v1/client-accounts', body).then(created);

async function note(
  api: Api,
  parent: 'jobs' | 'contacts' | 'client-accounts',
  parentId: number,
  content: string,
  type?: string,
) {
  return created(await api.raw.post(`/v1/${parent}/${parentId}/notes`, type ? { content, type } : { content }));
}

interface Result {
  type: string;
  id: number;
  title: string;
  subtitle: string | null;
  status: string | null;
  app_url: string;
}

async function find(api: Api, q: string, types?: string) {
  const res = await api.get(
    `/v1/search?q=${encodeURIComponent(q)}${types ? `&types=${encodeURIComponent(types)}` : ''}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: Result[]; query: string };
}

const noteIds = async (api: Api, q: string, types?: string) =>
  (await find(api, q, types)).data.filter((r) => r.type === 'note').map((r) => r.id);

describe('GET /v1/search: notes', () => {
  it('finds notes on jobs, people and customers by content, with title, subtitle and app_url', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Northgate Plaza mill and overlay' });
    const p = await person(w, { name: 'Dana Whitfield' });
    const c = await customer(w, { name: 'Maple Ridge HOA' });
    const onJob = await note(
      w.api,
      'jobs',
      j.id,
      'Spoke with the super about the Quorvantic sealcoat schedule',
      'call',
    );
    const onPerson = await note(
      w.api,
      'contacts',
      p.id,
      'Prefers texts; asked for Quorvantic pricing\nFollow up in May',
    );
    const onCustomer = await note(w.api, 'client-accounts', c.id, 'Board approved the Quorvantic bid', 'meeting');
    await note(w.api, 'jobs', j.id, 'Nothing to see here');

    const body = await find(w.api, 'quorvantic');
    expect(body.data).toEqual([
      {
        type: 'note',
        id: onCustomer.id,
        title: 'Board approved the Quorvantic bid',
        subtitle: 'Meeting · Customer: Maple Ridge HOA',
        status: null,
        app_url: `/app/client-accounts/${c.id}/notes/${onCustomer.id}`,
      },
      {
        type: 'note',
        id: onPerson.id,
        title: 'Prefers texts; asked for Quorvantic pricing',
        subtitle: 'Note · Contact: Dana Whitfield',
        status: null,
        app_url: `/app/contacts/${p.id}/notes/${onPerson.id}`,
      },
      {
        type: 'note',
        id: onJob.id,
        title: 'Spoke with the super about the Quorvantic sealcoat schedule',
        subtitle: 'Call · Job: Northgate Plaza mill and overlay',
        status: null,
        app_url: `/app/jobs/${j.id}/notes/${onJob.id}`,
      },
    ]);
    // Anywhere in the content, any case, across a line break; the second line is searched too.
    expect(await noteIds(w.api, 'SEALCOAT sched')).toEqual([onJob.id]);
    expect(await noteIds(w.api, 'pricing follow up')).toEqual([onPerson.id]);
    expect(await noteIds(w.api, 'in May')).toEqual([onPerson.id]);
  });

  it('two characters match the start of a word, a line start included', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Wordstart Lot' });
    const a = await note(w.api, 'jobs', j.id, 'Zq crew arrives Monday');
    const b = await note(w.api, 'jobs', j.id, 'First line\nzq second line');
    await note(w.api, 'jobs', j.id, 'Lazqar is not a word start');
    expect((await noteIds(w.api, 'zq')).sort((x, y) => x - y)).toEqual([a.id, b.id]);
    expect(await noteIds(w.api, 'qa')).toEqual([]);
  });

  it('types=note returns only notes; notes come after jobs, customers, contacts and sites', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Brambleford Works' });
    const c = await customer(w, { name: 'Brambleford Co' });
    const p = await person(w, { name: 'Brambleford Person' });
    const s = await w.api.post('/v1/locations', { address: '3 Brambleford Rd' }).then(created);
    const n = await note(w.api, 'jobs', j.id, 'Brambleford walk-through done');
    expect((await find(w.api, 'Brambleford')).data.map((r) => [r.type, r.id])).toEqual([
      ['job', j.id],
      ['client_account', c.id],
      ['contact', p.id],
      ['location', s.id],
      ['note', n.id],
    ]);
    expect((await find(w.api, 'Brambleford', 'note')).data.map((r) => [r.type, r.id])).toEqual([['note', n.id]]);
    expect((await find(w.api, 'Brambleford', 'job,contact')).data.map((r) => r.type)).toEqual(['job', 'contact']);
  });

  it('ranks exact, then prefix, then contains, then most recently updated; at most 5', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Ranking Lot' });
    const contains = [];
    for (let i = 0; i < 3; i++) contains.push(await note(w.api, 'jobs', j.id, `Old Gritstone ${i}`));
    const prefix = await note(w.api, 'jobs', j.id, 'Gritstone delivered');
    const exact = await note(w.api, 'jobs', j.id, 'gritstone');
    for (let i = 3; i < 5; i++) contains.push(await note(w.api, 'jobs', j.id, `Old Gritstone ${i}`));
    expect((await w.api.patch(`/v1/notes/${contains[0].id}`, { pinned: true })).status).toBe(200);
    expect(await noteIds(w.api, 'Gritstone')).toEqual([
      exact.id,
      prefix.id,
      contains[0].id,
      contains[4].id,
      contains[3].id,
    ]);
  });

  it('cuts a long first line to 80 characters with an ellipsis', async () => {
    const w = await t.workspace();
    const p = await person(w, { email: 'only@email.example' });
    const first = 'Longline ' + 'word '.repeat(30);
    const n = await note(w.api, 'contacts', p.id, `\n  ${first}\nsecond line`, 'email');
    const [hit] = (await find(w.api, 'Longline')).data;
    expect(hit.id).toBe(n.id);
    expect(Array.from(hit.title).length).toBeLessThanOrEqual(80);
    expect(hit.title).toBe(first.slice(0, 79).trimEnd() + '…');
    expect(hit.subtitle).toBe('Email · Contact: only@email.example');
  });

  it('a member who sees only their own jobs finds notes on those jobs, and on people and customers', async () => {
    const w = await t.workspace();
    const member = await t.user(w.firmId, { role: 'member', sees_own_jobs_only: true });
    const mine = await job(w, { name: 'Member Job', assigned_to_user_id: member.id });
    const assigned = await job(w, { name: 'Assigned Job' });
    await t.database.db.insertInto('job_assignees').values({ job_id: assigned.id, user_id: member.id }).execute();
    const theirs = await job(w, { name: 'Other Job' });
    const p = await person(w, { name: 'Shared Person' });
    const c = await customer(w, { name: 'Shared Customer' });
    const visible = [
      await note(w.api, 'jobs', mine.id, 'Vellumwick on my job'),
      await note(w.api, 'jobs', assigned.id, 'Vellumwick on an assigned job'),
      await note(w.api, 'contacts', p.id, 'Vellumwick on a person'),
      await note(w.api, 'client-accounts', c.id, 'Vellumwick on a customer'),
    ].map((n) => n.id);
    const hidden = await note(w.api, 'jobs', theirs.id, 'Vellumwick on their job');
    expect((await noteIds(w.api, 'Vellumwick')).sort((a, b) => a - b)).toEqual(
      [...visible, hidden.id].sort((a, b) => a - b),
    );
    expect((await noteIds(member.api, 'Vellumwick')).sort((a, b) => a - b)).toEqual([...visible].sort((a, b) => a - b));
    expect(await noteIds(member.api, 'their job')).toEqual([]);
    // The member reaches the hidden note neither by search nor directly.
    expect((await member.api.get(`/v1/notes/${hidden.id}`)).status).toBe(404);
  });

  it('leaves out notes on archived people and customers; they are back on restore', async () => {
    const w = await t.workspace();
    const p = await person(w, { name: 'Archie Vale' });
    const c = await customer(w, { name: 'Archived Co' });
    const np = await note(w.api, 'contacts', p.id, 'Oxbrindle on a person');
    const nc = await note(w.api, 'client-accounts', c.id, 'Oxbrindle on a customer');
    expect((await w.api.delete(`/v1/contacts/${p.id}`)).status).toBe(204);
    expect((await w.api.patch(`/v1/client-accounts/${c.id}`, { archived: true })).status).toBe(200);
    expect(await noteIds(w.api, 'Oxbrindle')).toEqual([]);
    expect((await w.api.post(`/v1/contacts/${p.id}/restore`, {})).status).toBe(200);
    expect((await w.api.patch(`/v1/client-accounts/${c.id}`, { archived: false })).status).toBe(200);
    expect((await noteIds(w.api, 'Oxbrindle')).sort((a, b) => a - b)).toEqual([np.id, nc.id]);
  });

  it("never shows another workspace's notes", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const j = await job(other, { name: 'Elsewhere Job' });
    const p = await person(other, { name: 'Elsewhere Person' });
    const n1 = await note(other.api, 'jobs', j.id, 'Glimmerquay notes');
    const n2 = await note(other.api, 'contacts', p.id, 'Glimmerquay person notes');
    expect((await noteIds(other.api, 'Glimmerquay')).sort((a, b) => a - b)).toEqual([n1.id, n2.id]);
    expect((await find(w.api, 'Glimmerquay')).data).toEqual([]);
    expect((await find(w.api, 'Gl', 'note')).data).toEqual([]);
  });

  it('keeps the index in step: an edited note is found by its new text only; deleted notes are gone', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Upkeep Lot' });
    const n = await note(w.api, 'jobs', j.id, 'Brackenfold needs patching');
    expect(await noteIds(w.api, 'Brackenfold')).toEqual([n.id]);
    const edit = await w.api.patch(`/v1/notes/${n.id}`, { content: 'Thistlemere needs crack seal' });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(await noteIds(w.api, 'Brackenfold')).toEqual([]);
    expect(await noteIds(w.api, 'Thistlemere')).toEqual([n.id]);
    expect((await find(w.api, 'Thistlemere')).data[0].title).toBe('Thistlemere needs crack seal');
    // A change to another field (type) keeps it findable, with the new type in the subtitle.
    expect((await w.api.patch(`/v1/notes/${n.id}`, { type: 'call' })).status).toBe(200);
    expect((await find(w.api, 'Thistlemere')).data[0]).toMatchObject({ id: n.id, subtitle: 'Call · Job: Upkeep Lot' });
    expect((await w.api.delete(`/v1/notes/${n.id}`)).status).toBe(204);
    expect(await noteIds(w.api, 'Thistlemere')).toEqual([]);
    // Deleting the job deletes its notes, and they leave search too.
    const m = await note(w.api, 'jobs', j.id, 'Cinderholm staging area');
    expect(await noteIds(w.api, 'Cinderholm')).toEqual([m.id]);
    expect((await w.api.delete(`/v1/jobs/${j.id}`)).status).toBe(204);
    expect(await noteIds(w.api, 'Cinderholm')).toEqual([]);
  });

  it('takes %, _, quotes and FTS operators literally', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Literal Lot' });
    const pct = await note(w.api, 'jobs', j.id, 'Quoted 15% off sealcoat');
    const under = await note(w.api, 'jobs', j.id, 'file name lot_plan_v2');
    const ops = await note(w.api, 'jobs', j.id, 'Said "Rock AND Roll" NEAR gate*');
    await note(w.api, 'jobs', j.id, 'Quoted 15 percent');
    await note(w.api, 'jobs', j.id, 'file name lotXplan');
    expect(await noteIds(w.api, '15%')).toEqual([pct.id]);
    expect(await noteIds(w.api, 't_p')).toEqual([under.id]);
    expect(await noteIds(w.api, '"Rock AND')).toEqual([ops.id]);
    expect(await noteIds(w.api, 'gate*')).toEqual([ops.id]);
    expect(await noteIds(w.api, 'Rock NEAR gate')).toEqual([]);
  });
});

describe('GET /v1/search: the note match uses the text index', () => {
  it('is answered by search_notes (SQLite) or notes_search (PostgreSQL), not a scan of notes', async () => {
    const { db } = t.database;
    if (!pg()) {
      const plan = await sql<{
        detail: string;
      }>`explain query plan select notes.id from search_notes as s cross join notes
        where notes.id = s.rowid and search_notes match ${'"quorvantic"'} and notes.firm_id = ${1}
        order by s.rowid desc limit 200`.execute(db);
      const details = plan.rows.map((r) => r.detail);
      expect(details[0]).toMatch(/^SCAN s VIRTUAL TABLE INDEX \d+:M/);
      expect(details).toContain('SEARCH notes USING INTEGER PRIMARY KEY (rowid=?)');
    } else {
      // Few notes here: forbid the scan the planner would rightly prefer, to show the index fits the query.
      const text = await db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        const plan = await sql<{ 'QUERY PLAN': string }>`explain select notes.id from notes where notes.firm_id = ${1}
          and ${sql.raw(pgNoteSearchText('notes'))} ilike ${'%quorvantic%'} order by notes.id desc limit 200`.execute(
          trx,
        );
        return plan.rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(text).toMatch(/Bitmap Index Scan on notes_search/);
    }
  });
});
