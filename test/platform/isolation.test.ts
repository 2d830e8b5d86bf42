// THE WALK (GUIDE, Quality bar): every route that takes an id is tried with another workspace's
// ids (404, and nothing changes), every write route with a read-only key (403) and every read
// route with a key lacking read_jobs (403). Document 1, Conventions 1 and Permissions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, insertContact, startApp, type Client, type TestApp, type Workspace } from '#test/helpers/harness.ts';

let t: TestApp;
beforeAll(async () => { t = await startApp(); });
afterAll(() => t.close());

const DIVISIONS = [{ key: 'paving', name: 'Paving' }, { key: 'seal', name: 'Sealcoating' }];

interface Ids {
  job: number; job2: number; ca: number; loc: number; tag: number; contact: number; owner: number;
  webhook: number; delivery: number; eventId: string; exportFile: number;
  ca2: number; loc2: number; contact2: number; channel: number; field: number;
  note: number; activity: number; task: number; accountTask: number;
  service: number; serviceCostLine: number; item: number; priceList: number; template: number;
  estimate: number; estimateLine: number; estimateCostLine: number; issuedEstimate: number;
}

async function ok<T = any>(p: Promise<{ status: number; body: T }>, status = [200, 201]): Promise<T> {
  const res = await p;
  expect(status, JSON.stringify(res.body)).toContain(res.status);
  return res.body;
}

/**
 * A workspace with a customer, a site, two jobs, a tag and a contact, all linked; a second
 * customer, site and person (merge targets); a custom field with values, a note, an activity and
 * follow-ups on the job and the customer.
 */
async function provision(label: string): Promise<{ w: Workspace; ids: Ids }> {
  const w = await t.workspace({ settings: { crew_scheduling_enabled: true }, divisions: DIVISIONS });
  const ca = (await ok(w.api.post('/v1/client-accounts', { name: `${label} Customer`, external_ref: `${label}-CUST`, email: `${label}@c.test` }))).data;
  const loc = (await ok(w.api.post('/v1/locations', {
    address: `1 ${label} Plaza`, external_ref: `${label}-SITE`, client_account_id: ca.id, property_reference: `${label}-PID`,
  }))).data;
  const job = (await ok(w.api.post('/v1/jobs', {
    name: `${label} Parking Lot`, external_ref: `${label}-JOB`, address: `1 ${label} Plaza`, client_account_id: ca.id,
    estimated_value: 12500.5,
  }))).data;
  const job2 = (await ok(w.api.post('/v1/jobs', { name: `${label} Second Job` }))).data;
  const tag = (await ok(w.api.post('/v1/job-tags', { name: `${label} Tag`, color: '#112233' }))).data;
  await ok(w.api.post(`/v1/jobs/${job.id}/tags`, { tag_ids: [tag.id] }));
  const contact = await insertContact(t.database, w.firmId, { name: `${label} Person`, email: `${label}@p.test`, client_account_id: ca.id });
  await ok(w.api.patch(`/v1/jobs/${job.id}/details`, { linked_contact_id: contact, accounting_job_number: `${label}-ACC` }));
  await ok(w.api.patch(`/v1/jobs/${job.id}/operations-assignment`, { division: 'paving', operations_assignee_user_id: w.ownerId }));
  expect(job.location_id).toBe(loc.id);
  // A subscription that received the job events above (nothing sends them: no worker runs here).
  const webhook = (await ok(w.api.post('/v1/webhooks', { target_url: `https://${label.toLowerCase()}.example.com/hook`, event_type: '*', secret: 'x' }))).data;
  await ok(w.api.post(`/v1/jobs/${job2.id}/move`, { status: 'won' }));
  const delivery = (await ok(w.api.get('/v1/webhooks/deliveries'))).data[0];
  const feedEvent = (await ok(w.api.get('/v1/events?limit=1'))).data[0];
  const exportFile = (await ok(w.api.post('/v1/exports', { kind: 'workspace_data' }), [202])).data;

  const ca2 = (await ok(w.api.post('/v1/client-accounts', { name: `${label} Other Customer` }))).data;
  const loc2 = (await ok(w.api.post('/v1/locations', { address: `2 ${label} Plaza`, client_account_id: ca2.id }))).data;
  const person = (await ok(w.api.post('/v1/contacts', {
    name: `${label} Second Person`, email: `${label}2@p.test`, phone: '555-010-2000', client_account_id: ca2.id,
  }))).data;
  await ok(w.api.post(`/v1/contacts/${person.id}/links`, { location_id: loc2.id, roles: ['site_contact'] }));
  await ok(w.api.post(`/v1/jobs/${job2.id}/contacts`, { contact_id: person.id, role: 'billing' }));
  const field = (await ok(w.api.post('/v1/custom-fields', { entity_type: 'job', label: `${label} Gate code` }))).data;
  await ok(w.api.patch(`/v1/jobs/${job.id}/custom-fields`, { custom_fields: { [field.key]: '1234' } }));
  const note = (await ok(w.api.post(`/v1/jobs/${job.id}/notes`, { content: `${label} gate is on the north side` }))).data;
  await ok(w.api.post(`/v1/contacts/${person.id}/notes`, { content: 'Prefers mornings', type: 'call' }));
  await ok(w.api.post(`/v1/client-accounts/${ca.id}/notes`, { content: 'Pays net 30' }));
  const activity = (await ok(w.api.post('/v1/activities', {
    type: 'call', body: 'Discussed scope', source: 'crm', external_id: `${label}-ACT-1`, associations: { job_id: job.id },
  }))).data;
  const task = (await ok(w.api.post('/v1/tasks', { job_id: job.id, title: 'Call about the gate' }))).data;
  const accountTask = (await ok(w.api.post('/v1/account-tasks', { client_account_id: ca.id }))).data;
  // Every workspace starts with the starter catalog: take its records.
  const service = (await ok(w.api.get('/v1/catalog/services?q=crack'))).data[0];
  const serviceFull = (await ok(w.api.get(`/v1/catalog/services/${service.id}`))).data;
  const item = (await ok(w.api.get('/v1/catalog/items?kind=truck'))).data[0];
  const priceList = (await ok(w.api.get('/v1/price-lists'))).data[0];
  const template = (await ok(w.api.get('/v1/estimate-templates'))).data[0];
  // A draft estimate with a detailed line (cost lines), and an issued and won one (versions, award, change orders).
  const estimate = (await ok(w.api.post('/v1/estimates', { job_id: job.id }))).data;
  const overlay = (await ok(w.api.get('/v1/catalog/services?q=mill'))).data[0];
  const added = await ok(w.api.post(`/v1/estimates/${estimate.id}/line-items`, { service_id: overlay.id, quantity: 1000 }));
  const lineFull = (await ok(w.api.get(`/v1/estimates/${estimate.id}/line-items/${added.line_item_id}`))).data;
  const issued = (await ok(w.api.post('/v1/estimates', { job_id: job2.id, template_id: template.id }))).data;
  await ok(w.api.post(`/v1/estimates/${issued.id}/line-items`, { service_id: overlay.id, quantity: 500 }));
  await ok(w.api.post(`/v1/estimates/${issued.id}/issue`, {}));
  await ok(w.api.post(`/v1/estimates/${issued.id}/mark-won`, {}));
  return {
    w, ids: {
      job: job.id, job2: job2.id, ca: ca.id, loc: loc.id, tag: tag.id, contact, owner: w.ownerId,
      webhook: webhook.id, delivery: delivery.id, eventId: feedEvent.event_id, exportFile: exportFile.id,
      ca2: ca2.id, loc2: loc2.id, contact2: person.id, channel: person.channels.find((c: any) => c.kind === 'phone').id,
      field: field.id, note: note.id, activity: activity.id, task: task.id, accountTask: accountTask.id,
      service: service.id, serviceCostLine: serviceFull.cost_lines[0].id, item: item.id, priceList: priceList.id, template: template.id,
      estimate: estimate.id, estimateLine: added.line_item_id, estimateCostLine: lineFull.cost_lines[0].id, issuedEstimate: issued.id,
    },
  };
}

/** Everything a workspace's records look like, read with its own key. */
async function snapshot(api: Client, ids: Ids) {
  const paths = [
    `/v1/jobs/${ids.job}`, `/v1/jobs/${ids.job2}`, `/v1/jobs/${ids.job}/details`, `/v1/jobs/${ids.job2}/details`,
    `/v1/client-accounts/${ids.ca}`, `/v1/locations/${ids.loc}`,
    '/v1/jobs', '/v1/client-accounts?include_archived=true', '/v1/locations?include_archived=true', '/v1/job-tags', '/v1/users',
    '/v1/webhooks', '/v1/webhooks/deliveries?limit=200', `/v1/webhooks/deliveries/${ids.delivery}`, '/v1/events?limit=200',
    `/v1/exports/files/${ids.exportFile}`, '/v1/exports/jobs.jsonl', '/v1/exports/customers.jsonl', '/v1/exports/properties.jsonl',
    '/v1/exports/events.jsonl',
    `/v1/contacts/${ids.contact}`, `/v1/contacts/${ids.contact2}`, '/v1/contacts?include_archived=true',
    `/v1/jobs/${ids.job}/contacts`, `/v1/jobs/${ids.job2}/contacts`, `/v1/client-accounts/${ids.ca}/contacts`,
    `/v1/client-accounts/${ids.ca2}/contacts`, `/v1/client-accounts/${ids.ca2}`, `/v1/locations/${ids.loc2}`,
    '/v1/custom-fields?include_archived=true', `/v1/jobs/${ids.job}/notes`, `/v1/contacts/${ids.contact2}/notes`,
    `/v1/client-accounts/${ids.ca}/notes`, `/v1/notes/${ids.note}`, '/v1/activities', `/v1/activities/${ids.activity}`,
    '/v1/tasks?status=all', `/v1/tasks/${ids.task}`, '/v1/account-tasks?status=all', `/v1/account-tasks/${ids.accountTask}`,
    `/v1/jobs/${ids.job}/activity`, `/v1/jobs/${ids.job2}/activity`,
    '/v1/catalog/services?include_archived=true', `/v1/catalog/services/${ids.service}`, '/v1/catalog/items?include_archived=true',
    `/v1/catalog/items/${ids.item}`, '/v1/price-lists?include_archived=true', `/v1/price-lists/${ids.priceList}`,
    '/v1/estimate-templates?include_archived=true', `/v1/estimate-templates/${ids.template}`,
    '/v1/estimates?include_archived=true', `/v1/estimates/${ids.estimate}`, `/v1/estimates/${ids.issuedEstimate}`,
    `/v1/estimates/${ids.issuedEstimate}?version=1`, `/v1/estimates/${ids.estimate}/line-items/${ids.estimateLine}`,
    `/v1/estimates/${ids.issuedEstimate}/versions`, `/v1/estimates/${ids.estimate}/revisions`,
    '/v1/exports/estimates.jsonl', '/v1/exports/estimate_lines.jsonl',
  ];
  const out: Record<string, unknown> = {};
  for (const p of paths) {
    const res = await api.get(p);
    expect(res.status, p).toBe(200);
    out[p] = res.body;
  }
  out.events = (await eventsOf(t.database, ids.job)).length + (await eventsOf(t.database, ids.job2)).length;
  return out;
}

interface Call { method: string; path: string; body?: unknown; error?: string }

describe('another workspace\'s ids are 404 and change nothing', () => {
  let A: { w: Workspace; ids: Ids };
  let B: { w: Workspace; ids: Ids };
  beforeAll(async () => {
    A = await provision('A');
    B = await provision('B');
  });

  it('every id-taking route, called with B\'s key and A\'s ids, answers 404', async () => {
    const a = A.ids;
    const b = B.ids;
    const beforeA = await snapshot(A.w.api, a);
    const beforeB = await snapshot(B.w.api, b);
    const calls: Call[] = [
      { method: 'GET', path: `/v1/jobs/${a.job}`, error: 'Job not found' },
      { method: 'PATCH', path: `/v1/jobs/${a.job}`, body: { name: 'Hijacked', notes: 'x' }, error: 'Job not found' },
      { method: 'DELETE', path: `/v1/jobs/${a.job}`, error: 'Job not found' },
      { method: 'POST', path: `/v1/jobs/${a.job}/move`, body: { status: 'won' }, error: 'Job not found' },
      { method: 'POST', path: `/v1/jobs/${a.job}/merge`, body: { into_job_id: b.job2 }, error: 'Job not found' },
      { method: 'POST', path: `/v1/jobs/${b.job2}/merge`, body: { into_job_id: a.job }, error: 'Job not found' },
      { method: 'GET', path: `/v1/jobs/${a.job}/details`, error: 'Job not found' },
      { method: 'PATCH', path: `/v1/jobs/${a.job}/details`, body: { accounting_job_number: 'HIJACK' }, error: 'Job not found' },
      { method: 'PATCH', path: `/v1/jobs/${b.job}/details`, body: { linked_contact_id: a.contact } },
      { method: 'PUT', path: `/v1/jobs/${a.job}/location`, body: { location_id: null }, error: 'Job not found' },
      { method: 'PUT', path: `/v1/jobs/${a.job}/location`, body: { location_id: a.loc }, error: 'Job not found' },
      { method: 'PUT', path: `/v1/jobs/${a.job}/location`, body: { create_from_address: true }, error: 'Job not found' },
      { method: 'PUT', path: `/v1/jobs/${b.job2}/location`, body: { location_id: a.loc } },
      { method: 'PATCH', path: `/v1/jobs/${a.job}/operations-assignment`, body: { division: null }, error: 'Job not found' },
      { method: 'PATCH', path: `/v1/jobs/${b.job}/operations-assignment`, body: { operations_assignee_user_id: a.owner } },
      { method: 'DELETE', path: `/v1/jobs/${a.job}/contacts/${a.contact}` },
      { method: 'DELETE', path: `/v1/jobs/${b.job}/contacts/${a.contact}` },
      { method: 'POST', path: `/v1/jobs/${a.job}/tags`, body: { tag_ids: [b.tag] }, error: 'Job not found' },
      { method: 'POST', path: `/v1/jobs/${b.job}/tags`, body: { tag_ids: [a.tag] }, error: 'Tag not found' },
      { method: 'DELETE', path: `/v1/jobs/${a.job}/tags/${a.tag}` },
      { method: 'DELETE', path: `/v1/jobs/${b.job}/tags/${a.tag}` },
      { method: 'GET', path: `/v1/client-accounts/${a.ca}`, error: 'Client account not found' },
      { method: 'PATCH', path: `/v1/client-accounts/${a.ca}`, body: { name: 'Hijacked', archived: true }, error: 'Client account not found' },
      { method: 'GET', path: `/v1/locations/${a.loc}`, error: 'Location not found' },
      { method: 'PATCH', path: `/v1/locations/${a.loc}`, body: { notes: 'x', archived: true }, error: 'Location not found' },
      { method: 'PATCH', path: `/v1/locations/${b.loc}`, body: { client_account_id: a.ca }, error: 'client_account_id not found in this workspace' },
      { method: 'POST', path: '/v1/jobs', body: { name: 'Sneaky job', client_account_id: a.ca }, error: 'client_account_id not found in this workspace' },
      { method: 'POST', path: '/v1/jobs', body: { name: 'Sneaky job 2', client_account_external_ref: 'A-CUST' } },
      { method: 'POST', path: '/v1/jobs', body: { name: 'Sneaky job 3', assigned_to_user_id: a.owner } },
      { method: 'POST', path: '/v1/locations', body: { address: '9 Sneaky St', client_account_id: a.ca }, error: 'client_account_id not found in this workspace' },
      { method: 'POST', path: '/v1/locations', body: { address: '10 Sneaky St', client_account_external_ref: 'A-CUST' } },
      { method: 'PATCH', path: `/v1/jobs/${b.job}`, body: { assigned_to_user_id: a.owner } },
      { method: 'PATCH', path: `/v1/jobs/${b.job}`, body: { client_account_id: a.ca }, error: 'client_account_id not found in this workspace' },
      { method: 'PATCH', path: `/v1/webhooks/${a.webhook}`, body: { target_url: 'https://evil.example.com/', active: true }, error: 'Webhook subscription not found' },
      { method: 'DELETE', path: `/v1/webhooks/${a.webhook}`, error: 'Webhook subscription not found' },
      { method: 'GET', path: `/v1/webhooks/deliveries/${a.delivery}`, error: 'Webhook delivery not found' },
      { method: 'POST', path: `/v1/webhooks/deliveries/${a.delivery}/redeliver`, error: 'Webhook delivery not found' },
      { method: 'POST', path: '/v1/webhooks/replay', body: { event_id: a.eventId }, error: 'Event not found' },
      { method: 'POST', path: '/v1/webhooks/replay', body: { event_id: b.eventId, webhook_id: a.webhook } },
      { method: 'GET', path: `/v1/exports/files/${a.exportFile}`, error: 'Export not found' },
      // contacts, channels, links, people on jobs
      { method: 'GET', path: `/v1/contacts/${a.contact}`, error: 'Contact not found' },
      { method: 'PATCH', path: `/v1/contacts/${a.contact}`, body: { name: 'Hijacked' }, error: 'Contact not found' },
      { method: 'DELETE', path: `/v1/contacts/${a.contact}`, error: 'Contact not found' },
      { method: 'DELETE', path: `/v1/contacts/${a.contact}?hard=true`, error: 'Contact not found' },
      { method: 'POST', path: `/v1/contacts/${a.contact}/restore`, error: 'Contact not found' },
      { method: 'POST', path: `/v1/contacts/${a.contact2}/channels`, body: { kind: 'email', value: 'x@evil.test' }, error: 'Contact not found' },
      { method: 'PATCH', path: `/v1/contacts/${a.contact2}/channels/${a.channel}`, body: { label: 'fax' }, error: 'Contact not found' },
      { method: 'DELETE', path: `/v1/contacts/${a.contact2}/channels/${a.channel}`, error: 'Contact not found' },
      { method: 'PATCH', path: `/v1/contacts/${b.contact2}/channels/${a.channel}`, body: { label: 'fax' } },
      { method: 'DELETE', path: `/v1/contacts/${b.contact2}/channels/${a.channel}` },
      { method: 'POST', path: `/v1/contacts/${a.contact2}/links`, body: { client_account_id: b.ca }, error: 'Contact not found' },
      { method: 'POST', path: `/v1/contacts/${b.contact2}/links`, body: { client_account_id: a.ca }, error: 'client_account_id not found in this workspace' },
      { method: 'POST', path: `/v1/contacts/${b.contact2}/links`, body: { location_id: a.loc } },
      { method: 'DELETE', path: `/v1/contacts/${a.contact2}/links/location/${a.loc2}`, error: 'Contact not found' },
      { method: 'DELETE', path: `/v1/contacts/${b.contact2}/links/location/${a.loc2}` },
      { method: 'POST', path: '/v1/contacts', body: { name: 'Sneaky person', client_account_id: a.ca }, error: 'client_account_id not found in this workspace' },
      { method: 'PATCH', path: `/v1/contacts/${b.contact2}`, body: { client_account_id: a.ca }, error: 'client_account_id not found in this workspace' },
      { method: 'PATCH', path: `/v1/contacts/${b.contact2}`, body: { assigned_user_id: a.owner } },
      { method: 'GET', path: `/v1/jobs/${a.job}/contacts`, error: 'Job not found' },
      { method: 'POST', path: `/v1/jobs/${a.job}/contacts`, body: { contact_id: b.contact2 }, error: 'Job not found' },
      { method: 'POST', path: `/v1/jobs/${b.job}/contacts`, body: { contact_id: a.contact2 }, error: 'Contact not found' },
      { method: 'GET', path: `/v1/client-accounts/${a.ca}/contacts`, error: 'Client account not found' },
      // custom fields
      { method: 'PATCH', path: `/v1/custom-fields/${a.field}`, body: { label: 'Hijacked' }, error: 'Custom field not found' },
      { method: 'POST', path: `/v1/custom-fields/${a.field}/move`, body: { direction: 'down' }, error: 'Custom field not found' },
      { method: 'DELETE', path: `/v1/custom-fields/${a.field}`, error: 'Custom field not found' },
      { method: 'POST', path: `/v1/custom-fields/${a.field}/restore`, error: 'Custom field not found' },
      { method: 'PATCH', path: `/v1/jobs/${a.job}/custom-fields`, body: { custom_fields: {} }, error: 'Job not found' },
      { method: 'PATCH', path: `/v1/client-accounts/${a.ca}/custom-fields`, body: { custom_fields: {} }, error: 'Client account not found' },
      { method: 'PATCH', path: `/v1/contacts/${a.contact}/custom-fields`, body: { custom_fields: {} }, error: 'Contact not found' },
      { method: 'PATCH', path: `/v1/locations/${a.loc}/custom-fields`, body: { custom_fields: {} }, error: 'Location not found' },
      // notes, activities, follow-ups, the job log
      { method: 'POST', path: `/v1/jobs/${a.job}/notes`, body: { content: 'x' }, error: 'Job not found' },
      { method: 'GET', path: `/v1/jobs/${a.job}/notes`, error: 'Job not found' },
      { method: 'POST', path: `/v1/contacts/${a.contact2}/notes`, body: { content: 'x' }, error: 'Contact not found' },
      { method: 'GET', path: `/v1/contacts/${a.contact2}/notes`, error: 'Contact not found' },
      { method: 'POST', path: `/v1/client-accounts/${a.ca}/notes`, body: { content: 'x' }, error: 'Client account not found' },
      { method: 'GET', path: `/v1/client-accounts/${a.ca}/notes`, error: 'Client account not found' },
      { method: 'GET', path: `/v1/notes/${a.note}` },
      { method: 'PATCH', path: `/v1/notes/${a.note}`, body: { content: 'Hijacked' } },
      { method: 'DELETE', path: `/v1/notes/${a.note}` },
      { method: 'GET', path: `/v1/activities/${a.activity}` },
      { method: 'POST', path: '/v1/activities', body: { type: 'call', body: 'x', associations: { job_id: a.job } } },
      { method: 'POST', path: '/v1/activities', body: { type: 'call', body: 'x', associations: { contact_id: a.contact2 } } },
      { method: 'POST', path: '/v1/activities', body: { type: 'call', body: 'x', associations: { client_account_id: a.ca } } },
      { method: 'GET', path: `/v1/tasks/${a.task}` },
      { method: 'PATCH', path: `/v1/tasks/${a.task}`, body: { title: 'Hijacked' } },
      { method: 'DELETE', path: `/v1/tasks/${a.task}` },
      { method: 'POST', path: '/v1/tasks', body: { job_id: a.job, title: 'x' }, error: 'Job not found' },
      { method: 'POST', path: '/v1/tasks', body: { job_id: b.job, title: 'x', assigned_to_user_id: a.owner } },
      { method: 'GET', path: `/v1/account-tasks/${a.accountTask}` },
      { method: 'PATCH', path: `/v1/account-tasks/${a.accountTask}`, body: { title: 'Hijacked' } },
      { method: 'DELETE', path: `/v1/account-tasks/${a.accountTask}` },
      { method: 'POST', path: '/v1/account-tasks', body: { client_account_id: a.ca } },
      { method: 'GET', path: `/v1/jobs/${a.job}/activity`, error: 'Job not found' },
      // merges, in both directions
      { method: 'GET', path: `/v1/client-accounts/${a.ca}/merge-preview?into=${b.ca2}` },
      { method: 'GET', path: `/v1/client-accounts/${b.ca2}/merge-preview?into=${a.ca}` },
      { method: 'POST', path: `/v1/client-accounts/${a.ca}/merge`, body: { into_client_account_id: b.ca2 } },
      { method: 'POST', path: `/v1/client-accounts/${b.ca2}/merge`, body: { into_client_account_id: a.ca } },
      { method: 'GET', path: `/v1/contacts/${a.contact}/merge-preview?into=${b.contact2}` },
      { method: 'POST', path: `/v1/contacts/${a.contact}/merge`, body: { into_contact_id: b.contact2 } },
      { method: 'POST', path: `/v1/contacts/${b.contact2}/merge`, body: { into_contact_id: a.contact } },
      { method: 'GET', path: `/v1/locations/${a.loc}/merge-preview?into=${b.loc2}` },
      { method: 'POST', path: `/v1/locations/${a.loc}/merge`, body: { into_location_id: b.loc2 } },
      { method: 'POST', path: `/v1/locations/${b.loc2}/merge`, body: { into_location_id: a.loc } },
      // the estimating catalog
      { method: 'GET', path: `/v1/catalog/services/${a.service}` },
      { method: 'PATCH', path: `/v1/catalog/services/${a.service}`, body: { cost_code: 'HIJACK' } },
      { method: 'DELETE', path: `/v1/catalog/services/${a.service}` },
      { method: 'POST', path: `/v1/catalog/services/${a.service}/cost-lines`, body: { type: 'misc', name: 'm', unit: 'EA', unit_cost: 1 } },
      { method: 'PATCH', path: `/v1/catalog/services/${a.service}/cost-lines/${a.serviceCostLine}`, body: { waste_factor: 0.5 } },
      { method: 'DELETE', path: `/v1/catalog/services/${a.service}/cost-lines/${a.serviceCostLine}` },
      { method: 'PATCH', path: `/v1/catalog/services/${b.service}/cost-lines/${a.serviceCostLine}`, body: { waste_factor: 0.5 } },
      { method: 'POST', path: `/v1/catalog/services/${b.service}/cost-lines`, body: { type: 'equipment', catalog_item_id: a.item, name: 'e', unit: 'HR', unit_cost: 1 } },
      { method: 'GET', path: `/v1/catalog/items/${a.item}` },
      { method: 'PATCH', path: `/v1/catalog/items/${a.item}`, body: { unit_cost: 2 } },
      { method: 'DELETE', path: `/v1/catalog/items/${a.item}` },
      { method: 'GET', path: `/v1/price-lists/${a.priceList}` },
      { method: 'PATCH', path: `/v1/price-lists/${a.priceList}`, body: { description: 'x' } },
      { method: 'DELETE', path: `/v1/price-lists/${a.priceList}` },
      { method: 'GET', path: `/v1/estimate-templates/${a.template}` },
      { method: 'PATCH', path: `/v1/estimate-templates/${a.template}`, body: { description: 'x' } },
      { method: 'DELETE', path: `/v1/estimate-templates/${a.template}` },
      { method: 'POST', path: '/v1/estimate-templates', body: { name: 'Sneaky tpl', areas: [{ name: 'A', services: [{ service_id: a.service, quantity: 1 }] }] } },
      // estimates
      { method: 'POST', path: '/v1/estimates', body: { job_id: a.job }, error: 'Job not found' },
      { method: 'POST', path: '/v1/estimates', body: { job_id: b.job, template_id: a.template } },
      { method: 'GET', path: `/v1/estimates/${a.estimate}`, error: 'Estimate not found' },
      { method: 'GET', path: `/v1/estimates/${a.issuedEstimate}?version=1`, error: 'Estimate not found' },
      { method: 'PATCH', path: `/v1/estimates/${a.estimate}`, body: { markup_rate: 0.9 }, error: 'Estimate not found' },
      { method: 'PATCH', path: `/v1/estimates/${b.estimate}`, body: { price_list_id: a.priceList } },
      { method: 'DELETE', path: `/v1/estimates/${a.estimate}`, error: 'Estimate not found' },
      { method: 'GET', path: `/v1/estimates/${a.issuedEstimate}/versions`, error: 'Estimate not found' },
      { method: 'GET', path: `/v1/estimates/${a.estimate}/revisions`, error: 'Estimate not found' },
      { method: 'GET', path: `/v1/estimates/${a.issuedEstimate}/award`, error: 'Estimate not found' },
      { method: 'POST', path: `/v1/estimates/${a.estimate}/line-items`, body: { service_id: b.service, quantity: 1 }, error: 'Estimate not found' },
      { method: 'POST', path: `/v1/estimates/${b.estimate}/line-items`, body: { service_id: a.service, quantity: 1 }, error: 'Catalog service not found' },
      { method: 'GET', path: `/v1/estimates/${a.estimate}/line-items/${a.estimateLine}`, error: 'Estimate not found' },
      { method: 'GET', path: `/v1/estimates/${b.estimate}/line-items/${a.estimateLine}`, error: 'Line item not found' },
      { method: 'PATCH', path: `/v1/estimates/${a.estimate}/line-items/${a.estimateLine}`, body: { quantity: 1 }, error: 'Estimate not found' },
      { method: 'PATCH', path: `/v1/estimates/${b.estimate}/line-items/${a.estimateLine}`, body: { quantity: 1 }, error: 'Line item not found' },
      { method: 'PATCH', path: `/v1/estimates/${b.estimate}/line-items/${b.estimateLine}`, body: { cost_lines: [{ id: a.estimateCostLine, manual_quantity: 1 }] }, error: 'Cost line not found' },
      { method: 'PATCH', path: `/v1/estimates/${b.estimate}/line-items/${b.estimateLine}`, body: { cost_lines: [{ type: 'equipment', catalog_item_id: a.item }] }, error: 'Catalog item not found' },
      { method: 'DELETE', path: `/v1/estimates/${a.estimate}/line-items/${a.estimateLine}`, error: 'Estimate not found' },
      { method: 'DELETE', path: `/v1/estimates/${b.estimate}/line-items/${a.estimateLine}`, error: 'Line item not found' },
      { method: 'POST', path: `/v1/estimates/${a.estimate}/issue`, body: {}, error: 'Estimate not found' },
      { method: 'POST', path: `/v1/estimates/${a.issuedEstimate}/mark-won`, error: 'Estimate not found' },
      { method: 'POST', path: `/v1/estimates/${a.issuedEstimate}/mark-lost`, body: {}, error: 'Estimate not found' },
      { method: 'POST', path: `/v1/estimates/${a.issuedEstimate}/reopen`, error: 'Estimate not found' },
      { method: 'POST', path: `/v1/estimates/${a.estimate}/recalculate`, error: 'Estimate not found' },
      { method: 'POST', path: `/v1/estimates/${a.issuedEstimate}/change-orders`, body: {}, error: 'Estimate not found' },
    ];
    const wrong: string[] = [];
    for (const c of calls) {
      const res = await B.w.api.request(c.method, c.path, c.body);
      const label = `${c.method} ${c.path} ${c.body ? JSON.stringify(c.body) : ''}`;
      if (res.status !== 404) wrong.push(`${label} -> ${res.status} ${JSON.stringify(res.body)}`);
      else if (c.error && res.body?.error !== c.error) wrong.push(`${label} -> 404 but error ${JSON.stringify(res.body?.error)}, expected ${c.error}`);
    }
    expect(wrong).toEqual([]);
    expect(await snapshot(A.w.api, a)).toEqual(beforeA);
    expect(await snapshot(B.w.api, b)).toEqual(beforeB);
  });

  it('lookups by A\'s refs find nothing in B, and upserts in B never match A\'s records', async () => {
    const a = A.ids;
    const beforeA = await snapshot(A.w.api, a);
    const api = B.w.api;
    for (const p of ['/v1/exports/jobs.jsonl', '/v1/exports/customers.jsonl', '/v1/exports/properties.jsonl', '/v1/exports/events.jsonl']) {
      const res = await api.get(p);
      expect(res.status, p).toBe(200);
      for (const line of (res.body === null ? '' : String(typeof res.body === 'string' ? res.body : JSON.stringify(res.body))).split('\n').filter(Boolean)) {
        const row = JSON.parse(line);
        expect(p.includes('events') ? row.entity_id : row.id, p).not.toBe(undefined);
        if (p.includes('jobs')) expect([a.job, a.job2]).not.toContain(row.id);
        if (p.includes('customers')) expect(row.id).not.toBe(a.ca);
        if (p.includes('properties')) expect(row.id).not.toBe(a.loc);
        if (p.includes('events')) expect(row.event_id).not.toBe(a.eventId);
      }
    }
    for (const p of [`/v1/events?job_id=${a.job}`, `/v1/webhooks/deliveries?webhook_id=${a.webhook}`, `/v1/webhooks/deliveries?event_id=${a.eventId}`]) {
      const res = await api.get(p);
      expect(res.status, p).toBe(200);
      expect(res.body.data, p).toEqual([]);
    }
    expect((await api.get('/v1/webhooks')).body.data.map((s: any) => s.id)).not.toContain(a.webhook);
    for (const p of ['/v1/jobs?external_ref=A-JOB', '/v1/client-accounts?external_ref=A-CUST', '/v1/locations?external_ref=A-SITE',
      '/v1/jobs?q=A%20Parking', '/v1/client-accounts?q=A%20Customer&include_archived=true', '/v1/locations?q=A%20Plaza&include_archived=true',
      '/v1/job-tags?q=A%20Tag', '/v1/contacts?q=A%20Second', '/v1/contacts?email=a2@p.test', `/v1/contacts?client_account_id=${a.ca2}`,
      `/v1/contacts?job_id=${a.job2}`, `/v1/activities?job_id=${a.job}`, `/v1/tasks?job_id=${a.job}&status=all`,
      `/v1/account-tasks?client_account_id=${a.ca}&status=all`, '/v1/search?q=A%20Parking', '/v1/search?q=A%20Second%20Person',
      '/v1/search?q=A%20Other%20Customer', '/v1/search?q=2%20A%20Plaza', '/v1/search?q=A-PID']) {
      const res = await api.get(p);
      expect(res.status, p).toBe(200);
      expect(res.body.data, p).toEqual([]);
    }
    const users = await api.get('/v1/users');
    expect(users.body.data.map((u: any) => u.id)).not.toContain(a.owner);

    const ca = await api.post('/v1/client-accounts', { name: 'A Customer', external_ref: 'A-CUST' });
    expect(ca.status).toBe(201);
    expect(ca.body.data.id).not.toBe(a.ca);
    const loc = await api.post('/v1/locations', { address: '1 A Plaza', external_ref: 'A-SITE', client_account_id: ca.body.data.id });
    expect(loc.status).toBe(201);
    expect(loc.body.data.id).not.toBe(a.loc);
    const job = await api.post('/v1/jobs', { name: 'A Parking Lot', external_ref: 'A-JOB' });
    expect(job.status).toBe(201);
    expect(job.body.data.id).not.toBe(a.job);
    const job2 = await api.post('/v1/jobs', { name: 'A Second Job' });
    expect(job2.status).toBe(201);
    const tag = await api.post('/v1/job-tags', { name: 'A Tag' });
    expect(tag.status).toBe(201);
    expect(tag.body.data.id).not.toBe(a.tag);
    const bJob = (await api.get(`/v1/jobs/${B.ids.job}/details`)).body.data;
    const aJob = (await A.w.api.get(`/v1/jobs/${a.job}/details`)).body.data;
    const renumber = await api.patch(`/v1/jobs/${job.body.data.id}/details`, { job_number: aJob.job_number === bJob.job_number ? 7777 : aJob.job_number });
    expect(renumber.status).toBe(200);

    expect(await snapshot(A.w.api, a)).toEqual(beforeA);
  });
});

// ---- permissions -------------------------------------------------------------------------

interface Route { method: string; path: string }

/** The /v1 routes a key can call: from the OpenAPI document, checked against Fastify's own table. */
async function v1Routes(): Promise<Route[]> {
  const doc = await t.anon.get('/v1/openapi.json');
  expect(doc.status).toBe(200);
  const routes: Route[] = [];
  for (const [path, item] of Object.entries(doc.body.paths as Record<string, Record<string, unknown>>)) {
    for (const method of Object.keys(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      if (path === '/v1/health' || path === '/v1/openapi.json' || path.startsWith('/v1/docs')) continue;
      routes.push({ method: method.toUpperCase(), path });
    }
  }
  // Fastify's route table: nothing under /v1 may be missing from the OpenAPI document.
  const norm = (p: string) => p.replace(/\{[^}]+\}/g, '{}').replace(/:[A-Za-z_]+(\|:[A-Za-z_]+)*/g, '{}');
  const known = new Set(routes.map((r) => `${r.method} ${norm(r.path)}`));
  const stack: string[] = [];
  const missing: string[] = [];
  let seen = 0;
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const at = line.indexOf('── ');
    if (at < 0) continue;
    const depth = Math.floor(at / 4);
    const m = /^(.*?)(?: \(([^)]*)\))?$/.exec(line.slice(at + 3))!;
    stack.length = depth;
    stack.push(m[1]);
    const full = stack.join('');
    if (!m[2] || !full.startsWith('/v1/') || full.startsWith('/v1/docs') || full === '/v1/health' || full === '/v1/openapi.json') continue;
    for (const method of m[2].split(',').map((s) => s.trim()).filter((s) => s !== 'HEAD')) {
      seen++;
      if (!known.has(`${method} ${norm(full)}`)) missing.push(`${method} ${full}`);
    }
  }
  expect(missing).toEqual([]);
  expect(seen).toBe(routes.length);
  return routes;
}

const EXPECTED_WRITES = [
  'POST /v1/client-accounts', 'PATCH /v1/client-accounts/{id}', 'POST /v1/locations', 'PATCH /v1/locations/{id}',
  'POST /v1/jobs', 'PATCH /v1/jobs/{id}', 'DELETE /v1/jobs/{id}', 'POST /v1/jobs/{id}/move', 'POST /v1/jobs/{id}/merge',
  'PATCH /v1/jobs/{job_id}/details', 'PUT /v1/jobs/{job_id}/location', 'PATCH /v1/jobs/{job_id}/operations-assignment',
  'DELETE /v1/jobs/{job_id}/contacts/{contact_id}', 'POST /v1/job-tags', 'POST /v1/jobs/{job_id}/tags',
  'DELETE /v1/jobs/{job_id}/tags/{tag_id}', 'POST /v1/webhooks', 'PATCH /v1/webhooks/{id}', 'DELETE /v1/webhooks/{id}',
  'POST /v1/webhooks/deliveries/{id}/redeliver', 'POST /v1/webhooks/replay',
  'POST /v1/contacts', 'PATCH /v1/contacts/{id}', 'DELETE /v1/contacts/{id}', 'POST /v1/contacts/{id}/restore',
  'POST /v1/contacts/{id}/channels', 'PATCH /v1/contacts/{id}/channels/{ref}', 'DELETE /v1/contacts/{id}/channels/{ref}',
  'POST /v1/contacts/{id}/links', 'DELETE /v1/contacts/{id}/links/{kind}/{target_id}', 'POST /v1/jobs/{job_id}/contacts',
  'POST /v1/custom-fields', 'PATCH /v1/custom-fields/{id}', 'DELETE /v1/custom-fields/{id}', 'POST /v1/custom-fields/{id}/move',
  'POST /v1/custom-fields/{id}/restore', 'PATCH /v1/jobs/{id}/custom-fields', 'PATCH /v1/client-accounts/{id}/custom-fields',
  'PATCH /v1/contacts/{id}/custom-fields', 'PATCH /v1/locations/{id}/custom-fields',
  'POST /v1/jobs/{job_id}/notes', 'POST /v1/contacts/{contact_id}/notes', 'POST /v1/client-accounts/{account_id}/notes',
  'PATCH /v1/notes/{id}', 'DELETE /v1/notes/{id}', 'POST /v1/activities', 'POST /v1/tasks', 'PATCH /v1/tasks/{id}',
  'DELETE /v1/tasks/{id}', 'POST /v1/account-tasks', 'PATCH /v1/account-tasks/{id}', 'DELETE /v1/account-tasks/{id}',
  'POST /v1/client-accounts/{id}/merge', 'POST /v1/contacts/{id}/merge', 'POST /v1/locations/{id}/merge',
  'POST /v1/catalog/services', 'PATCH /v1/catalog/services/{id}', 'DELETE /v1/catalog/services/{id}',
  'POST /v1/catalog/services/{id}/cost-lines', 'PATCH /v1/catalog/services/{id}/cost-lines/{line_id}',
  'DELETE /v1/catalog/services/{id}/cost-lines/{line_id}', 'POST /v1/catalog/items', 'PATCH /v1/catalog/items/{id}',
  'DELETE /v1/catalog/items/{id}', 'POST /v1/price-lists', 'PATCH /v1/price-lists/{id}', 'DELETE /v1/price-lists/{id}',
  'POST /v1/estimate-templates', 'PATCH /v1/estimate-templates/{id}', 'DELETE /v1/estimate-templates/{id}',
  'POST /v1/estimates', 'PATCH /v1/estimates/{id}', 'DELETE /v1/estimates/{id}', 'POST /v1/estimates/{id}/line-items',
  'PATCH /v1/estimates/{id}/line-items/{line_item_id}', 'DELETE /v1/estimates/{id}/line-items/{line_item_id}',
  'POST /v1/estimates/{id}/issue', 'POST /v1/estimates/{id}/mark-won', 'POST /v1/estimates/{id}/mark-lost',
  'POST /v1/estimates/{id}/reopen', 'POST /v1/estimates/{id}/recalculate', 'POST /v1/estimates/{estimate_id}/change-orders',
];
/** A POST that only reads (document 3: POST /v1/exports needs Read jobs). */
const READ_POSTS = ['POST /v1/exports'];
/** Keyless routes: the link is the credential. */
const PUBLIC = ['GET /v1/export-downloads/{token}'];
const EXPECTED_READS = [
  'GET /v1/users', 'GET /v1/client-accounts', 'GET /v1/client-accounts/{id}', 'GET /v1/locations', 'GET /v1/locations/{id}',
  'GET /v1/job-stages', 'GET /v1/job-types', 'GET /v1/jobs', 'GET /v1/jobs/{id}', 'GET /v1/jobs/{job_id}/details', 'GET /v1/job-tags',
  'GET /v1/webhooks/deliveries', 'GET /v1/webhooks/deliveries/{id}', 'GET /v1/events',
  'GET /v1/exports', 'GET /v1/exports/{file}', 'GET /v1/exports/files/{id}',
  'GET /v1/contacts', 'GET /v1/contacts/{id}', 'GET /v1/jobs/{job_id}/contacts', 'GET /v1/client-accounts/{id}/contacts',
  'GET /v1/custom-fields', 'GET /v1/jobs/{job_id}/notes', 'GET /v1/contacts/{contact_id}/notes',
  'GET /v1/client-accounts/{account_id}/notes', 'GET /v1/notes/{id}', 'GET /v1/activities', 'GET /v1/activities/{id}',
  'GET /v1/tasks', 'GET /v1/tasks/{id}', 'GET /v1/account-tasks', 'GET /v1/account-tasks/{id}', 'GET /v1/jobs/{job_id}/activity',
  'GET /v1/search', 'GET /v1/client-accounts/{id}/merge-preview', 'GET /v1/contacts/{id}/merge-preview',
  'GET /v1/locations/{id}/merge-preview',
  'GET /v1/catalog/services', 'GET /v1/catalog/services/{id}', 'GET /v1/catalog/items', 'GET /v1/catalog/items/{id}',
  'GET /v1/price-lists', 'GET /v1/price-lists/{id}', 'GET /v1/estimate-templates', 'GET /v1/estimate-templates/{id}',
  'GET /v1/estimates', 'GET /v1/estimates/{id}', 'GET /v1/estimates/{id}/versions', 'GET /v1/estimates/{id}/revisions',
  'GET /v1/estimates/{id}/award', 'GET /v1/estimates/{id}/line-items/{line_item_id}',
];
/** Reads any valid key may make (document 1: GET /v1/webhooks needs no permission). */
const ANY_KEY_READS = ['GET /v1/webhooks'];

describe('key permissions on every route', () => {
  let A: { w: Workspace; ids: Ids };
  let routes: Route[];
  beforeAll(async () => {
    A = await provision('P');
    routes = await v1Routes();
  });

  /** Fills path parameters with A's ids (the right kind of record for each). */
  function fill(path: string): string {
    const a = A.ids;
    return path
      .replace(/^\/v1\/client-accounts\/\{[^}]+\}/, `/v1/client-accounts/${a.ca}`)
      .replace(/^\/v1\/locations\/\{[^}]+\}/, `/v1/locations/${a.loc}`)
      .replace(/^\/v1\/jobs\/\{[^}]+\}/, `/v1/jobs/${a.job}`)
      .replace(/^\/v1\/webhooks\/deliveries\/\{[^}]+\}/, `/v1/webhooks/deliveries/${a.delivery}`)
      .replace(/^\/v1\/exports\/files\/\{[^}]+\}/, `/v1/exports/files/${a.exportFile}`)
      .replace('{file}', 'jobs.jsonl')
      .replace(/^\/v1\/webhooks\/\{[^}]+\}/, `/v1/webhooks/${a.webhook}`)
      .replace(/^\/v1\/contacts\/\{[^}]+\}\/channels\/\{ref\}/, `/v1/contacts/${a.contact2}/channels/${a.channel}`)
      .replace(/^\/v1\/contacts\/\{[^}]+\}\/links\/\{kind\}\/\{target_id\}/, `/v1/contacts/${a.contact2}/links/location/${a.loc2}`)
      .replace(/^\/v1\/contacts\/\{[^}]+\}/, `/v1/contacts/${a.contact2}`)
      .replace(/^\/v1\/custom-fields\/\{[^}]+\}/, `/v1/custom-fields/${a.field}`)
      .replace(/^\/v1\/notes\/\{[^}]+\}/, `/v1/notes/${a.note}`)
      .replace(/^\/v1\/activities\/\{[^}]+\}/, `/v1/activities/${a.activity}`)
      .replace(/^\/v1\/tasks\/\{[^}]+\}/, `/v1/tasks/${a.task}`)
      .replace(/^\/v1\/account-tasks\/\{[^}]+\}/, `/v1/account-tasks/${a.accountTask}`)
      .replace(/^\/v1\/catalog\/services\/\{[^}]+\}\/cost-lines\/\{line_id\}/, `/v1/catalog/services/${a.service}/cost-lines/${a.serviceCostLine}`)
      .replace(/^\/v1\/catalog\/services\/\{[^}]+\}/, `/v1/catalog/services/${a.service}`)
      .replace(/^\/v1\/catalog\/items\/\{[^}]+\}/, `/v1/catalog/items/${a.item}`)
      .replace(/^\/v1\/price-lists\/\{[^}]+\}/, `/v1/price-lists/${a.priceList}`)
      .replace(/^\/v1\/estimate-templates\/\{[^}]+\}/, `/v1/estimate-templates/${a.template}`)
      .replace(/^\/v1\/estimates\/\{[^}]+\}\/line-items\/\{line_item_id\}/, `/v1/estimates/${a.estimate}/line-items/${a.estimateLine}`)
      .replace(/^\/v1\/estimates\/\{[^}]+\}\/(versions|award|mark-won|mark-lost|reopen|change-orders)/, `/v1/estimates/${a.issuedEstimate}/$1`)
      .replace(/^\/v1\/estimates\/\{[^}]+\}/, `/v1/estimates/${a.estimate}`)
      .replace('{contact_id}', String(a.contact))
      .replace('{tag_id}', String(a.tag))
      .replace(/\{[^}]+\}/g, String(a.job));
  }

  /** The query a read needs to answer 200 (search text, a merge target). */
  function queryFor(path: string): string {
    const a = A.ids;
    if (path === '/v1/search') return '?q=Parking';
    if (path === '/v1/client-accounts/{id}/merge-preview') return `?into=${a.ca2}`;
    if (path === '/v1/contacts/{id}/merge-preview') return `?into=${a.contact}`;
    if (path === '/v1/locations/{id}/merge-preview') return `?into=${a.loc2}`;
    return '';
  }

  /** A body the route would accept, so only the permission stands between the call and a change. */
  function bodyFor(method: string, path: string): unknown {
    const a = A.ids;
    const key = `${method} ${path}`;
    const bodies: Record<string, unknown> = {
      'POST /v1/client-accounts': { name: 'Read-only Customer' },
      'PATCH /v1/client-accounts/{id}': { name: 'Renamed', archived: true },
      'POST /v1/locations': { address: '1 Read Only Rd' },
      'PATCH /v1/locations/{id}': { notes: 'changed', archived: true },
      'POST /v1/jobs': { name: 'Read-only job' },
      'PATCH /v1/jobs/{id}': { name: 'Renamed job' },
      'POST /v1/jobs/{id}/move': { status: 'won' },
      'POST /v1/jobs/{id}/merge': { into_job_id: a.job2 },
      'PATCH /v1/jobs/{job_id}/details': { accounting_job_number: 'CHANGED' },
      'PUT /v1/jobs/{job_id}/location': { location_id: null },
      'PATCH /v1/jobs/{job_id}/operations-assignment': { division: null },
      'POST /v1/job-tags': { name: 'Read-only tag' },
      'POST /v1/webhooks': { target_url: 'https://read-only.example.com/hook' },
      'PATCH /v1/webhooks/{id}': { active: false },
      'POST /v1/webhooks/replay': { event_id: a.eventId },
      'POST /v1/jobs/{job_id}/tags': { tag_ids: [a.tag] },
      'POST /v1/contacts': { name: 'Read-only person' },
      'PATCH /v1/contacts/{id}': { name: 'Renamed person' },
      'POST /v1/contacts/{id}/channels': { kind: 'email', value: 'read-only@p.test' },
      'PATCH /v1/contacts/{id}/channels/{ref}': { label: 'work' },
      'POST /v1/contacts/{id}/links': { client_account_id: a.ca, roles: ['billing'] },
      'POST /v1/jobs/{job_id}/contacts': { contact_id: a.contact2 },
      'POST /v1/custom-fields': { entity_type: 'job', label: 'Read-only field' },
      'PATCH /v1/custom-fields/{id}': { label: 'Renamed field' },
      'POST /v1/custom-fields/{id}/move': { direction: 'up' },
      'PATCH /v1/jobs/{id}/custom-fields': { custom_fields: {} },
      'PATCH /v1/client-accounts/{id}/custom-fields': { custom_fields: {} },
      'PATCH /v1/contacts/{id}/custom-fields': { custom_fields: {} },
      'PATCH /v1/locations/{id}/custom-fields': { custom_fields: {} },
      'POST /v1/jobs/{job_id}/notes': { content: 'Read-only note' },
      'POST /v1/contacts/{contact_id}/notes': { content: 'Read-only note' },
      'POST /v1/client-accounts/{account_id}/notes': { content: 'Read-only note' },
      'PATCH /v1/notes/{id}': { content: 'Changed note' },
      'POST /v1/activities': { type: 'call', body: 'x', associations: { job_id: a.job } },
      'POST /v1/tasks': { job_id: a.job, title: 'Read-only task' },
      'PATCH /v1/tasks/{id}': { title: 'Changed task' },
      'POST /v1/account-tasks': { client_account_id: a.ca },
      'PATCH /v1/account-tasks/{id}': { title: 'Changed task' },
      'POST /v1/client-accounts/{id}/merge': { into_client_account_id: a.ca2 },
      'POST /v1/contacts/{id}/merge': { into_contact_id: a.contact },
      'POST /v1/locations/{id}/merge': { into_location_id: a.loc2 },
      'POST /v1/catalog/services': { name: 'RO svc', unit: 'EA', estimating_mode: 'unit_costing' },
      'PATCH /v1/catalog/services/{id}': { cost_code: 'X' },
      'POST /v1/catalog/services/{id}/cost-lines': { type: 'misc', name: 'm', unit: 'EA', unit_cost: 1 },
      'PATCH /v1/catalog/services/{id}/cost-lines/{line_id}': { waste_factor: 0.1 },
      'POST /v1/catalog/items': { kind: 'other', name: 'RO item', unit: 'EA', unit_cost: 1 },
      'PATCH /v1/catalog/items/{id}': { unit_cost: 2 },
      'POST /v1/price-lists': { name: 'RO list' },
      'PATCH /v1/price-lists/{id}': { description: 'x' },
      'POST /v1/estimate-templates': { name: 'RO tpl', areas: [{ name: 'A', services: [] }] },
      'PATCH /v1/estimate-templates/{id}': { description: 'x' },
      'POST /v1/estimates': { job_id: a.job },
      'PATCH /v1/estimates/{id}': { markup_rate: 0.5 },
      'POST /v1/estimates/{id}/line-items': { service_id: a.service, quantity: 10 },
      'PATCH /v1/estimates/{id}/line-items/{line_item_id}': { quantity: 5 },
    };
    if (key in bodies) return bodies[key];
    return method === 'DELETE' ? undefined : {};
  }

  it('the route list covers every known route', () => {
    const names = routes.map((r) => `${r.method} ${r.path}`);
    expect(names).toEqual(expect.arrayContaining([...EXPECTED_WRITES, ...EXPECTED_READS]));
  });

  it('a read-only key (read_jobs) gets 403 on every write route and nothing changes', async () => {
    const before = await snapshot(A.w.api, A.ids);
    const readOnly = t.as(await t.key(A.w.firmId, A.w.ownerId, ['read_jobs']));
    const writes = routes.filter((r) => r.method !== 'GET' && !READ_POSTS.includes(`${r.method} ${r.path}`) && !PUBLIC.includes(`${r.method} ${r.path}`));
    expect(writes.length).toBeGreaterThanOrEqual(EXPECTED_WRITES.length);
    const wrong: string[] = [];
    for (const r of writes) {
      const res = await readOnly.request(r.method, fill(r.path), bodyFor(r.method, r.path));
      const label = `${r.method} ${r.path}`;
      const expected = EXPECTED_WRITES.includes(label) ? /^API key lacks job write permission$/ : /^API key lacks .+ permission$/;
      if (res.status !== 403 || !expected.test(res.body?.error ?? '')) wrong.push(`${label} -> ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(wrong).toEqual([]);
    expect(await snapshot(A.w.api, A.ids)).toEqual(before);
  });

  it('the same read-only key reads every read route (200)', async () => {
    const readOnly = t.as(await t.key(A.w.firmId, A.w.ownerId, ['read_jobs']));
    const wrong: string[] = [];
    for (const r of routes.filter((x) => x.method === 'GET' && !PUBLIC.includes(`${x.method} ${x.path}`))) {
      const res = await readOnly.get(fill(r.path) + queryFor(r.path));
      if (res.status !== 200) wrong.push(`${r.method} ${r.path} -> ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(wrong).toEqual([]);
    for (const label of READ_POSTS) {
      const res = await readOnly.post(label.slice(5), { kind: 'workspace_data' });
      expect(res.status, label).toBe(202);
    }
  });

  it('a key without read_jobs gets 403 API key lacks job read permission on every read route', async () => {
    const writeOnly = t.as(await t.key(A.w.firmId, A.w.ownerId, ['write_jobs']));
    const reads = routes.filter((r) => (r.method === 'GET' || READ_POSTS.includes(`${r.method} ${r.path}`)) && !ANY_KEY_READS.includes(`${r.method} ${r.path}`) && !PUBLIC.includes(`${r.method} ${r.path}`));
    for (const label of ANY_KEY_READS) expect((await writeOnly.get(label.slice(4))).status, label).toBe(200);
    expect(reads.length).toBeGreaterThanOrEqual(EXPECTED_READS.length);
    const wrong: string[] = [];
    for (const r of reads) {
      const res = await writeOnly.request(r.method, fill(r.path), r.method === 'GET' ? undefined : { kind: 'workspace_data' });
      const label = `${r.method} ${r.path}`;
      const expected = EXPECTED_READS.includes(label) ? /^API key lacks job read permission$/ : /^API key lacks .+ permission$/;
      if (res.status !== 403 || !expected.test(res.body?.error ?? '')) wrong.push(`${label} -> ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('deletes and merges also need delete_records (403 API key lacks delete permission)', async () => {
    const before = await snapshot(A.w.api, A.ids);
    const noDelete = t.as(await t.key(A.w.firmId, A.w.ownerId, ['read_jobs', 'write_jobs']));
    const del = await noDelete.delete(`/v1/jobs/${A.ids.job}`);
    expect(del.status).toBe(403);
    expect(del.body.error).toBe('API key lacks delete permission');
    const merge = await noDelete.post(`/v1/jobs/${A.ids.job2}/merge`, { into_job_id: A.ids.job });
    expect(merge.status).toBe(403);
    expect(merge.body.error).toBe('API key lacks delete permission');
    const a = A.ids;
    for (const [method, path, body] of [
      ['DELETE', `/v1/contacts/${a.contact2}`, undefined],
      ['DELETE', `/v1/contacts/${a.contact2}?hard=true`, undefined],
      ['DELETE', `/v1/custom-fields/${a.field}`, undefined],
      ['DELETE', `/v1/notes/${a.note}`, undefined],
      ['DELETE', `/v1/tasks/${a.task}`, undefined],
      ['DELETE', `/v1/account-tasks/${a.accountTask}`, undefined],
      ['POST', `/v1/client-accounts/${a.ca}/merge`, { into_client_account_id: a.ca2 }],
      ['POST', `/v1/contacts/${a.contact2}/merge`, { into_contact_id: a.contact }],
      ['POST', `/v1/locations/${a.loc}/merge`, { into_location_id: a.loc2 }],
      ['DELETE', `/v1/catalog/services/${a.service}`, undefined],
      ['DELETE', `/v1/catalog/services/${a.service}/cost-lines/${a.serviceCostLine}`, undefined],
      ['DELETE', `/v1/catalog/items/${a.item}`, undefined],
      ['DELETE', `/v1/price-lists/${a.priceList}`, undefined],
      ['DELETE', `/v1/estimate-templates/${a.template}`, undefined],
      ['DELETE', `/v1/estimates/${a.estimate}`, undefined],
      ['DELETE', `/v1/estimates/${a.estimate}/line-items/${a.estimateLine}`, undefined],
    ] as const) {
      const res = await noDelete.request(method, path, body);
      expect(res.status, path).toBe(403);
      expect(res.body.error, path).toBe('API key lacks delete permission');
    }
    expect(await snapshot(A.w.api, A.ids)).toEqual(before);
  });
});
