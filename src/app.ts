// Builds the Fastify app from the modules: conventions first (errors, validation, auth, rate
// limits), then each area's routes under /v1, the operator's /admin/v1 when enabled, and docs.
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { DEFAULT_TRUST_PROXY, type Config } from './config.ts';
import type { Database } from '#db/database.ts';
import { installAuth } from '#platform/auth.ts';
import { installRateLimits, type RateLimitConfig } from '#platform/rate-limit.ts';
import { bodyAjv, textAjv } from '#platform/ajv.ts';
import { installErrorHandler } from '#platform/error-handler.ts';
import { installTextGuard } from '#platform/text-guard.ts';
import { adminRoutes } from '#admin/routes.ts';
import { clientAccountRoutes } from '#crm/client-accounts/routes.ts';
import { jobDetailRoutes } from '#crm/job-details/routes.ts';
import { jobStageRoutes } from '#crm/job-stages/routes.ts';
import { jobTagRoutes } from '#crm/job-tags/routes.ts';
import { eventFeedRoutes } from '#integrations/events/routes.ts';
import { webhookRoutes } from '#integrations/webhooks/routes.ts';
import { jobRoutes } from '#crm/jobs/routes.ts';
import { locationRoutes } from '#crm/locations/routes.ts';
import { userRoutes } from '#workspace/users/routes.ts';
import { exportRoutes } from '#integrations/exports/routes.ts';
import { contactRoutes } from '#crm/contacts/routes.ts';
import { customFieldRoutes } from '#crm/custom-fields/routes.ts';
import { noteRoutes } from '#crm/notes/routes.ts';
import { activityRoutes } from '#crm/activities/routes.ts';
import { taskRoutes } from '#crm/tasks/routes.ts';
import { jobActivityRoutes } from '#crm/job-activity/routes.ts';
import { searchRoutes } from '#crm/search/routes.ts';
import { mergeRoutes } from '#crm/merges/routes.ts';
import { catalogRoutes } from '#estimating/catalog/routes.ts';
import { estimateRoutes } from '#estimating/estimates/routes.ts';
import { geocoderFor, type Geocoder } from '#platform/geocoding.ts';

export const API_VERSION = 'v1';
export const SERVICE_VERSION = '0.1.0';

export type AppConfig = Pick<Config, 'adminToken' | 'rateLimit'> & Partial<Pick<Config, 'authCacheMs' | 'dataDir' | 'geocoderUrl' | 'trustProxy'>> & {
  /** The admin API's limit per client address; the API's (rateLimit) unless given (tests provision freely). */
  adminRateLimit?: RateLimitConfig;
  /** A geocoder to use instead of the one GROUNDWORK_GEOCODER_URL names (tests pass a local server's). */
  geocoder?: Geocoder;
  logLevel?: string | false;
  /** Accept webhook targets on private and loopback addresses (GROUNDWORK_ALLOW_PRIVATE_NETWORK). */
  allowPrivateNetwork?: boolean;
};

export async function buildApp(database: Database, config: AppConfig): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === false ? false : { level: config.logLevel ?? 'info' },
    // Keys are server secrets (document 1): no CORS headers are ever sent.
    // X-Forwarded-For is believed only from the proxies named here (by default loopback and private
    // networks, where a reverse proxy sits): the rate limit counts unknown callers by address.
    trustProxy: config.trustProxy ?? DEFAULT_TRUST_PROXY,
  });
  const limits = await installRateLimits(app, config.rateLimit, config.adminRateLimit);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object));
  installErrorHandler(app);
  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ error: 'Resource not found' }));

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Groundwork API', version: SERVICE_VERSION, description: 'Contractor-workspace service API, v1.' },
      components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
      security: [{ apiKey: [] }],
    },
  });

  await app.register(async (v1) => {
    installAuth(v1, database.db, config.authCacheMs ?? 1000, limits.count);
    installTextGuard(v1);

    v1.get('/v1/health', {
      config: { public: true, rateLimit: false },
      schema: {
        tags: ['Platform'], summary: 'Health (no key needed)', security: [],
        response: { 200: { type: 'object', properties: { status: { type: 'string' }, version: { type: 'string' } } } },
      },
    }, async () => ({ status: 'ok', version: API_VERSION }));
    v1.get('/v1/openapi.json', { config: { public: true, rateLimit: false }, schema: { hide: true } }, async () => app.swagger());

    userRoutes(v1, database);
    clientAccountRoutes(v1, database);
    locationRoutes(v1, database);
    jobStageRoutes(v1, database);
    jobRoutes(v1, database);
    jobDetailRoutes(v1, database);
    jobTagRoutes(v1, database);
    contactRoutes(v1, database);
    customFieldRoutes(v1, database);
    noteRoutes(v1, database);
    activityRoutes(v1, database);
    taskRoutes(v1, database);
    jobActivityRoutes(v1, database);
    searchRoutes(v1, database);
    mergeRoutes(v1, database);
    catalogRoutes(v1, database);
    estimateRoutes(v1, database, config.geocoder ?? geocoderFor(config.geocoderUrl));
    exportRoutes(v1, database, { dataDir: config.dataDir ?? 'data' });
    webhookRoutes(v1, database, { allowPrivateNetwork: config.allowPrivateNetwork ?? false });
    eventFeedRoutes(v1, database);
  });

  await app.register(swaggerUi, { routePrefix: '/v1/docs', uiConfig: { url: '/v1/openapi.json' } as never });

  if (config.adminToken) adminRoutes(app, database, config.adminToken, limits.admin);
  return app;
}
