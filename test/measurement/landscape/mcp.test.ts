// The landscape toolset over MCP (/v1/mcp?toolsets=landscape): every landscape route is a tool
// (but the sheet image, a binary answer), and a tool call runs through the same route as the REST
// call (the items an assistant adds, the quantities it reads, the plan runs it starts and the
// refusals it hears are the REST ones).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticPlan } from '#engines/plans/synthetic-plan.ts';
import { landscapeRunTask } from '#measurement/landscape/run-worker.ts';
import { systemClock } from '#platform/clock.ts';
import { uploadJobFile } from '#test/field/files/upload.ts';
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
      'find_landscape_takeoff_plants',
      'get_landscape_run',
      'get_landscape_takeoff',
      'group_landscape_takeoff_plants',
      'list_landscape_classes',
      'list_landscape_takeoff_history',
      'list_landscape_takeoff_items',
      'list_landscape_takeoffs',
      'read_landscape_takeoff_callouts',
      'read_landscape_takeoff_irrigation',
      'run_advanced_landscape_takeoff',
      'set_landscape_takeoff_schedule',
      'undo_landscape_run',
      'update_landscape_takeoff_item',
    ]);
    // The sheet image is a PNG, not JSON: it stays a REST call.
    expect(names).not.toContain('get_landscape_takeoff_sheet_image');
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

describe('plan takeoffs over MCP', () => {
  /** Runs the landscape-run worker until no run is pending. */
  const work = async () => {
    const task = landscapeRunTask(t.env, { clock: systemClock, leaseMs: 120_000 });
    while ((await task.sweep()) > 0);
  };

  it('starts a plan takeoff from a job file, places its schedule and finds its plants through the tools', async () => {
    await ok(t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { takeoff_credits: 5 } }));
    const plan = await syntheticPlan(1);
    const file = (await ok(uploadJobFile(t, w, jobId, plan.bytes, 'planting plan.pdf'))).data;
    const started = await call('create_landscape_takeoff', {
      job_id: jobId,
      type: 'blueprint',
      file_id: file.id,
      pages: [1],
    });
    expect(started.isError).toBeFalsy();
    expect(started.structuredContent.data).toMatchObject({ object: 'landscape_run', kind: 'plan', status: 'pending' });
    await work();
    const run = (await call('get_landscape_run', { id: started.structuredContent.data.id })).structuredContent.data;
    expect(run).toMatchObject({ status: 'completed', credit_used: true, result: { pages_stored: 1 } });
    const id = run.takeoff_id as number;
    const read = (await call('get_landscape_takeoff', { id })).structuredContent.data;
    expect(read).toMatchObject({
      type: 'blueprint',
      editor: 'plan',
      pages: [1],
      schedule: { status: 'found', page: 1 },
    });

    // The schedule placed where reading found it: the same rows, now placed by hand; the answer is the REST read's.
    const placed = await call('set_landscape_takeoff_schedule', { id, page: 1, box: read.schedule.box });
    expect(placed.isError).toBeFalsy();
    expect(placed.structuredContent.data.schedule).toMatchObject({ status: 'placed', page: 1 });
    expect(placed.structuredContent.data.schedule.rows.map((r: any) => r.code)).toEqual(
      plan.truth.rows.map((r) => r.code),
    );
    expect(placed.structuredContent.data).toEqual(
      (await ok(w.api.request('GET', `/v1/landscape-takeoffs/${id}`))).data,
    );

    // find-plants as a tool: a pending run; the worker puts a dot on every symbol of the sheet.
    const find = await call('find_landscape_takeoff_plants', { id });
    expect(find.isError).toBeFalsy();
    expect(find.structuredContent.data).toMatchObject({ kind: 'find_plants', status: 'pending', takeoff_id: id });
    await work();
    expect(
      (await call('get_landscape_run', { id: find.structuredContent.data.id })).structuredContent.data,
    ).toMatchObject({
      status: 'completed',
      credit_used: false,
    });
    const dots = (await call('list_landscape_takeoff_items', { id, kind: 'plant', limit: 200 })).structuredContent.data;
    const symbols = plan.truth.symbols.filter((s) => s.page === 1);
    expect(symbols.length).toBeGreaterThan(0);
    expect(dots).toHaveLength(symbols.length);
    for (const s of symbols)
      expect(
        dots.some((d: any) => d.page === 1 && Math.abs(d.x - s.x) <= 3 && Math.abs(d.y - s.y) <= 3),
        `${s.code} at ${s.x},${s.y}`,
      ).toBe(true);

    // A plan tool on an aerial takeoff hears the REST refusal; a page not taken off is the REST 400.
    const aerial = (await call('create_landscape_takeoff', { job_id: jobId, type: 'aerial' })).structuredContent.data;
    const refused = await call('read_landscape_takeoff_callouts', { id: aerial.id });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ status: 422, body: { code: 'not_a_plan_takeoff' } });
    const past = await call('run_advanced_landscape_takeoff', { id, pages: [7] });
    expect(past.isError).toBe(true);
    expect(past.structuredContent).toMatchObject({ status: 400, body: { error: 'Page 7 is not in this PDF' } });
  }, 60_000);
});
