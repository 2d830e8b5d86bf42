// Every route's schemas compile (platform/lazy-compile.ts): apps compile a route's validators and
// response serializer on its first call, so a schema that cannot compile would otherwise surface
// as that route's 500 in production. This app compiles them all while it is built, as start-up
// did before, so a bad schema fails here.
import { afterAll, expect, it } from 'vitest';
import { buildApp } from '#src/app.ts';
import { freshDatabase } from '#test/helpers/harness.ts';

let drop: (() => Promise<void>) | undefined;
afterAll(async () => {
  await drop?.();
});

it('every validator and response serializer of every route compiles', async () => {
  const fresh = await freshDatabase();
  drop = fresh.drop;
  const app = await buildApp(fresh.database, {
    adminToken: null,
    rateLimit: { max: 1000, windowMs: 1000 },
    logLevel: false,
    eagerSchemas: true,
  });
  await expect(app.ready()).resolves.toBeDefined();
  const routes = app.printRoutes({ commonPrefix: false });
  expect(routes).toContain('landscape-takeoffs');
  await app.close();
}, 60_000);
