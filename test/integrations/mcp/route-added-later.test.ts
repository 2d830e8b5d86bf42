// A route added later is a tool without anyone listing it: a stand-in area adds GET
// /v1/widgets/{id} (its own file: a process installs one area list).
import { Type } from '@sinclair/typebox';
import { expect, it } from 'vitest';
import type { Area } from '#src/area.ts';
import { AREAS } from '#src/areas.ts';
import type { ApiApp } from '#platform/routes.ts';
import { startApp } from '#test/helpers/harness.ts';
import { mcpClient } from '#test/helpers/mcp.ts';

it('becomes a tool without anyone listing it', async () => {
  const widgets: Area = {
    name: 'widgets',
    routes: [
      (app: ApiApp) => {
        app.get(
          '/v1/widgets/:id',
          {
            config: { permissions: ['read_jobs'] },
            schema: {
              tags: ['Widgets'],
              summary: 'One widget',
              params: Type.Object({ id: Type.Integer() }),
              querystring: Type.Object({ shade: Type.Optional(Type.String()) }),
            },
          },
          async (request) => ({ data: { id: request.params.id, shade: request.query.shade ?? 'plain' } }),
        );
      },
    ],
  };
  const later = await startApp({ areas: [...AREAS, widgets] });
  const base = await later.app.listen({ port: 0, host: '127.0.0.1' });
  const w = await later.workspace();
  const scoped = await mcpClient(base, w.key, { query: { toolsets: 'widgets' } });
  const listed = (await scoped.listTools()).tools.map((tool) => tool.name);
  expect(listed).toEqual(['get_widget', 'search_operations', 'call_operation']);
  const result = await scoped.callTool({ name: 'get_widget', arguments: { id: 7, shade: 'blue' } });
  expect(result.structuredContent).toEqual({ data: { id: 7, shade: 'blue' } });
  await scoped.close();
  await later.close();
});
