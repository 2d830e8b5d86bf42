// /admin/v1: the operator's provisioning API. Mounted only when GROUNDWORK_ADMIN_TOKEN is set;
// every call carries `Authorization: Bearer <token>`. Bodies are validated by the service (the
// CLI calls the same functions), so these routes carry no schema and stay out of /v1/docs.
import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Database } from '#db/database.ts';
import { notFound, unauthorized } from '#platform/errors.ts';
import type { CountCall } from '#platform/rate-limit.ts';
import { installTextGuard } from '#platform/text-guard.ts';
import * as admin from './service.ts';

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

function idOf(value: unknown): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 2147483647) throw notFound('Resource not found');
  return n;
}

export function adminRoutes(app: FastifyInstance, database: Database, token: string, countCall?: CountCall): void {
  app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      // Every call counts against its address before the token is checked, so guessing it is limited too.
      await countCall?.(request, reply);
      const header = request.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice(7) : '';
      if (!given || !timingSafeEqual(digest(given), digest(token))) {
        throw unauthorized('Invalid admin token', { message: 'Send Authorization: Bearer <GROUNDWORK_ADMIN_TOKEN>' });
      }
    });
    installTextGuard(scope);
    const hide = { schema: { hide: true } };
    type P = { firm_id?: string; user_id?: string; key_id?: string };
    const p = (request: { params: unknown }) => request.params as P;

    scope.get('/admin/v1/workspaces', hide, async () => ({ data: await admin.listWorkspaces(database) }));
    scope.post('/admin/v1/workspaces', hide, async (request, reply) =>
      reply.status(201).send({ data: await admin.createWorkspace(database, request.body) }));
    scope.get('/admin/v1/workspaces/:firm_id', hide, async (request) =>
      ({ data: await admin.getWorkspace(database, idOf(p(request).firm_id)) }));
    scope.patch('/admin/v1/workspaces/:firm_id', hide, async (request) =>
      ({ data: await admin.updateWorkspace(database, idOf(p(request).firm_id), request.body) }));
    scope.post('/admin/v1/workspaces/:firm_id/job-stages', hide, async (request, reply) =>
      reply.status(201).send({ data: await admin.addJobStage(database, idOf(p(request).firm_id), request.body) }));

    scope.get('/admin/v1/workspaces/:firm_id/catalog', hide, async (request) =>
      ({ data: await admin.exportCatalog(database, idOf(p(request).firm_id)) }));
    scope.post('/admin/v1/workspaces/:firm_id/catalog/import', { ...hide, bodyLimit: 16 * 1024 * 1024 }, async (request) => {
      const { mode } = request.query as { mode?: string };
      return { data: await admin.importCatalog(database, idOf(p(request).firm_id), request.body, mode ?? 'merge') };
    });

    scope.get('/admin/v1/workspaces/:firm_id/users', hide, async (request) =>
      ({ data: await admin.listUsers(database, idOf(p(request).firm_id)) }));
    scope.post('/admin/v1/workspaces/:firm_id/users', hide, async (request, reply) =>
      reply.status(201).send({ data: await admin.createUser(database, idOf(p(request).firm_id), request.body) }));
    scope.patch('/admin/v1/workspaces/:firm_id/users/:user_id', hide, async (request) =>
      ({ data: await admin.updateUser(database, idOf(p(request).firm_id), idOf(p(request).user_id), request.body) }));
    scope.delete('/admin/v1/workspaces/:firm_id/users/:user_id', hide, async (request) =>
      ({ data: await admin.removeUser(database, idOf(p(request).firm_id), idOf(p(request).user_id)) }));

    scope.get('/admin/v1/workspaces/:firm_id/api-keys', hide, async (request) =>
      ({ data: await admin.listApiKeys(database, idOf(p(request).firm_id)) }));
    scope.post('/admin/v1/workspaces/:firm_id/api-keys', hide, async (request, reply) =>
      reply.status(201).send({ data: await admin.createApiKey(database, idOf(p(request).firm_id), request.body) }));
    scope.delete('/admin/v1/workspaces/:firm_id/api-keys/:key_id', hide, async (request) =>
      ({ data: await admin.revokeApiKey(database, idOf(p(request).firm_id), idOf(p(request).key_id)) }));

    scope.post('/admin/v1/partner-keys', hide, async (request, reply) =>
      reply.status(201).send({ data: await admin.createPartnerKey(database, request.body) }));
    scope.delete('/admin/v1/partner-keys/:key_id', hide, async (request) =>
      ({ data: await admin.revokePartnerKey(database, idOf(p(request).key_id)) }));
  });
}
