// GET /v1/estimate-templates reads the templates' services in one query, however many templates
// the page holds (it used to ask once per template). The app runs over the real database with a
// Kysely plugin that only counts the queries it sees.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { KyselyPlugin } from 'kysely';
import { buildApp } from '#src/app.ts';
import { ADMIN_TOKEN, freshDatabase } from '#test/helpers/harness.ts';

let queries = 0;
const counter: KyselyPlugin = {
  transformQuery: (args) => {
    queries++;
    return args.node;
  },
  transformResult: async (args) => args.result,
};

let fresh: Awaited<ReturnType<typeof freshDatabase>>;
let app: FastifyInstance;
let key: string;

async function call(
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = { 'x-api-key': key },
) {
  const res = await app.inject({
    method: method as 'GET',
    url,
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { payload: JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, body: res.json() };
}

beforeAll(async () => {
  fresh = await freshDatabase();
  const database = { ...fresh.database, db: fresh.database.db.withPlugin(counter) };
  // A long key memo: authentication is not part of what is counted.
  app = await buildApp(database, {
    adminToken: ADMIN_TOKEN,
    rateLimit: { max: 1e6, windowMs: 1000 },
    logLevel: false,
    authCacheMs: 600_000,
  });
  await app.ready();
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const ws = (
    await call(
      'POST',
      '/admin/v1/workspaces',
      { name: 'Counted', owner: { name: 'O', email: 'o@counted.test' } },
      admin,
    )
  ).body.data;
  key = (
    await call(
      'POST',
      `/admin/v1/workspaces/${ws.firm_id}/api-keys`,
      { user_id: ws.owner_user_id, permissions: ['read_jobs', 'write_jobs'] },
      admin,
    )
  ).body.data.key;
  const services = (await call('GET', '/v1/catalog/services?limit=200')).body.data as { id: number }[];
  for (let i = 0; i < 12; i++) {
    const res = await call('POST', '/v1/estimate-templates', {
      name: `Counted template ${String(i).padStart(2, '0')}`,
      areas: [
        {
          name: 'Lot',
          services: [
            { service_id: services[i % services.length]!.id },
            { service_id: services[(i + 3) % services.length]!.id },
          ],
        },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
});
afterAll(async () => {
  await app.close();
  await fresh.drop();
});

async function queriesFor(url: string) {
  const before = queries;
  const res = await call('GET', url);
  expect(res.status).toBe(200);
  return { count: queries - before, rows: res.body.data as { areas: { services: { name: string }[] }[] }[] };
}

describe('GET /v1/estimate-templates', () => {
  it('asks the same number of queries for 2 templates as for 14', async () => {
    await queriesFor('/v1/estimate-templates?limit=1'); // the key is remembered from here on
    const small = await queriesFor('/v1/estimate-templates?limit=2');
    const large = await queriesFor('/v1/estimate-templates?limit=100');
    expect(small.rows).toHaveLength(2);
    expect(large.rows.length).toBeGreaterThanOrEqual(14);
    expect(large.count).toBe(small.count);
    // Page, count, and one read of the services.
    expect(large.count).toBeLessThanOrEqual(3);
    expect(large.rows.every((t) => t.areas.every((a) => a.services.every((s) => typeof s.name === 'string')))).toBe(
      true,
    );
  });
});
