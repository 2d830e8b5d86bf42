// GET /v1/contacts/{id}/merge-preview and POST /v1/contacts/{id}/merge: jobs, channels, links,
// notes, activities and follow-ups move to the kept person; fields settle by choice (phone may be
// both); the merged person is deleted (document 2, Search and merge).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { account as customer, job, ok, site } from '#test/helpers/records.ts';
import {
  accountTask,
  activity,
  channel,
  channelsOf,
  contact,
  customField,
  link,
  linksOf,
  note,
  row,
  task,
} from './fixtures.ts';
import type { Flag } from '#db/tables.ts';
import type { BodyOf } from '#test/helpers/api-types.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

async function pair(w: Workspace) {
  const acme = await customer(w.api, 'Acme Paving');
  const kept = await contact(t.database, w.firmId, {
    name: 'Pat Jones',
    email: 'pat@acme.test',
    phone: '(555) 111-2222',
    title: 'Owner',
    client_account_id: acme.id,
    company: acme.name,
    tags: ['vip'],
  });
  const away = await contact(t.database, w.firmId, {
    name: 'Patricia Jones',
    email: 'pat@acme.test',
    phone: '(555) 333-4444',
    contact_type: 'customer',
    birthday: '1980-04-02',
    do_not_contact: 1,
    do_not_contact_reason: 'Asked by phone',
    tags: ['VIP', 'golf'],
  });
  return { acme, kept, away };
}

const merge = (w: Workspace, awayId: number, body: BodyOf<'/v1/contacts/{id}/merge', 'post'>) =>
  w.api.post(`/v1/contacts/${awayId}/merge`, body);

const primaryOf = async (id: number, kind: 'phone' | 'email') =>
  (await channelsOf(t.database, id)).filter((c) => c.kind === kind && c.is_primary === 1).map((c) => c.value);

describe('GET /v1/contacts/{id}/merge-preview', () => {
  it('compares the person fields; phone and email can keep both', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    await customField(t.database, w.firmId, 'contact', 'shirt', 'Shirt size');
    await t.database.db
      .updateTable('contacts')
      .set({ custom_fields: JSON.stringify({ shirt: 'L' }) })
      .where('id', '=', away)
      .execute();
    const d = (await ok(w.api.get(`/v1/contacts/${away}/merge-preview?into=${kept}`))).data;
    expect(d.keep).toEqual({ id: kept, name: 'Pat Jones', archived: false });
    expect(d.merge_away).toEqual({ id: away, name: 'Patricia Jones', archived: false });
    const byField = Object.fromEntries(d.fields.map((f: any) => [f.field, f]));
    expect(Object.keys(byField).sort()).toEqual([
      'birthday',
      'company',
      'contact_type',
      'custom:shirt',
      'do_not_contact',
      'name',
      'phone',
      'title',
    ]);
    expect(byField.phone).toEqual({
      field: 'phone',
      label: 'Phone',
      keep_value: '(555) 111-2222',
      merge_away_value: '(555) 333-4444',
      needs_choice: true,
      default: 'keep',
      can_keep_both: true,
    });
    expect(byField.company).toMatchObject({
      keep_value: 'Acme Paving',
      merge_away_value: null,
      default: 'keep',
      needs_choice: false,
    });
    expect(byField.title).toMatchObject({ keep_value: 'Owner', merge_away_value: null, default: 'keep' });
    expect(byField.contact_type).toMatchObject({ keep_value: null, merge_away_value: 'customer', default: 'drop' });
    expect(byField.do_not_contact).toMatchObject({
      keep_value: false,
      merge_away_value: true,
      default: 'drop',
      needs_choice: false,
    });
    expect(byField['custom:shirt']).toMatchObject({
      label: 'Shirt size',
      keep_value: null,
      merge_away_value: 'L',
      default: 'drop',
    });
    expect(byField.name.can_keep_both).toBe(false);
  });

  it('counts jobs, channels, links, notes, activities and follow-ups', async () => {
    const w = await t.workspace();
    const { acme, kept, away } = await pair(w);
    const j1 = await job(w.api, { name: 'Job 1' });
    const j2 = await job(w.api, { name: 'Job 2' });
    await t.database.db
      .insertInto('job_contacts')
      .values({ job_id: j1.id, contact_id: away, role: 'billing', is_primary: 1, bills_separately: 0, created_at: 'x' })
      .execute();
    await ok(w.api.patch(`/v1/jobs/${j2.id}/details`, { linked_contact_id: away }));
    await channel(t.database, w.firmId, away, 'phone', '555 999 0000');
    await link(t.database, w.firmId, away, 'company', acme.id);
    await note(t.database, w.firmId, { contact_id: away });
    await activity(t.database, w.firmId, { contact_id: away }, 'c-1');
    await task(t.database, w.firmId, j1.id, away, w.ownerId);
    await accountTask(t.database, w.firmId, acme.id, w.ownerId, away);
    const d = (await ok(w.api.get(`/v1/contacts/${away}/merge-preview?into=${kept}`))).data;
    expect(d.moves).toEqual([
      // Two phones are new to the kept person; the email is one they already have.
      { count: 2, label: 'jobs' },
      { count: 2, label: 'phones and emails' },
      { count: 1, label: 'company and site links' },
      { count: 1, label: 'notes' },
      { count: 1, label: 'activities' },
      { count: 1, label: 'job follow-ups' },
      { count: 1, label: 'company follow-ups' },
    ]);
    expect(d.blockers).toEqual([]);
  });
});

describe('POST /v1/contacts/{id}/merge', () => {
  it('deletes the merged person and answers the kept one', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    const res = await merge(w, away, { into_contact_id: kept });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      kept: { id: kept, name: 'Pat Jones', archived: false },
      merged_id: away,
      merged_name: 'Patricia Jones',
    });
    expect(await row(t.database, 'contacts', away)).toBeUndefined();
    expect(await channelsOf(t.database, away)).toEqual([]);
    const again = await merge(w, away, { into_contact_id: kept });
    expect(again.status).toBe(404);
    expect(again.body.error).toBe('Contact not found');
  });

  it('moves people on jobs: a job with both keeps one row, primary if either was', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    const shared = await job(w.api, { name: 'Shared' });
    const own = await job(w.api, { name: 'Own' });
    const jc = (job_id: number, contact_id: number, role: string | null, is_primary: Flag) =>
      t.database.db
        .insertInto('job_contacts')
        .values({ job_id, contact_id, role, is_primary, bills_separately: 0, created_at: '2026-01-01T00:00:00.000000' })
        .execute();
    await jc(shared.id, kept, null, 0);
    await jc(shared.id, away, 'billing', 1);
    await jc(own.id, away, 'onsite', 0);
    await ok(merge(w, away, { into_contact_id: kept }));
    const rows = await t.database.db
      .selectFrom('job_contacts')
      .selectAll()
      .where('job_id', 'in', [shared.id, own.id])
      .orderBy('job_id')
      .execute();
    expect(rows.map((r) => [r.job_id, r.contact_id, r.role, r.is_primary])).toEqual([
      [shared.id, kept, 'billing', 1],
      [own.id, kept, 'onsite', 0],
    ]);
  });

  it("moves a job's linked contact through the job write path", async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    const j = await job(w.api, { name: 'Linked' });
    await ok(w.api.patch(`/v1/jobs/${j.id}/details`, { linked_contact_id: away }));
    const before = (await eventsOf(t.database, j.id)).length;
    await ok(merge(w, away, { into_contact_id: kept }));
    const details = (await ok(w.api.get(`/v1/jobs/${j.id}/details`))).data;
    expect(details.linked_contact_id).toBe(kept);
    const events = await eventsOf(t.database, j.id);
    expect(events.length).toBeGreaterThan(before);
    expect(events.at(-1)!.event_type).toBe('job_updated');
  });

  it('moves channels the kept person lacks as extras; by default the kept phone stays and the other is left behind', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    await channel(t.database, w.firmId, away, 'phone', '555-777-8888', { label: 'office' });
    await channel(t.database, w.firmId, away, 'email', 'PAT@acme.test');
    await ok(merge(w, away, { into_contact_id: kept }));
    const chans = await channelsOf(t.database, kept);
    expect(chans.map((c) => [c.kind, c.value, c.is_primary])).toEqual([
      ['email', 'pat@acme.test', 1],
      ['phone', '(555) 111-2222', 1],
      ['phone', '555-777-8888', 0],
    ]);
    expect((await row(t.database, 'contacts', kept)).phone).toBe('(555) 111-2222');
  });

  it('phone both adds the merged-away phone as an extra phone', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    await ok(merge(w, away, { into_contact_id: kept, choices: { phone: 'both' } }));
    const phones = (await channelsOf(t.database, kept)).filter((c) => c.kind === 'phone');
    expect(phones.map((c) => [c.value, c.is_primary])).toEqual([
      ['(555) 111-2222', 1],
      ['(555) 333-4444', 0],
    ]);
    expect((await row(t.database, 'contacts', kept)).phone).toBe('(555) 111-2222');
  });

  it('phone drop replaces the kept phone with the merged-away one', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    await ok(merge(w, away, { into_contact_id: kept, choices: { phone: 'drop' } }));
    expect(await primaryOf(kept, 'phone')).toEqual(['(555) 333-4444']);
    expect((await channelsOf(t.database, kept)).filter((c) => c.kind === 'phone')).toHaveLength(1);
    expect((await row(t.database, 'contacts', kept)).phone).toBe('(555) 333-4444');
  });

  it('a kept person without a phone takes the merged-away one as primary by default', async () => {
    const w = await t.workspace();
    const kept = await contact(t.database, w.firmId, { name: 'No Phone', email: 'np@x.test' });
    const away = await contact(t.database, w.firmId, { name: 'No Phone', phone: '555-202-3030' });
    const preview = (await ok(w.api.get(`/v1/contacts/${away}/merge-preview?into=${kept}`))).data;
    expect(preview.fields.find((f: any) => f.field === 'phone')).toMatchObject({
      keep_value: null,
      default: 'drop',
      needs_choice: false,
    });
    await ok(merge(w, away, { into_contact_id: kept }));
    expect(await primaryOf(kept, 'phone')).toEqual(['555-202-3030']);
    expect(await row(t.database, 'contacts', kept)).toMatchObject({ phone: '555-202-3030', email: 'np@x.test' });
  });

  it('folds company and site links, combining roles, one primary company', async () => {
    const w = await t.workspace();
    const { acme, kept, away } = await pair(w);
    const other = await customer(w.api, 'Other Co');
    const s = await site(w.api, { address: '7 Pine Rd' });
    const keptAcme = await link(t.database, w.firmId, kept, 'company', acme.id, { roles: ['billing'], primary: true });
    await link(t.database, w.firmId, away, 'company', acme.id, { roles: ['decision_maker'] });
    const awayOther = await link(t.database, w.firmId, away, 'company', other.id, { primary: true });
    const awaySite = await link(t.database, w.firmId, away, 'location', s.id, {
      roles: ['site_contact'],
      primary: true,
    });
    const ended = await link(t.database, w.firmId, away, 'company', acme.id, { ended_on: '2020-01-01' });
    await ok(merge(w, away, { into_contact_id: kept }));
    const links = await linksOf(t.database, kept);
    expect(links.map((l) => [l.id, l.kind, l.target_id, JSON.parse(l.roles), l.is_primary, l.ended_on])).toEqual([
      [keptAcme, 'company', acme.id, ['billing', 'decision_maker'], 1, null],
      [awayOther, 'company', other.id, [], 0, null],
      [awaySite, 'location', s.id, ['site_contact'], 1, null],
      [ended, 'company', acme.id, [], 0, '2020-01-01'],
    ]);
  });

  it('moves notes, activities, job follow-ups and company follow-ups', async () => {
    const w = await t.workspace();
    const { acme, kept, away } = await pair(w);
    const j = await job(w.api, { name: 'Job' });
    const n = await note(t.database, w.firmId, { contact_id: away });
    const a = await activity(t.database, w.firmId, { contact_id: away }, 'c-9');
    const tk = await task(t.database, w.firmId, j.id, away, w.ownerId);
    const at = await accountTask(t.database, w.firmId, acme.id, w.ownerId, away);
    await ok(merge(w, away, { into_contact_id: kept }));
    expect((await row(t.database, 'notes', n)).contact_id).toBe(kept);
    expect((await row(t.database, 'activities', a)).contact_id).toBe(kept);
    expect((await row(t.database, 'tasks', tk)).contact_id).toBe(kept);
    expect((await row(t.database, 'account_tasks', at)).contact_id).toBe(kept);
  });

  it('settles fields: blanks filled, tags combined, do-not-contact carried, choices followed', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    await customField(t.database, w.firmId, 'contact', 'shirt', 'Shirt size');
    await t.database.db
      .updateTable('contacts')
      .set({ custom_fields: JSON.stringify({ shirt: 'M' }) })
      .where('id', '=', kept)
      .execute();
    await t.database.db
      .updateTable('contacts')
      .set({ custom_fields: JSON.stringify({ shirt: 'L' }) })
      .where('id', '=', away)
      .execute();
    await ok(
      merge(w, away, { into_contact_id: kept, choices: { name: 'drop', 'custom:shirt': 'drop', birthday: 'keep' } }),
    );
    const after = await row(t.database, 'contacts', kept);
    expect(after).toMatchObject({
      name: 'Patricia Jones',
      title: 'Owner',
      contact_type: 'customer',
      birthday: null,
      do_not_contact: 1,
      do_not_contact_reason: 'Asked by phone',
      email: 'pat@acme.test',
      company: 'Acme Paving',
    });
    expect(JSON.parse(after.tags)).toEqual(['vip', 'golf']);
    expect(JSON.parse(after.custom_fields)).toEqual({ shirt: 'L' });
    expect(after.sort_key).toBe('patricia jones');
  });

  it("company drop takes the merged-away person's company and makes it the primary link", async () => {
    const w = await t.workspace();
    const { acme, kept, away } = await pair(w);
    const other = await customer(w.api, 'Other Co');
    await link(t.database, w.firmId, kept, 'company', acme.id, { primary: true });
    await t.database.db
      .updateTable('contacts')
      .set({ client_account_id: other.id, company: 'Other Co' })
      .where('id', '=', away)
      .execute();
    await link(t.database, w.firmId, away, 'company', other.id, { primary: true });
    await ok(merge(w, away, { into_contact_id: kept, choices: { company: 'drop' } }));
    const after = await row(t.database, 'contacts', kept);
    expect(after).toMatchObject({ client_account_id: other.id, company: 'Other Co' });
    const primaries = (await linksOf(t.database, kept)).filter((l) => l.kind === 'company' && l.is_primary === 1);
    expect(primaries.map((l) => l.target_id)).toEqual([other.id]);
  });
});
