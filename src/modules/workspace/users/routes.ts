// GET /v1/users: the workspace's teammates (document 2 leaves the shape to us; it is the user object,
// plus pay_rate for a key whose user may see pay: absent otherwise, so "no rate set" (null) is never
// confused with "hidden").
import { Type } from '@sinclair/typebox';
import { centsToDollars } from '#platform/money.ts';
import { can } from '#platform/permissions.ts';
import type { ApiApp } from '#platform/routes.ts';
import type { Env } from '#platform/context.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { ListOf, Nullable, PageQuery } from '#platform/schemas.ts';
import { listActiveUsers } from './repo.ts';
import { UserSchema, userObject } from './serialize.ts';

const TeammateSchema = Type.Composite([
  UserSchema,
  Type.Object({
    pay_rate: Type.Optional(
      Nullable(Type.Number({ description: 'dollars per hour; only for users who may see pay (can_see_pay)' })),
    ),
  }),
]);

export function userRoutes(app: ApiApp, env: Env): void {
  app.get(
    '/v1/users',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Users'],
        summary: 'List the workspace users',
        querystring: Type.Object(PageQuery(200)),
        response: { 200: ListOf(TeammateSchema) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { rows, total } = await listActiveUsers(env.database.db, request.auth.firm.id, page.limit, page.offset);
      const seesPay = can(request.auth.user, 'can_see_pay');
      const teammates = rows.map((u) =>
        seesPay
          ? { ...userObject(u), pay_rate: centsToDollars(u.pay_rate_cents === null ? null : Number(u.pay_rate_cents)) }
          : userObject(u),
      );
      return listEnvelope(teammates, total, page);
    },
  );
}
