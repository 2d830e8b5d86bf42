// The workspace switch that prevents deleting records (document 1, Permissions: "answers 403 on
// deletions"). The walk takes every DELETE and merge route the API publishes (its OpenAPI
// document), so a new one cannot slip past: a route is a deletion when it needs Delete records
// (a key without it hears 403 missing_permission), and with the lock on every deletion answers
// 403 Deletion locked and leaves the record as it was. The DELETEs that need only Write jobs
// (taking a tag or a person off a job, a channel or link off a person, turning a webhook off) are
// edits, and the lock leaves them alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, startApp, type Client, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { image, uploadPhoto } from '#test/field/photos/upload.ts';
import { pdf, postForm, uploadJobFile } from '#test/field/files/upload.ts';
import { measuredLot } from '#test/measurement/measured.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

async function ok<T = any>(p: Promise<{ status: number; body: T }>): Promise<T> {
  const res = await p;
  expect([200, 201], JSON.stringify(res.body)).toContain(res.status);
  return res.body;
}

/** One call of a route: the concrete path and body, and the read that shows the record is intact. */
interface Probe {
  path: string;
  body?: unknown;
  read: string;
}

/** A workspace holding one record for every DELETE and merge route, keyed by the route's OpenAPI path. */
async function provision(w: Workspace): Promise<Record<string, Probe>> {
  const job = (await ok(w.api.post('/v1/jobs', { name: 'Lock job', address: '1 Lock St' }))).data;
  const job2 = (await ok(w.api.post('/v1/jobs', { name: 'Lock job 2' }))).data;
  const ca = (await ok(w.api.post('/v1/client-accounts', { name: 'Lock customer' }))).data;
  const ca2 = (await ok(w.api.post('/v1/client-accounts', { name: 'Lock customer 2' }))).data;
  const loc = (await ok(w.api.post('/v1/locations', { address: '2 Lock St', client_account_id: ca.id }))).data;
  const loc2 = (await ok(w.api.post('/v1/locations', { address: '3 Lock St' }))).data;
  const person = (await ok(w.api.post('/v1/contacts', { name: 'Lock person', phone: '555-010-3000' }))).data;
  const person2 = (await ok(w.api.post('/v1/contacts', { name: 'Lock person 2' }))).data;
  const channel = person.channels.find((c: { kind: string }) => c.kind === 'phone');
  await ok(w.api.post(`/v1/contacts/${person.id}/links`, { client_account_id: ca.id, roles: ['billing'] }));
  await ok(w.api.post(`/v1/jobs/${job.id}/contacts`, { contact_id: person.id, role: 'billing' }));
  const tag = (await ok(w.api.post('/v1/job-tags', { name: 'Lock tag' }))).data;
  await ok(w.api.post(`/v1/jobs/${job.id}/tags`, { tag_ids: [tag.id] }));
  const field = (await ok(w.api.post('/v1/custom-fields', { entity_type: 'job', label: 'Lock code' }))).data;
  const note = (await ok(w.api.post(`/v1/jobs/${job.id}/notes`, { content: 'Gate on the north side' }))).data;
  const task = (await ok(w.api.post('/v1/tasks', { job_id: job.id, title: 'Call back' }))).data;
  const accountTask = (await ok(w.api.post('/v1/account-tasks', { client_account_id: ca.id }))).data;
  const webhook = (
    await ok(w.api.post('/v1/webhooks', { target_url: 'https://lock.example.com/hook', event_type: '*', secret: 'x' }))
  ).data;
  // The starter catalog every workspace gets.
  const service = (await ok(w.api.get('/v1/catalog/services?q=mill'))).data[0];
  const costLine = (await ok(w.api.get(`/v1/catalog/services/${service.id}`))).data.cost_lines[0];
  const item = (await ok(w.api.get('/v1/catalog/items?kind=truck'))).data[0];
  const priceList = (await ok(w.api.get('/v1/price-lists'))).data[0];
  const template = (await ok(w.api.get('/v1/estimate-templates'))).data[0];
  const estimate = (await ok(w.api.post('/v1/estimates', { job_id: job.id }))).data;
  const photoTag = (await ok(w.api.post('/v1/photo-tags', { name: 'Lock photo tag' }))).data;
  const photo = (await ok(uploadPhoto(t, w, job.id, await image('png')))).data;
  const measurement = await measuredLot(t, w, job.id);
  const takeoff = (await ok(w.api.post(`/v1/jobs/${job.id}/landscape-takeoffs`, { type: 'aerial' }))).data;
  const lawn = (
    await ok(
      w.api.post(`/v1/landscape-takeoffs/${takeoff.id}/items`, {
        items: [{ class: 'shrub', point: [40, -75] }],
      }),
    )
  ).data[0];
  const pin = (await ok(w.api.post('/v1/assessment-pins', { job_id: job.id, latitude: 40, longitude: -75 }))).data;
  const line = (
    await ok(w.api.post(`/v1/estimates/${estimate.id}/line-items`, { service_id: service.id, quantity: 1000 }))
  ).line_item_id;
  const file = (await ok(uploadJobFile(t, w, job.id, pdf(), 'Lock plan.pdf'))).data;
  const folder = (await ok(w.api.post('/v1/library-folders', { name: 'Lock folder' }))).data;
  const libraryFile = (
    await ok(postForm(t, w.key, '/v1/library-files', [{ name: 'file', filename: 'Lock spec.pdf', data: pdf() }]))
  ).data;
  await ok(w.api.post(`/v1/jobs/${job.id}/library-files`, { file_id: libraryFile.id }));
  const cycle = (await ok(w.api.get('/v1/rebid-cycles'))).data[0]!;
  const hold = (await ok(w.api.post('/v1/schedule/holds', { job_id: job.id, scheduled_date: '2027-05-03' }))).data;
  const rebidWork = (
    await ok(w.api.post('/v1/rebids/history', { location_id: loc.id, cycle_id: cycle.id, done_on: '2025-04-01' }))
  ).data;

  return {
    'DELETE /v1/jobs/{id}': { path: `/v1/jobs/${job2.id}`, read: `/v1/jobs/${job2.id}` },
    'POST /v1/jobs/{id}/merge': {
      path: `/v1/jobs/${job2.id}/merge`,
      body: { into_job_id: job.id },
      read: `/v1/jobs/${job2.id}`,
    },
    'POST /v1/client-accounts/{id}/merge': {
      path: `/v1/client-accounts/${ca2.id}/merge`,
      body: { into_client_account_id: ca.id },
      read: `/v1/client-accounts/${ca2.id}`,
    },
    'POST /v1/contacts/{id}/merge': {
      path: `/v1/contacts/${person2.id}/merge`,
      body: { into_contact_id: person.id },
      read: `/v1/contacts/${person2.id}`,
    },
    'POST /v1/locations/{id}/merge': {
      path: `/v1/locations/${loc2.id}/merge`,
      body: { into_location_id: loc.id },
      read: `/v1/locations/${loc2.id}`,
    },
    'DELETE /v1/contacts/{id}': { path: `/v1/contacts/${person2.id}`, read: `/v1/contacts/${person2.id}` },
    'DELETE /v1/custom-fields/{id}': {
      path: `/v1/custom-fields/${field.id}`,
      read: '/v1/custom-fields?include_archived=true',
    },
    'DELETE /v1/notes/{id}': { path: `/v1/notes/${note.id}`, read: `/v1/notes/${note.id}` },
    'DELETE /v1/tasks/{id}': { path: `/v1/tasks/${task.id}`, read: `/v1/tasks/${task.id}` },
    'DELETE /v1/account-tasks/{id}': {
      path: `/v1/account-tasks/${accountTask.id}`,
      read: `/v1/account-tasks/${accountTask.id}`,
    },
    'DELETE /v1/catalog/services/{id}': {
      path: `/v1/catalog/services/${service.id}`,
      read: `/v1/catalog/services/${service.id}`,
    },
    'DELETE /v1/catalog/services/{id}/cost-lines/{line_id}': {
      path: `/v1/catalog/services/${service.id}/cost-lines/${costLine.id}`,
      read: `/v1/catalog/services/${service.id}`,
    },
    'DELETE /v1/catalog/items/{id}': { path: `/v1/catalog/items/${item.id}`, read: `/v1/catalog/items/${item.id}` },
    'DELETE /v1/price-lists/{id}': { path: `/v1/price-lists/${priceList.id}`, read: `/v1/price-lists/${priceList.id}` },
    'DELETE /v1/estimate-templates/{id}': {
      path: `/v1/estimate-templates/${template.id}`,
      read: `/v1/estimate-templates/${template.id}`,
    },
    'DELETE /v1/estimates/{id}': { path: `/v1/estimates/${estimate.id}`, read: `/v1/estimates/${estimate.id}` },
    'DELETE /v1/estimates/{id}/line-items/{line_item_id}': {
      path: `/v1/estimates/${estimate.id}/line-items/${line}`,
      read: `/v1/estimates/${estimate.id}/line-items/${line}`,
    },
    'DELETE /v1/photo-tags/{id}': { path: `/v1/photo-tags/${photoTag.id}`, read: '/v1/photo-tags' },
    'DELETE /v1/photos/{id}': { path: `/v1/photos/${photo.id}`, read: `/v1/photos/${photo.id}` },
    'DELETE /v1/measurements/{id}': {
      path: `/v1/measurements/${measurement}`,
      read: `/v1/measurements/${measurement}`,
    },
    'DELETE /v1/landscape-takeoffs/{id}/items/{item_id}': {
      path: `/v1/landscape-takeoffs/${takeoff.id}/items/${lawn.id}`,
      read: `/v1/landscape-takeoffs/${takeoff.id}/items`,
    },
    'DELETE /v1/assessment-pins/{id}': { path: `/v1/assessment-pins/${pin.id}`, read: `/v1/assessment-pins/${pin.id}` },
    'DELETE /v1/files/{id}': { path: `/v1/files/${file.id}`, read: `/v1/jobs/${job.id}/files` },
    'DELETE /v1/library-folders/{id}': { path: `/v1/library-folders/${folder.id}`, read: '/v1/library-folders' },
    // Taking a library file off a job is an edit of the job (Write jobs), like a tag.
    'DELETE /v1/jobs/{job_id}/library-files/{file_id}': {
      path: `/v1/jobs/${job.id}/library-files/${libraryFile.id}`,
      read: `/v1/jobs/${job.id}/files`,
    },
    // Edits that need only Write jobs: the lock does not apply.
    'DELETE /v1/jobs/{job_id}/contacts/{contact_id}': {
      path: `/v1/jobs/${job.id}/contacts/${person.id}`,
      read: `/v1/jobs/${job.id}/contacts`,
    },
    'DELETE /v1/jobs/{job_id}/tags/{tag_id}': { path: `/v1/jobs/${job.id}/tags/${tag.id}`, read: `/v1/jobs/${job.id}` },
    'DELETE /v1/contacts/{id}/channels/{ref}': {
      path: `/v1/contacts/${person.id}/channels/${channel!.ref}`,
      read: `/v1/contacts/${person.id}`,
    },
    'DELETE /v1/contacts/{id}/links/{kind}/{target_id}': {
      path: `/v1/contacts/${person.id}/links/company/${ca.id}`,
      read: `/v1/contacts/${person.id}`,
    },
    'DELETE /v1/webhooks/{id}': { path: `/v1/webhooks/${webhook.id}`, read: '/v1/webhooks' },
    'DELETE /v1/schedule/holds/{id}': { path: `/v1/schedule/holds/${hold.id}`, read: `/v1/schedule/holds/${hold.id}` },
    'DELETE /v1/rebids/history/{record_id}': {
      path: `/v1/rebids/history/${rebidWork.id}`,
      read: `/v1/rebids?status=all&location_id=${loc.id}`,
    },
  };
}

/** Every DELETE route and every merge the API publishes, as `METHOD /path/{param}`. */
async function deleteAndMergeRoutes(): Promise<string[]> {
  const doc = (await t.anon.get('/v1/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
  const routes: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (ops.delete) routes.push(`DELETE ${path}`);
    if (ops.post && path.endsWith('/merge')) routes.push(`POST ${path}`);
  }
  return routes.sort();
}

const call = (api: Client, route: string, probe: Probe) => api.request(route.split(' ')[0]!, probe.path, probe.body);

describe('the deletion lock', () => {
  let w: Workspace;
  let probes: Record<string, Probe>;
  let routes: string[];
  /** Routes that need Delete records, found by asking with a key that lacks it. */
  let deletions: string[];

  beforeAll(async () => {
    w = await t.workspace({ settings: { operations_enabled: true } });
    probes = await provision(w);
    routes = await deleteAndMergeRoutes();
    const noDelete = t.as(
      await t.key(
        w.firmId,
        w.ownerId,
        ALL_PERMISSIONS.filter((p) => p !== 'delete_records'),
      ),
    );
    deletions = [];
    for (const route of routes) {
      // Ids that name nothing: the permission check comes first, and nothing else can happen.
      const [method, template] = route.split(' ') as [string, string];
      const path = template.replace('{kind}', 'company').replace(/\{[a-z_]+\}/g, '999999');
      const res = await noDelete.request(method, path, method === 'POST' ? {} : undefined);
      if (res.status === 403 && res.body.permission === 'delete_records') deletions.push(route);
    }
    const lock = await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { deletion_locked: true } });
    expect(lock.status).toBe(200);
  });

  it('every DELETE and merge route has a probe here (a new one must be added to the walk)', () => {
    expect(routes.length).toBeGreaterThanOrEqual(21);
    expect(routes.filter((r) => !probes[r])).toEqual([]);
  });

  it('the deletions are the calls the spec says need Delete records', () => {
    expect(deletions).toEqual(
      expect.arrayContaining([
        'DELETE /v1/jobs/{id}',
        'POST /v1/jobs/{id}/merge',
        'DELETE /v1/contacts/{id}',
        'DELETE /v1/custom-fields/{id}',
        'DELETE /v1/notes/{id}',
        'DELETE /v1/tasks/{id}',
        'DELETE /v1/account-tasks/{id}',
        'DELETE /v1/files/{id}',
        'DELETE /v1/library-folders/{id}',
      ]),
    );
    expect(deletions).not.toContain('DELETE /v1/webhooks/{id}');
    expect(deletions).not.toContain('DELETE /v1/jobs/{job_id}/library-files/{file_id}');
    expect(deletions).not.toContain('DELETE /v1/jobs/{job_id}/tags/{tag_id}');
  });

  it('every deletion answers 403 Deletion locked and nothing is deleted, archived or moved', async () => {
    const before: Record<string, unknown> = {};
    for (const route of deletions) before[route] = (await w.api.get(probes[route]!.read)).body;
    const refused: Record<string, unknown> = {};
    for (const route of deletions) {
      const res = await call(w.api, route, probes[route]!);
      refused[route] = res.status === 403 ? res.body.code : `${res.status} ${res.body?.code ?? ''}`;
      if (res.status === 403) {
        expect(res.body, route).toMatchObject({
          error: 'Deletion locked',
          code: 'deletion_locked',
          deletion_locked: true,
        });
        expect(typeof res.body.message, route).toBe('string');
      }
    }
    expect(refused).toEqual(Object.fromEntries(deletions.map((r) => [r, 'deletion_locked'])));
    for (const route of deletions) {
      const after = await w.api.get(probes[route]!.read);
      expect(after.status, route).toBe(200);
      expect(after.body, route).toEqual(before[route]);
    }
    // Hard delete of a person too.
    const person = probes['DELETE /v1/contacts/{id}']!;
    expect((await w.api.delete(`${person.path}?hard=true`)).body.code).toBe('deletion_locked');
    expect((await w.api.get(person.read)).body.data.archived_at).toBeNull();
  });

  it('a record that is not there is still 404 first', async () => {
    for (const path of [
      '/v1/notes/999999',
      '/v1/tasks/999999',
      '/v1/account-tasks/999999',
      '/v1/estimates/999999',
      '/v1/catalog/items/999999',
      '/v1/files/999999',
      '/v1/library-folders/999999',
    ]) {
      expect((await w.api.delete(path)).status, path).toBe(404);
    }
  });

  it('the DELETEs that only take something off a record still work', async () => {
    const edits = routes.filter((r) => !deletions.includes(r));
    expect(edits.sort()).toEqual([
      'DELETE /v1/contacts/{id}/channels/{ref}',
      'DELETE /v1/contacts/{id}/links/{kind}/{target_id}',
      'DELETE /v1/jobs/{job_id}/contacts/{contact_id}',
      'DELETE /v1/jobs/{job_id}/library-files/{file_id}',
      'DELETE /v1/jobs/{job_id}/tags/{tag_id}',
      'DELETE /v1/webhooks/{id}',
    ]);
    for (const route of edits) {
      const res = await call(w.api, route, probes[route]!);
      expect([200, 204], `${route}: ${JSON.stringify(res.body)}`).toContain(res.status);
    }
  });

  it('with the lock off again the same calls go through', async () => {
    await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { deletion_locked: false } });
    for (const route of ['DELETE /v1/notes/{id}', 'DELETE /v1/tasks/{id}', 'DELETE /v1/account-tasks/{id}']) {
      expect((await call(w.api, route, probes[route]!)).status, route).toBe(204);
      expect((await w.api.get(probes[route]!.read)).status, route).toBe(404);
    }
  });
});
