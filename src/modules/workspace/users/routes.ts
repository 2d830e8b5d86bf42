// GET /v1/users: the workspace's teammates (document 2 leaves the shape to us; it is the user object).
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import type { Env } from '#platform/context.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { ListOf, PageQuery } from '#platform/schemas.ts';
import { listActiveUsers } from './repo.ts';
import { UserSchema, userObject } from './serialize.ts';

export function userRoutes(app: ApiApp, env: Env): void {
  app.get(
    '/v1/users',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Users'],
        summary: 'List the workspace users',
        querystring: Type.Object(PageQuery(200)),
        response: { 200: ListOf(UserSchema) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { rows, total } = await listActiveUsers(env.database.db, request.auth.firm.id, page.limit, page.offset);
      return listEnvelope(rows.map(userObject), total, page);
    },
  );
}
