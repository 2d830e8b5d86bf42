// Every operation of the app's own OpenAPI document, and every admin API route, is sent input it
// must refuse: malformed and absurdly nested bodies, wrong types and absurd numbers in each field,
// a megabyte in each string, and odd ids in each path parameter (the other parameters name real
// records of the workspace, so a body gets past the lookups into validation and service code).
// Any 5xx fails, and so does a 4xx without the API's error body; the report names each request.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageryFor } from '#platform/imagery/select.ts';
import { type AerialTiles, startAerialTiles } from '#test/condition/aerial-tiles.ts';
import {
  CreateKeyInput,
  CreatePartnerKeyInput,
  CreateUserInput,
  CreateWorkspaceInput,
  StageInput,
  UpdateUserInput,
  UpdateWorkspaceInput,
} from '#admin/schemas.ts';
import { fieldVariants, malformedBodies, ODD_PATH_VALUES, sample, type Variant } from '#test/helpers/fuzz.ts';
import { startApp, type Client, type TestApp, type Workspace } from '#test/helpers/harness.ts';

let t: TestApp;
let w: Workspace;
/** Real values for path parameters: by name, and for `{id}` by the collection before it. */
const byName: Record<string, string> = {};
const byCollection: Record<string, string> = {};

async function made(res: Promise<{ status: number; body: any }>): Promise<any> {
  const r = await res;
  if (r.status >= 300) throw new Error(`fixture failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data ?? r.body;
}

let tiles: AerialTiles;

beforeAll(async () => {
  // Imagery that covers nowhere: a place that gets past validation is 422 no_imagery_coverage, not
  // the 500 the spec gives a server with no imagery configured (which is not a bad request).
  tiles = await startAerialTiles();
  t = await startApp({
    imagery: imageryFor(
      { standardUrl: tiles.template('missing'), premiumUrl: null, cacheMb: 0 },
      fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-fuzz-')),
      true,
    ),
  });
  w = await t.workspace();
  const api = w.api;
  const customer = await made(api.post('/v1/client-accounts', { name: 'Fuzz Co', email: 'fuzz@co.test' }));
  await made(api.post('/v1/client-accounts', { name: 'Fuzz Other Co' }));
  const site = await made(api.post('/v1/locations', { address: '1 Fuzz Way', client_account_id: customer.id }));
  const job = await made(
    api.post('/v1/jobs', { name: 'Fuzz job', address: '2 Fuzz Way', client_account_id: customer.id }),
  );
  const contact = await made(
    api.post('/v1/contacts', {
      name: 'Fuzz Person',
      email: 'person@fuzz.test',
      phone: '5551230000',
      client_account_id: customer.id,
    }),
  );
  const channel = await made(api.post(`/v1/contacts/${contact.id}/channels`, { kind: 'phone', value: '5551239999' }));
  await made(api.post(`/v1/jobs/${job.id}/contacts`, { contact_id: contact.id }));
  const tag = await made(api.post('/v1/job-tags', { name: 'Fuzz', color: '#112233' }));
  // Key fuzz_field (MAP_KEY) on every kind of record, so custom_fields values reach the value rules.
  const field = await made(api.post('/v1/custom-fields', { entity_type: 'job', label: 'Fuzz field' }));
  for (const entity of ['account', 'contact', 'location'])
    await made(api.raw.post('/v1/custom-fields', { entity_type: entity, label: 'Fuzz field' }));
  const note = await made(api.post(`/v1/jobs/${job.id}/notes`, { content: 'Fuzz note' }));
  const activity = await made(
    api.post('/v1/activities', { type: 'call', outcome: 'ok', associations: { job_id: job.id } }),
  );
  const task = await made(api.post('/v1/tasks', { job_id: job.id, title: 'Fuzz task' }));
  const accountTask = await made(api.post('/v1/account-tasks', { client_account_id: customer.id }));
  const webhook = await made(
    api.post('/v1/webhooks', { target_url: 'https://hooks.example.com/fuzz', event_type: '*' }),
  );
  const item = await made(
    api.post('/v1/catalog/items', { kind: 'other', name: 'Fuzz cones', unit: 'EA', unit_cost: 3 }),
  );
  const service = (await api.get('/v1/catalog/services')).body.data[0];
  const costLine = (await made(api.get(`/v1/catalog/services/${service.id}`))).cost_lines[0];
  const priceList = await made(api.post('/v1/price-lists', { name: 'Fuzz prices' }));
  const template = await made(
    api.post('/v1/estimate-templates', {
      name: 'Fuzz template',
      areas: [{ name: 'Lot', services: [{ service_id: service.id }] }],
    }),
  );
  const estimate = await made(api.post('/v1/estimates', { job_id: job.id }));
  const line = await api.post(`/v1/estimates/${estimate.id}/line-items`, {
    name: 'Fuzz line',
    unit: 'EA',
    quantity: 2,
  });
  if (line.status !== 201) throw new Error(`fixture failed: ${line.status} ${JSON.stringify(line.body)}`);
  const exportFile = await made(api.post('/v1/exports', { kind: 'workspace_data' }));
  await api.patch(`/v1/jobs/${job.id}`, { notes: 'queues a delivery' });
  const delivery = (await api.get('/v1/webhooks/deliveries')).body.data[0];

  Object.assign(byName, {
    job_id: job.id,
    contact_id: contact.id,
    account_id: customer.id,
    tag_id: tag.id,
    line_id: costLine?.id ?? 1,
    line_item_id: line.body.line_item_id,
    estimate_id: estimate.id,
    target_id: customer.id,
    ref: channel.ref,
    kind: 'company',
    file: 'jobs.jsonl',
    token: 'A'.repeat(43),
  });
  Object.assign(byCollection, {
    'client-accounts': customer.id,
    locations: site.id,
    jobs: job.id,
    contacts: contact.id,
    'custom-fields': field.id,
    notes: note.id,
    activities: activity.id,
    tasks: task.id,
    'account-tasks': accountTask.id,
    webhooks: webhook.id,
    deliveries: delivery?.id ?? 1,
    items: item.id,
    services: service.id,
    'price-lists': priceList.id,
    'estimate-templates': template.id,
    estimates: estimate.id,
    files: exportFile.id,
  });
}, 60_000);
afterAll(async () => {
  await t.close();
  await tiles.close();
});

interface Operation {
  method: string;
  path: string;
  bodySchema?: object;
  takesBody: boolean;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** A request slower than this is printed as it happens (most take a few milliseconds). */
const SLOW_MS = 5_000;

/** The path with every parameter named by a real record, or `odd` in place of `param`. */
function fill(path: string, values: Record<string, string>, param?: string, odd?: string): string {
  return path.replace(/\{([^}]+)\}/g, (_whole, name: string, offset: number) => {
    if (name === param) return encodeURIComponent(odd!);
    if (values[name] !== undefined) return String(values[name]);
    const collection = path.slice(0, offset).split('/').filter(Boolean).pop()!;
    return String(byName[name] ?? byCollection[collection] ?? 1);
  });
}

/** Sends every variant of every operation; answers the requests that broke the rules. */
async function attack(
  client: Client,
  operations: Operation[],
  values: Record<string, string> = {},
): Promise<{ sent: number; failures: string[] }> {
  const failures: string[] = [];
  let sent = 0;
  const send = async (method: string, url: string, label: string, body?: string, mustRefuse = false) => {
    sent++;
    const started = performance.now();
    const res = await client.request(method, url, body);
    const shown = `${method} ${url.length > 120 ? `${url.slice(0, 120)}…` : url} [${label}] → ${res.status}`;
    // A request this slow is a defect of its own, and a test that times out names nothing: say it now.
    const ms = performance.now() - started;
    if (ms > SLOW_MS) console.warn(`fuzz: ${shown} took ${Math.round(ms)} ms`);
    const text = String(JSON.stringify(res.body)).slice(0, 160);
    if (res.status >= 500) failures.push(`${shown} ${text}`);
    else if (
      res.status >= 400 &&
      (typeof res.body?.error !== 'string' || /^FST_/.test(res.body.code ?? '') || 'statusCode' in res.body)
    ) {
      failures.push(`${shown} not in the API's error body: ${text}`);
    } else if (res.status < 400 && mustRefuse) failures.push(`${shown} an odd path value named a record`);
  };
  for (const op of operations) {
    const base = op.takesBody ? JSON.stringify(op.bodySchema ? sample(op.bodySchema) : {}) : undefined;
    for (const param of [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!)) {
      for (const odd of ODD_PATH_VALUES)
        await send(op.method, fill(op.path, values, param, odd), `${param}=${odd.slice(0, 20)}`, base, true);
    }
    if (!op.takesBody) continue;
    const url = fill(op.path, values);
    const variants: Variant[] = [...malformedBodies(), ...(op.bodySchema ? fieldVariants(op.bodySchema) : [])];
    for (const v of variants) await send(op.method, url, v.label, v.body);
  }
  return { sent, failures };
}

describe('fuzzing every operation', () => {
  it('the /v1 API answers every bad request with a 4xx and its error body', async () => {
    const doc = (await w.api.get('/v1/openapi.json')).body;
    const operations: Operation[] = [];
    for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const m = method.toUpperCase();
        operations.push({
          method: m,
          path,
          takesBody: BODY_METHODS.has(m),
          bodySchema: op.requestBody?.content?.['application/json']?.schema,
        });
      }
    }
    expect(operations.length).toBeGreaterThan(100);
    const { sent, failures } = await attack(w.api, operations);
    expect(failures, `${failures.length} of ${sent} requests`).toEqual([]);
    // Every operation attacked: 80–90 s on PostgreSQL on a loaded 2-core machine; the limit is for a hang.
  }, 240_000);

  it('so does the admin API', async () => {
    // Its own workspace: a request that slips through changes nothing the /v1 fuzzing uses.
    const victim = await t.workspace();
    const member = await t.user(victim.firmId, { name: 'Fuzz Member' });
    const keys = (await t.admin.get(`/admin/v1/workspaces/${victim.firmId}/api-keys`)).body.data;
    const values = { firm_id: String(victim.firmId), user_id: String(member.id), key_id: String(keys[0].id) };
    const operations: Operation[] = [
      { method: 'GET', path: '/admin/v1/workspaces/{firm_id}', takesBody: false },
      { method: 'POST', path: '/admin/v1/workspaces', takesBody: true, bodySchema: CreateWorkspaceInput },
      { method: 'PATCH', path: '/admin/v1/workspaces/{firm_id}', takesBody: true, bodySchema: UpdateWorkspaceInput },
      { method: 'POST', path: '/admin/v1/workspaces/{firm_id}/job-stages', takesBody: true, bodySchema: StageInput },
      { method: 'GET', path: '/admin/v1/workspaces/{firm_id}/catalog', takesBody: false },
      { method: 'POST', path: '/admin/v1/workspaces/{firm_id}/catalog/import', takesBody: true },
      { method: 'GET', path: '/admin/v1/workspaces/{firm_id}/users', takesBody: false },
      { method: 'POST', path: '/admin/v1/workspaces/{firm_id}/users', takesBody: true, bodySchema: CreateUserInput },
      {
        method: 'PATCH',
        path: '/admin/v1/workspaces/{firm_id}/users/{user_id}',
        takesBody: true,
        bodySchema: UpdateUserInput,
      },
      { method: 'DELETE', path: '/admin/v1/workspaces/{firm_id}/users/{user_id}', takesBody: false },
      { method: 'GET', path: '/admin/v1/workspaces/{firm_id}/api-keys', takesBody: false },
      { method: 'POST', path: '/admin/v1/workspaces/{firm_id}/api-keys', takesBody: true, bodySchema: CreateKeyInput },
      { method: 'DELETE', path: '/admin/v1/workspaces/{firm_id}/api-keys/{key_id}', takesBody: false },
      { method: 'POST', path: '/admin/v1/partner-keys', takesBody: true, bodySchema: CreatePartnerKeyInput },
      { method: 'DELETE', path: '/admin/v1/partner-keys/{key_id}', takesBody: false },
    ];
    const { sent, failures } = await attack(t.admin, operations, values);
    expect(failures, `${failures.length} of ${sent} requests`).toEqual([]);
  }, 60_000);
});
