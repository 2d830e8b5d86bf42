// The landscape toolset over MCP (/v1/mcp?toolsets=landscape): every landscape route is a tool,
// and a tool call runs through the same route as the REST call (the items an assistant adds, the
// quantities it reads and the refusals it hears are the REST ones).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { mcpClient } from '#test/helpers/mcp.ts';
import { job, ok } from '#test/helpers/records.ts';
import { pointAt, squareAt } from './segmenter.ts';

const ORIGIN = { lat: 39.7817, lng: -89.6501 };
let t: TestApp;
let w: Workspace;
let client: Client;
let jobId: number;
beforeAll(async () => {
  t = await startApp();
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  w = await t.workspace();
  jobId = (await job(w.api, { name: 'Landscaped over MCP' })).id;
  client = await mcpClient(base, w.key, { query: { toolsets: 'landscape' } });
});
afterAll(async () => {
  await client.close();
  await t.close();
});

const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: any };

describe('the landscape toolset', () => {
  it('offers every landscape route as a tool, and only those (beside the search and call tools)', async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(names.filter((n) => n !== 'call_operation' && n !== 'search_operations')).toEqual([
      'add_landscape_takeoff_items',
      'create_landscape_takeoff',
      'delete_landscape_takeoff_item',
      'detect_landscape_takeoff',
      'get_landscape_run',
      'get_landscape_takeoff',
      'list_landscape_classes',
      'list_landscape_takeoff_history',
      'list_landscape_takeoff_items',
      'list_landscape_takeoffs',
      'undo_landscape_run',
      'update_landscape_takeoff_item',
    ]);
  });

  it('starts a takeoff, adds items and reads the quantities as the REST routes do', async () => {
    const made = await call('create_landscape_takeoff', { job_id: jobId, type: 'aerial' });
    expect(made.isError).toBeFalsy();
    const id = made.structuredContent.data.id;
    const added = await call('add_landscape_takeoff_items', {
      id,
      items: [
        { class: 'lawn', polygon: squareAt(ORIGIN, 0, 0, 20) },
        { class: 'evergreen', point: pointAt(ORIGIN, 2, 2) },
      ],
    });
    expect(added.isError).toBeFalsy();
    expect(added.structuredContent.quantities).toMatchObject({ tree_count: 1, object_count: 1 });
    const read = await call('get_landscape_takeoff', { id, unit: 'sy' });
    expect(read.structuredContent).toEqual(await ok(w.api.request('GET', `/v1/landscape-takeoffs/${id}?unit=sy`)));
    const wrong = await call('add_landscape_takeoff_items', {
      id,
      items: [{ class: 'lawn', point: pointAt(ORIGIN, 1, 1) }],
    });
    expect(wrong.isError).toBe(true);
    expect(wrong.structuredContent).toMatchObject({ status: 400, body: { code: 'wrong_class_kind', index: 0 } });
  });
});
