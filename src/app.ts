// Builds the Fastify app from the modules: conventions first (errors, validation, auth, rate
// limits), then each area's routes under /v1, the operator's /admin/v1 when enabled, and docs.
import fs from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DEFAULT_TRUST_PROXY, type Config } from './config.ts';
import type { Database } from '#db/database.ts';
import { installAuth } from '#platform/auth.ts';
import { installRateLimits, type RateLimitConfig } from '#platform/rate-limit.ts';
import { bodyAjv, compileTextValidator } from '#platform/ajv.ts';
import { lazySerializers, lazyValidator } from '#platform/lazy-compile.ts';
import { frameworkErrorHandler, installErrorHandler, MAX_PATH_SEGMENT } from '#platform/error-handler.ts';
import { installSecurityHeaders } from '#platform/security-headers.ts';
import { installTextGuard } from '#platform/text-guard.ts';
import { installJsonParser } from '#platform/json-body.ts';
import { DEFAULT_TIMEOUTS, installBodyTimeouts, serverTimeoutOptions } from '#platform/timeouts.ts';
import { componentName, describeOperation, ErrorSchema, withoutErrorMessages } from '#platform/openapi.ts';
import { adminRoutes } from '#admin/index.ts';
import { installAreas, type Area } from './area.ts';
import { AREAS } from './areas.ts';
import { startEnv } from './env.ts';
import { API_VERSION, SERVICE_VERSION } from './version.ts';
import type { Env } from '#platform/context.ts';
import type { Geocoder } from '#platform/geocoding.ts';
import { objectRoutes } from '#platform/storage/routes.ts';
import type { Storage } from '#platform/storage/storage.ts';
import type { Payments } from '#platform/payments/processor.ts';
import type { Imagery } from '#platform/imagery/imagery.ts';
import type { Vision } from '#platform/vision.ts';
import { installPages } from '#pages/pages.ts';
import { paymentWebhookRoutes } from '#billing/index.ts';

/**
 * The reference UI's policy instead of the API's (which allows nothing): swagger-ui's own, with
 * scripts and images from this server only. Inline styles are allowed (its bundle sets some;
 * styles cannot run code), and upgrade-insecure-requests is dropped: it would break a plain-http
 * install on a local network.
 */
function docsPolicy(header: string): string {
  return header
    .replace(/\s*upgrade-insecure-requests;?/, '')
    .replace(/style-src ([^;]*?)\s*;/, "style-src $1 'unsafe-inline';");
}

export type AppConfig = Pick<Config, 'adminToken' | 'rateLimit'> &
  Partial<
    Pick<
      Config,
      | 'authCacheMs'
      | 'dataDir'
      | 'geocoderUrl'
      | 'visionUrl'
      | 'trustProxy'
      | 'storage'
      | 'payments'
      | 'imagery'
      | 'publicUrl'
      | 'timeouts'
    >
  > & {
    /** The admin API's limit per client address; the API's (rateLimit) unless given (tests provision freely). */
    adminRateLimit?: RateLimitConfig;
    /** A geocoder to use instead of the one GROUNDWORK_GEOCODER_URL names (tests pass a local server's). */
    geocoder?: Geocoder;
    logLevel?: string | false;
    /** Where log lines go (stdout unless given; tests read them). */
    logStream?: { write(line: string): void };
    /** Accept webhook targets on private and loopback addresses (GROUNDWORK_ALLOW_PRIVATE_NETWORK). */
    allowPrivateNetwork?: boolean;
    /** A storage to use instead of the one the settings name (tests: a temporary directory, a local S3). */
    storageAdapter?: Storage;
    /** Payments to use instead of the ones the settings name (tests: Stripe aimed at a local server). */
    paymentsAdapter?: Payments;
    /** Imagery to use instead of the one the settings name (tests: a local tile server). */
    imageryAdapter?: Imagery;
    /** A vision endpoint to use instead of the one GROUNDWORK_VISION_URL names (tests: a local server). */
    visionAdapter?: Vision | null;
    /** The process's environment when the caller built it already (serve shares it with the worker). */
    env?: Env;
    /** Compile every route's schemas while building (platform/lazy-compile.ts); otherwise on first use. */
    eagerSchemas?: boolean;
  };

export async function buildApp(
  database: Database,
  config: AppConfig,
  areas: readonly Area[] = AREAS,
): Promise<FastifyInstance> {
  const env =
    config.env ??
    startEnv(
      database,
      {
        dataDir: config.dataDir,
        geocoderUrl: config.geocoderUrl ?? undefined,
        geocoder: config.geocoder,
        allowPrivateNetwork: config.allowPrivateNetwork,
        storage: config.storageAdapter,
        storageSettings: config.storage,
        payments: config.paymentsAdapter,
        paymentSettings: config.payments,
        imagery: config.imageryAdapter,
        imagerySettings: config.imagery,
        vision: config.visionAdapter,
        visionUrl: config.visionUrl ?? undefined,
      },
      areas,
    );
  const { routes, pages } = installAreas(areas);
  const app = Fastify({
    logger:
      config.logLevel === false
        ? false
        : { level: config.logLevel ?? 'info', ...(config.logStream ? { stream: config.logStream } : {}) },
    ...serverTimeoutOptions(config.timeouts ?? DEFAULT_TIMEOUTS),
    // Keys are server secrets (document 1): no CORS headers are ever sent.
    // X-Forwarded-For is believed only from the proxies named here (by default loopback and private
    // networks, where a reverse proxy sits): the rate limit counts unknown callers by address.
    trustProxy: config.trustProxy ?? DEFAULT_TRUST_PROXY,
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT },
    frameworkErrors: frameworkErrorHandler,
    ...(config.eagerSchemas ? {} : { schemaController: { compilersFactory: { buildSerializer: lazySerializers() } } }),
  });
  // A data directory buildDeps named for this app alone (a test's, a benchmark's: no dataDir given)
  // goes with it: after a day of test runs /tmp held hundreds of them.
  if (!config.env && config.dataDir === undefined) {
    const { dataDir } = env.deps;
    app.addHook('onClose', async () => fs.promises.rm(dataDir, { recursive: true, force: true }));
  }
  // Links in answers, mail and pages are made on the public origin when one is set (routes.ts, originOf).
  app.decorate('publicOrigin', config.publicUrl ?? null);
  const limits = installRateLimits(config.rateLimit, config.adminRateLimit);
  const compile = (schema: object, httpPart?: string) =>
    httpPart === 'body' ? bodyAjv.compile(schema) : compileTextValidator(schema);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    config.eagerSchemas
      ? compile(schema as object, httpPart)
      : (lazyValidator(() => compile(schema as object, httpPart) as never) as never),
  );
  installErrorHandler(app);
  installJsonParser(app);
  installSecurityHeaders(app);
  installBodyTimeouts(app, (config.timeouts ?? DEFAULT_TIMEOUTS).uploadIdleMs);
  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ error: 'Resource not found' }));

  app.addSchema(ErrorSchema);
  await app.register(swagger, {
    refResolver: { buildLocalReference: componentName },
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Groundwork API', version: SERVICE_VERSION, description: 'Contractor-workspace service API, v1.' },
      components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
      security: [{ apiKey: [] }],
    },
    transformObject: (document) =>
      withoutErrorMessages('openapiObject' in document ? document.openapiObject : document.swaggerObject),
  });

  await app.register(async (v1) => {
    installAuth(v1, database.db, config.authCacheMs ?? 1000, limits);
    installTextGuard(v1);
    v1.addHook('onRoute', describeOperation);

    v1.get(
      '/v1/health',
      {
        config: { public: true, rateLimit: false },
        schema: {
          tags: ['Platform'],
          summary: 'Health (no key needed)',
          security: [],
          response: {
            200: { type: 'object', properties: { status: { type: 'string' }, version: { type: 'string' } } },
          },
        },
      },
      async () => ({ status: 'ok', version: API_VERSION }),
    );
    v1.get('/v1/openapi.json', { config: { public: true, rateLimit: false }, schema: { hide: true } }, async () =>
      app.swagger(),
    );

    const api = v1.withTypeProvider<TypeBoxTypeProvider>();
    for (const register of routes) register(api, env);
    // The keyless links of stored files: the platform's, like health, not an area's.
    objectRoutes(api, env);
  });

  // Customer pages: keyless HTML outside /v1, and never OpenAPI operations (so never MCP tools).
  await installPages(app, env, pages);

  // The payment processor's signed webhook: keyless like the pages, its signature the credential.
  paymentWebhookRoutes(app, env);

  await app.register(swaggerUi, {
    routePrefix: '/v1/docs',
    uiConfig: { url: '/v1/openapi.json' } as never,
    staticCSP: true,
    transformStaticCSP: docsPolicy,
  });

  if (config.adminToken) adminRoutes(app, env, config.adminToken, limits.admin);
  return app;
}
