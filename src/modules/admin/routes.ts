// /admin/v1: the operator's provisioning API. Mounted only when GROUNDWORK_ADMIN_TOKEN is set;
// every call carries `Authorization: Bearer <token>`. Bodies are validated by the service (the
// CLI calls the same functions), so these routes carry no body schema and stay out of /v1/docs;
// path params are declared as text (always valid, so ids are still read by idOf: a bad id is 404).
import { timingSafeEqual, createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Database } from '#db/database.ts';
import { notFound, unauthorized } from '#platform/errors.ts';
import { recordIdOf } from '#platform/schemas.ts';
import type { CountCall } from '#platform/rate-limit.ts';
import { installTextGuard } from '#platform/text-guard.ts';
import {
  addJobStage,
  createWorkspace,
  getWorkspace,
  listWorkspaces,
  updateWorkspace,
  workspaceUsage,
} from './workspaces.ts';
import { createUser, listUsers, removeUser, updateUser } from './users.ts';
import { createApiKey, createPartnerKey, listApiKeys, revokeApiKey, revokePartnerKey } from './keys.ts';
import { exportCatalog, importCatalog } from './catalog.ts';
import { mailQueue, outboxMessage, outboxMessages, retryMail } from './mail.ts';
import { setTakeoffCleanup } from '#measurement/index.ts';

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

/** A path id, read like /v1's: plain decimal, 32 bits, or no such record. */
function idOf(value: unknown): number {
  const id = recordIdOf(value);
  if (id === null) throw notFound('Resource not found');
  return id;
}

export function adminRoutes(
  app: FastifyInstance,
  env: { database: Database; deps: { dataDir: string } },
  token: string,
  countCall?: CountCall,
): void {
  const { database } = env;
  app.register(async (root) => {
    const scope = root.withTypeProvider<TypeBoxTypeProvider>();
    scope.addHook('onRequest', async (request, reply) => {
      // Every call counts against its address before the token is checked, so guessing it is limited too.
      countCall?.(request, reply);
      const header = request.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice(7) : '';
      if (!given || !timingSafeEqual(digest(given), digest(token))) {
        throw unauthorized('Invalid admin token', { message: 'Send Authorization: Bearer <GROUNDWORK_ADMIN_TOKEN>' });
      }
    });
    installTextGuard(scope);
    const hide = { schema: { hide: true } };
    const firm = { schema: { hide: true, params: Type.Object({ firm_id: Type.String() }) } };
    const firmUser = {
      schema: { hide: true, params: Type.Object({ firm_id: Type.String(), user_id: Type.String() }) },
    };
    const firmKey = { schema: { hide: true, params: Type.Object({ firm_id: Type.String(), key_id: Type.String() }) } };
    const partnerKey = { schema: { hide: true, params: Type.Object({ key_id: Type.String() }) } };
    // mode is checked by the service (the CLI passes it too), so any value reaches it as sent.
    const catalogImport = {
      bodyLimit: 16 * 1024 * 1024,
      schema: {
        hide: true,
        params: Type.Object({ firm_id: Type.String() }),
        querystring: Type.Object({ mode: Type.Optional(Type.Unknown()) }),
      },
    };

    scope.get('/admin/v1/workspaces', hide, async () => ({ data: await listWorkspaces(database) }));
    scope.post('/admin/v1/workspaces', hide, async (request, reply) =>
      reply.status(201).send({ data: await createWorkspace(database, request.body) }),
    );
    scope.get('/admin/v1/workspaces/:firm_id', firm, async (request) => ({
      data: await getWorkspace(database, idOf(request.params.firm_id)),
    }));
    scope.get('/admin/v1/workspaces/:firm_id/usage', firm, async (request) => ({
      data: await workspaceUsage(database, idOf(request.params.firm_id)),
    }));
    scope.patch('/admin/v1/workspaces/:firm_id', firm, async (request) => ({
      data: await updateWorkspace(database, idOf(request.params.firm_id), request.body),
    }));
    scope.post('/admin/v1/workspaces/:firm_id/job-stages', firm, async (request, reply) =>
      reply.status(201).send({ data: await addJobStage(database, idOf(request.params.firm_id), request.body) }),
    );

    scope.get('/admin/v1/workspaces/:firm_id/catalog', firm, async (request) => ({
      data: await exportCatalog(database, idOf(request.params.firm_id)),
    }));
    scope.post('/admin/v1/workspaces/:firm_id/catalog/import', catalogImport, async (request) => {
      const { mode } = request.query;
      return { data: await importCatalog(database, idOf(request.params.firm_id), request.body, mode ?? 'merge') };
    });

    scope.get('/admin/v1/workspaces/:firm_id/users', firm, async (request) => ({
      data: await listUsers(database, idOf(request.params.firm_id)),
    }));
    scope.post('/admin/v1/workspaces/:firm_id/users', firm, async (request, reply) =>
      reply.status(201).send({ data: await createUser(database, idOf(request.params.firm_id), request.body) }),
    );
    scope.patch('/admin/v1/workspaces/:firm_id/users/:user_id', firmUser, async (request) => ({
      data: await updateUser(database, idOf(request.params.firm_id), idOf(request.params.user_id), request.body),
    }));
    scope.delete('/admin/v1/workspaces/:firm_id/users/:user_id', firmUser, async (request) => ({
      data: await removeUser(database, idOf(request.params.firm_id), idOf(request.params.user_id)),
    }));
    // The cleanup service's switch on a landscape takeoff (measurement/landscape/cleanup.ts).
    scope.post(
      '/admin/v1/workspaces/:firm_id/landscape-takeoffs/:takeoff_id/cleanup',
      { schema: { hide: true, params: Type.Object({ firm_id: Type.String(), takeoff_id: Type.String() }) } },
      async (request) =>
        setTakeoffCleanup(database, idOf(request.params.firm_id), idOf(request.params.takeoff_id), request.body),
    );

    scope.get('/admin/v1/workspaces/:firm_id/api-keys', firm, async (request) => ({
      data: await listApiKeys(database, idOf(request.params.firm_id)),
    }));
    scope.post('/admin/v1/workspaces/:firm_id/api-keys', firm, async (request, reply) =>
      reply.status(201).send({ data: await createApiKey(database, idOf(request.params.firm_id), request.body) }),
    );
    scope.delete('/admin/v1/workspaces/:firm_id/api-keys/:key_id', firmKey, async (request) => ({
      data: await revokeApiKey(database, idOf(request.params.firm_id), idOf(request.params.key_id)),
    }));

    scope.post('/admin/v1/partner-keys', hide, async (request, reply) =>
      reply.status(201).send({ data: await createPartnerKey(database, request.body) }),
    );
    scope.delete('/admin/v1/partner-keys/:key_id', partnerKey, async (request) => ({
      data: await revokePartnerKey(database, idOf(request.params.key_id)),
    }));

    const listing = { schema: { hide: true, querystring: Type.Object({ limit: Type.Optional(Type.String()) }) } };
    const outboxName = { schema: { hide: true, params: Type.Object({ name: Type.String() }) } };
    const mailList = {
      schema: {
        hide: true,
        querystring: Type.Object({ status: Type.Optional(Type.String()), limit: Type.Optional(Type.String()) }),
      },
    };
    const mailId = { schema: { hide: true, params: Type.Object({ mail_id: Type.String() }) } };
    scope.get('/admin/v1/outbox', listing, async (request) => ({
      data: await outboxMessages(env.deps.dataDir, request.query.limit),
    }));
    scope.get('/admin/v1/outbox/:name', outboxName, async (request, reply) =>
      reply.type('message/rfc822').send(await outboxMessage(env.deps.dataDir, request.params.name)),
    );
    scope.get('/admin/v1/mail', mailList, async (request) => ({ data: await mailQueue(database, request.query) }));
    scope.post('/admin/v1/mail/:mail_id/retry', mailId, async (request) => ({
      data: await retryMail(database, idOf(request.params.mail_id)),
    }));
  });
}
