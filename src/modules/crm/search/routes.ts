// GET /v1/search (document 2, Search and merge).
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { Nullable } from '#platform/schemas.ts';
import { SEARCH_TYPE_NAMES } from '#src/area.ts';
import { PER_TYPE, search } from './service.ts';

const ResultSchema = Type.Object({
  type: Type.Union(SEARCH_TYPE_NAMES.map((t) => Type.Literal(t))),
  id: Type.Integer(),
  title: Type.String(),
  subtitle: Nullable(Type.String()),
  status: Nullable(Type.String()),
  app_url: Type.String({ description: 'path of the record in the web app, relative to its address' }),
});

export function searchRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/search',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Search'],
        summary: `Search jobs, customers, contacts and sites: the best ${PER_TYPE} of each type (exact, then prefix, then contains; then most recently updated)`,
        querystring: Type.Object({
          q: Type.Optional(Type.String({ description: '2 to 120 characters after trimming; taken literally' })),
          types: Type.Optional(Type.String({ description: `comma list of ${SEARCH_TYPE_NAMES.join(', ')}` })),
        }),
        response: { 200: Type.Object({ data: Type.Array(ResultSchema), query: Type.String() }) },
      },
    },
    async (request) => {
      const { q, types } = request.query;
      return search(ctx(request), { q, types });
    },
  );
}
