// The measurement toolset over MCP (/v1/mcp?toolsets=measurement): every measurement route is a
// tool, and a tool call runs through the same route as the REST call (the shapes an assistant
// reads, the save it makes, the refusal it hears are the REST ones).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { mcpClient } from '#test/helpers/mcp.ts';
import { job, ok } from '#test/helpers/records.ts';
import { demoLatLng } from '#seed/demo-imagery.ts';
import { measuredLot } from './measured.ts';

let t: TestApp;
let w: Workspace;
let client: Client;
let measurement: number;
beforeAll(async () => {
  t = await startApp();
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  w = await t.workspace();
  const j = await job(w.api, { name: 'Measured over MCP' });
  measurement = await measuredLot(t, w, j.id);
  client = await mcpClient(base, w.key, { query: { toolsets: 'measurement' } });
});
afterAll(async () => {
  await client.close();
  await t.close();
});

const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: any };

describe('the measurement toolset', () => {
  it('offers every measurement route as a tool', async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'detect_full',
        'detect_address',
        'detect_tiles',
        'list_measurements',
        'get_measurement',
        'update_measurement',
        'delete_measurement',
        'list_measurement_shapes',
        'edit_measurement_shapes',
        'list_measurement_history',
      ]),
    );
  });

  it('reads the shapes and saves an edit as the REST routes do', async () => {
    const shapes = await call('list_measurement_shapes', { id: measurement, kind: 'area', include_coordinates: false });
    const rest = await ok(
      w.api.request('GET', `/v1/measurements/${measurement}/shapes?kind=area&include_coordinates=false`),
    );
    expect(shapes.structuredContent).toEqual(rest);
    const saved = await call('edit_measurement_shapes', {
      id: measurement,
      base_rev: (rest as any).measurement.rev,
      operations: [{ op: 'add_count', category: 'wheel_stop', coordinates: demoLatLng([0, 0]) }],
    });
    expect(saved.isError).toBeFalsy();
    expect(saved.structuredContent.data.rev).toBe((rest as any).measurement.rev + 1);
    const stale = await call('edit_measurement_shapes', {
      id: measurement,
      base_rev: 1,
      operations: [{ op: 'add_count', category: 'wheel_stop', coordinates: demoLatLng([0, 0]) }],
    });
    expect(stale.isError).toBe(true);
    expect(stale.structuredContent).toMatchObject({
      status: 409,
      body: { error: 'stale_measurement', current_rev: saved.structuredContent.data.rev },
    });
  });
});
