// /v1/mcp through the official SDK Client over Streamable HTTP, against a real listening server:
// the protocol, the keys and rules every /v1 call passes, the tools a session is offered, and tool
// calls that answer exactly what the REST call answers.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { mcpClient, mcpUrl, rawMcp } from '#test/helpers/mcp.ts';
import { job, ok } from '#test/helpers/records.ts';
import { FIRST_CLASS } from '#integrations/mcp/first-class.ts';

let t: TestApp;
let base: string;
let w: Workspace;
let owner: Client;
beforeAll(async () => {
  t = await startApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  w = await t.workspace();
  owner = await mcpClient(base, w.key);
});
afterAll(async () => {
  await owner.close();
  await t.close();
});

const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    structuredContent?: any;
    content: { type: string; text: string }[];
  };

describe('the protocol', () => {
  it('initializes as a stateless server with tools, prompts, resources and instructions', async () => {
    expect(owner.getServerVersion()).toMatchObject({ name: 'groundwork' });
    expect(owner.getServerCapabilities()).toMatchObject({ tools: {}, prompts: {}, resources: {} });
    const instructions = owner.getInstructions()!;
    expect(instructions).toContain('Workspace');
    expect(instructions).toMatch(/dollars/);
    expect(instructions).toMatch(/YYYY-MM-DD/);
    const init = await rawMcp(
      base,
      { 'x-api-key': w.key },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      },
    );
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    expect(init.body.result.protocolVersion).toBe('2025-06-18');
  });

  it('answers GET and DELETE with 405: there is no session stream', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(mcpUrl(base), { method, headers: { 'x-api-key': w.key } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect((await res.json()).error).toBe('Method not allowed');
    }
  });

  it('offers the groundwork prompt and guide resource', async () => {
    const prompts = await owner.listPrompts();
    expect(prompts.prompts.map((p) => p.name)).toEqual(['groundwork']);
    const prompt = await owner.getPrompt({ name: 'groundwork' });
    expect(prompt.messages[0]!.content).toMatchObject({ type: 'text', text: owner.getInstructions() });
    const resource = await owner.readResource({ uri: 'groundwork://guide' });
    expect(resource.contents[0]).toMatchObject({ text: owner.getInstructions() });
    await expect(owner.getPrompt({ name: 'other' })).rejects.toThrow(/No prompt/);
  });
});

describe('keys, billing and plan: exactly as the REST API answers', () => {
  const restBody = async (headers: Record<string, string>) =>
    (await t.app.inject({ method: 'GET', url: '/v1/jobs', headers })).json();

  it('no key and a bad key are 401 with the REST bodies', async () => {
    const none = await rawMcp(base, {});
    expect(none.status).toBe(401);
    expect(none.body).toEqual(await restBody({}));
    const bad = await rawMcp(base, { 'x-api-key': 'gw_live_notakey000000000000000000' });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual(await restBody({ 'x-api-key': 'gw_live_notakey000000000000000000' }));
    const badBearer = await rawMcp(base, { authorization: 'Bearer gw_live_notakey000000000000000000' });
    expect(badBearer.status).toBe(401);
    expect(badBearer.body.error).toBe('Invalid API key');
  });

  it('past-due billing is 402 and a plan below Gold 403, as over REST', async () => {
    const pastDue = await t.workspace({ subscription_status: 'past_due' });
    const due = await rawMcp(base, { 'x-api-key': pastDue.key });
    expect(due.status).toBe(402);
    expect(due.body).toEqual(await restBody({ 'x-api-key': pastDue.key }));
    const silver = await t.workspace({ plan: 'silver' });
    const plan = await rawMcp(base, { 'x-api-key': silver.key });
    expect(plan.status).toBe(403);
    expect(plan.body).toEqual(await restBody({ 'x-api-key': silver.key }));
    expect(plan.body.code).toBe('plan_upgrade_required');
  });

  it('accepts Authorization: Bearer, which MCP clients send (the REST API keeps X-API-Key)', async () => {
    const client = await mcpClient(base, w.key, { bearer: true });
    const listed = await call(client, 'list_jobs');
    expect(listed.isError).toBeUndefined();
    await client.close();
    const rest = await t.app.inject({ method: 'GET', url: '/v1/jobs', headers: { authorization: `Bearer ${w.key}` } });
    expect(rest.statusCode).toBe(401);
  });

  it('a partner key names the workspace with firm_id on the MCP URL', async () => {
    const other = await t.workspace();
    const mine = await job(w, { name: 'Partner sees this' });
    await job(other, { name: 'Not this' });
    const grant = await ok(
      t.admin.post('/admin/v1/partner-keys', {
        grants: [
          { firm_id: w.firmId, user_id: w.ownerId },
          { firm_id: other.firmId, user_id: other.ownerId },
        ],
        permissions: ALL_PERMISSIONS,
      }),
    );
    const key = grant.data.key as string;
    const missing = await rawMcp(base, { 'x-api-key': key });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('firm_id is required');

    const partner = await mcpClient(base, key, { query: { firm_id: String(w.firmId) } });
    const listed = await call(partner, 'list_jobs', { q: 'Partner sees' });
    expect(listed.structuredContent.data.map((j: any) => j.id)).toEqual([mine.id]);
    const made = await call(partner, 'create_job', { name: 'Made by partner' });
    expect(made.isError).toBeUndefined();
    // Created in the named workspace, not the partner's other one.
    expect((await w.api.get(`/v1/jobs/${made.structuredContent.data.id}`)).status).toBe(200);
    expect((await other.api.get(`/v1/jobs/${made.structuredContent.data.id}`)).status).toBe(404);
    await partner.close();
  });
});

describe('the tools a session is offered', () => {
  it('by default: the first-class tools, search_operations and call_operation', async () => {
    const offered = await names(owner);
    expect(offered.sort()).toEqual([...Object.keys(FIRST_CLASS), 'call_operation', 'search_operations'].sort());
    expect(offered.length).toBeGreaterThanOrEqual(27);
    expect(offered.length).toBeLessThanOrEqual(47);
    const tools = (await owner.listTools()).tools;
    const getJob = tools.find((tool) => tool.name === 'get_job')!;
    expect(getJob.description).toBe(FIRST_CLASS.get_job);
    expect(getJob.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(getJob.inputSchema.required).toEqual(['id']);
    const createJob = tools.find((tool) => tool.name === 'create_job')!;
    expect(createJob.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(createJob.inputSchema.properties).toHaveProperty('name');
    expect(createJob.inputSchema.properties).toHaveProperty('allow_duplicate_name');
  });

  it('toolsets= picks spec areas, all picks every operation, and an unknown one is a 400', async () => {
    const areas = await mcpClient(base, w.key, { query: { toolsets: 'jobs,estimates' } });
    const tools = (await areas.listTools()).tools;
    await areas.close();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['list_job_types', 'delete_job', 'reopen_estimate']),
    );
    expect(tools.map((tool) => tool.name)).not.toContain('list_contacts');
    expect(tools.find((tool) => tool.name === 'delete_job')!.annotations).toMatchObject({ destructiveHint: true });

    const all = await mcpClient(base, w.key, { query: { toolsets: 'all' } });
    expect((await names(all)).length).toBeGreaterThan(120);
    await all.close();

    const unknown = await rawMcp(base, { 'x-api-key': w.key }, undefined, { toolsets: 'jobs,bogus' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: 'Unknown toolsets: bogus', code: 'invalid_choice' });
    expect(unknown.body.allowed).toEqual(expect.arrayContaining(['default', 'all', 'jobs', 'customers']));
  });

  it('read_only=true hides every write, and call_operation refuses one', async () => {
    const reader = await mcpClient(base, w.key, { query: { toolsets: 'all', read_only: 'true' } });
    const tools = (await reader.listTools()).tools;
    expect(tools.length).toBeGreaterThan(40);
    for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
    const refused = await call(reader, 'call_operation', { name: 'create_job', arguments: { name: 'Nope' } });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ status: 403, body: { code: 'read_only_session' } });
    const direct = await call(reader, 'create_job', { name: 'Nope' });
    expect(direct.structuredContent.status).toBe(403);
    expect((await w.api.get('/v1/jobs?q=Nope')).body.data).toEqual([]);
    await reader.close();
  });

  it('a read-only key is offered no write tool; call_operation gets the REST 403 body', async () => {
    const reader = await t.user(w.firmId, { name: 'Reader', email: 'reader@example.com', role: 'member' }, [
      'read_jobs',
    ]);
    const client = await mcpClient(base, reader.key, { query: { toolsets: 'all' } });
    const tools = (await client.listTools()).tools;
    // Every tool offered needs only what the key holds (POST /v1/exports needs Read jobs, by the spec).
    const doc = (await t.anon.get('/v1/openapi.json')).body;
    const needs = new Map<string, string[]>();
    for (const item of Object.values<any>(doc.paths))
      for (const op of Object.values<any>(item)) needs.set(op.operationId, op['x-permissions'] ?? []);
    for (const tool of tools.filter((tool) => !['call_operation', 'search_operations'].includes(tool.name)))
      expect(needs.get(tool.name), tool.name).toEqual(needs.get(tool.name)!.filter((p) => p === 'read_jobs'));
    const offered = tools.map((tool) => tool.name);
    expect(offered).toContain('list_jobs');
    expect(offered).toContain('create_export');
    for (const write of ['create_job', 'update_job', 'move_job', 'create_task', 'delete_job', 'create_webhook'])
      expect(offered).not.toContain(write);
    const refused = await call(client, 'call_operation', { name: 'create_job', arguments: { name: 'Nope' } });
    const rest = await reader.api.post('/v1/jobs', { name: 'Nope' });
    expect(rest.status).toBe(403);
    expect(refused).toMatchObject({ isError: true, structuredContent: { status: 403, body: rest.body } });
    // search_operations does not offer what the key cannot run.
    const found = await call(client, 'search_operations', { query: 'create job' });
    expect(found.structuredContent.data.map((op: any) => op.name)).not.toContain('create_job');
    await client.close();
  });

  it("a viewer's key, though it holds write permissions, is offered no write tool", async () => {
    const viewer = await t.user(w.firmId, { name: 'Viewer', email: 'viewer@example.com', role: 'viewer' });
    const client = await mcpClient(base, viewer.key);
    const tools = (await client.listTools()).tools;
    expect(tools.map((tool) => tool.name)).not.toContain('create_job');
    expect(tools.map((tool) => tool.name)).toContain('get_job');
    await client.close();
  });
});

describe('tool calls answer what the REST call answers', () => {
  it('create_job, get_job and list_jobs return the REST bodies as structuredContent', async () => {
    const made = await call(owner, 'create_job', {
      name: 'Oak Street lot',
      address: '12 Oak St',
      estimated_value: 4200,
    });
    expect(made.isError).toBeUndefined();
    const id = made.structuredContent.data.id as number;
    expect(made.structuredContent).toMatchObject({
      created: true,
      data: { name: 'Oak Street lot', estimated_value: 4200 },
    });
    expect(made.content[0]!.text).toContain(`id ${id} (Oak Street lot)`);

    const read = await call(owner, 'get_job', { id });
    expect(read.structuredContent).toEqual((await w.api.get(`/v1/jobs/${id}`)).body);
    expect(JSON.parse(read.content[0]!.text.split('\n').slice(1).join('\n'))).toEqual(read.structuredContent);

    const listed = await call(owner, 'list_jobs', { q: 'Oak Street', limit: 10 });
    expect(listed.structuredContent).toEqual((await w.api.get('/v1/jobs?q=Oak%20Street&limit=10')).body);
  });

  it('a list says how to get the next page', async () => {
    const x = await t.workspace();
    const client = await mcpClient(base, x.key);
    for (const n of [1, 2, 3]) await job(x, { name: `Paged ${n}` });
    const first = await call(client, 'list_jobs', { limit: 2 });
    expect(first.structuredContent.pagination).toEqual({ total: 3, limit: 2, offset: 0 });
    expect(first.content[0]!.text).toMatch(
      /^Showing 1–2 of 3\. Next page: call list_jobs again with offset=2 and limit=2\./,
    );
    const last = await call(client, 'list_jobs', { limit: 2, offset: 2 });
    expect(last.content[0]!.text).toMatch(/^Showing 3–3 of 3\. This is the last page\./);
    const feed = await call(client, 'list_events', { limit: 2 });
    expect(feed.content[0]!.text).toMatch(/More follow: call list_events again with after=\d+/);
    await client.close();
  });

  it('errors are isError results with the HTTP status and the REST error body unchanged', async () => {
    const other = await t.workspace();
    const theirs = await job(other, { name: 'Theirs' });
    const cases: [string, Record<string, unknown>, () => Promise<{ status: number; body: unknown }>, number][] = [
      ['get_job', { id: 987654 }, () => w.api.get('/v1/jobs/987654'), 404],
      ['get_job', { id: theirs.id }, () => w.api.get(`/v1/jobs/${theirs.id}`), 404],
      ['create_job', { name: 'Typo', bogus: 1 }, () => w.api.raw.post('/v1/jobs', { name: 'Typo', bogus: 1 }), 400],
      [
        'move_job',
        { id: theirs.id, status: 'won' },
        () => w.api.post(`/v1/jobs/${theirs.id}/move`, { status: 'won' }),
        404,
      ],
    ];
    for (const [name, args, rest, status] of cases) {
      const result = await call(owner, name, args);
      const expected = await rest();
      expect(expected.status).toBe(status);
      expect(result.isError, name).toBe(true);
      expect(result.structuredContent).toEqual({ status, body: expected.body });
      expect(result.content[0]!.text).toMatch(new RegExp(`^HTTP ${status}: `));
    }
    const unknown = await call(owner, 'create_job', { name: 'Typo', bogus: 1 });
    expect(unknown.structuredContent.body).toEqual({
      error: 'Unknown fields: bogus',
      code: 'unknown_fields',
      fields: ['bogus'],
    });
  });

  it('a duplicate job name is 409 with duplicate_job_id', async () => {
    const first = await call(owner, 'create_job', { name: 'Maple Court reseal' });
    const again = await call(owner, 'create_job', { name: 'maple court  reseal' });
    expect(again.isError).toBe(true);
    expect(again.structuredContent).toMatchObject({
      status: 409,
      body: { code: 'duplicate_name', duplicate_job_id: first.structuredContent.data.id },
    });
  });

  it('a missing path parameter is a 400 naming it', async () => {
    const result = await call(owner, 'get_job', {});
    expect(result.structuredContent).toEqual({
      status: 400,
      body: {
        error: 'id is required',
        message: 'get_job needs id (a path parameter)',
        code: 'missing_parameter',
        field: 'id',
      },
    });
  });

  it('search_operations finds an operation that is not first-class, and call_operation runs it', async () => {
    const found = await call(owner, 'search_operations', { query: 'create a job tag' });
    const entry = found.structuredContent.data.find((op: any) => op.name === 'create_job_tag');
    expect(entry).toMatchObject({
      name: 'create_job_tag',
      toolset: 'tags',
      method: 'POST',
      path: '/v1/job-tags',
      permissions: ['write_jobs'],
      read_only: false,
      first_class: false,
    });
    expect(entry.input_schema.properties).toHaveProperty('name');
    expect(found.content[0]!.text).toContain('create_job_tag');

    const made = await call(owner, 'call_operation', { name: 'create_job_tag', arguments: { name: 'Night work' } });
    expect(made.isError).toBeUndefined();
    const tags = (await w.api.get('/v1/job-tags')).body.data.map((tag: any) => tag.name);
    expect(tags).toContain('Night work');

    const j = await job(w, { name: 'Tagged through MCP' });
    const tagged = await call(owner, 'call_operation', {
      name: 'add_job_tag',
      arguments: { job_id: j.id, tag_ids: [made.structuredContent.data.id] },
    });
    expect(tagged.structuredContent.data.map((tag: any) => tag.name)).toEqual(['Night work']);

    const none = await call(owner, 'call_operation', { name: 'launch_rocket', arguments: {} });
    expect(none).toMatchObject({
      isError: true,
      structuredContent: { status: 404, body: { code: 'unknown_operation', did_you_mean: [] } },
    });
    const nothing = await call(owner, 'search_operations', { query: 'zzzz qqqq' });
    expect(nothing.structuredContent.data).toEqual([]);
  });

  it('an unknown name answers the nearest names the session may run, not the catalogue', async () => {
    const typo = await call(owner, 'call_operation', { name: 'get_jobs', arguments: { id: 1 } });
    expect(typo.structuredContent).toMatchObject({
      status: 404,
      body: { code: 'unknown_operation', name: 'get_jobs', did_you_mean: ['get_job'] },
    });
    expect(typo.content[0]!.text).toContain('Nearest: get_job.');
    // The spec's word for a route's: a customer is a client account.
    const spec = await call(owner, 'call_operation', { name: 'create_customer' });
    expect(spec.structuredContent.body.did_you_mean[0]).toBe('create_client_account');
    expect(spec.structuredContent.body.did_you_mean.length).toBeLessThanOrEqual(5);
    // Called directly by a wrong tool name, the same answer.
    const direct = await call(owner, 'list_job');
    expect(direct.structuredContent.body).toMatchObject({ code: 'unknown_operation', did_you_mean: ['list_jobs'] });

    // Only what the session may run: a read_only session is not pointed at a write.
    const reader = await mcpClient(base, w.key, { query: { read_only: 'true' } });
    const near = (await call(reader, 'call_operation', { name: 'create_jobs' })).structuredContent.body.did_you_mean;
    expect(near).not.toContain('create_job');
    expect((await call(owner, 'call_operation', { name: 'create_jobs' })).structuredContent.body.did_you_mean).toEqual([
      'create_job',
    ]);
    await reader.close();
  });

  it('records the same events, once, as the REST call', async () => {
    const x = await t.workspace();
    const client = await mcpClient(base, x.key);
    const viaMcp = (await call(client, 'create_job', { name: 'Feed via MCP' })).structuredContent.data.id;
    await call(client, 'move_job', { id: viaMcp, status: 'active' });
    const viaRest = (await job(x, { name: 'Feed via REST' })).id;
    await x.api.post(`/v1/jobs/${viaRest}/move`, { status: 'active' });
    const feed = (await x.api.get('/v1/events')).body.data as any[];
    const shape = (jobId: number) =>
      feed.filter((e) => e.job_id === jobId).map((e) => ({ type: e.event_type, entity: e.entity.type, data: e.data }));
    expect(shape(viaMcp)).toEqual([
      { type: 'job_created', entity: 'job', data: { status: 'lead' } },
      { type: 'job_status_changed', entity: 'job', data: expect.objectContaining({ to_status: 'active' }) },
    ]);
    expect(shape(viaMcp)).toEqual(shape(viaRest));
    await client.close();
  });
});

describe('rate limits', () => {
  it('each tool call counts once against the key, as its REST call would; a 429 comes back as the REST body', async () => {
    const limited = await startApp({ rateLimit: { max: 3, windowMs: 60_000 } });
    const url = await limited.app.listen({ port: 0, host: '127.0.0.1' });
    const x = await limited.workspace();
    const client = await mcpClient(url, x.key);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await call(client, 'list_jobs'));
    expect(results.slice(0, 3).every((r) => !r.isError)).toBe(true);
    expect(results[3]).toMatchObject({
      isError: true,
      structuredContent: { status: 429, body: { code: 'rate_limited' } },
    });
    await client.close();
    await limited.close();
  });
});
