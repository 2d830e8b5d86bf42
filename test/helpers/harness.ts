// Test harness: a real app over a real database. SQLite in memory by default; when DATABASE_URL
// names PostgreSQL, each app gets its own database there, a copy of the run's migrated template
// (postgres-template.ts), dropped afterwards, so files run in parallel without seeing each other.
import type { Imagery } from '#platform/imagery/imagery.ts';
import type { Segmentation } from '#platform/segmentation.ts';
import type { Vision } from '#platform/vision.ts';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '#src/app.ts';
import type { Area } from '#src/area.ts';
import { isPostgresUrl } from '#src/config.ts';
import { openDatabase, type Database } from '#db/database.ts';
import { migrateToLatest } from '#db/migrate.ts';
import { PERMISSIONS } from '#platform/permissions.ts';
import type { Geocoder } from '#platform/geocoding.ts';
import type { Storage } from '#platform/storage/storage.ts';
import type { Clock } from '#platform/clock.ts';
import type { Env } from '#platform/context.ts';
import type { MailTransport } from '#platform/mail/transport.ts';
import type { Payments } from '#platform/payments/processor.ts';
import { MailWorker } from '#platform/mail/worker.ts';
import { startEnv } from '#src/env.ts';
import { DEFAULT_TIMEOUTS, type TimeoutSettings } from '#platform/timeouts.ts';
import type { Answer, BodyOf, ResponseOf } from './api-types.ts';
import { whenUnused, withDatabase } from './postgres-admin.ts';

export const ADMIN_TOKEN = 'test-admin-token';
export const ALL_PERMISSIONS = [...PERMISSIONS];

export interface Reply<S = any> {
  status: number;
  /** The success shape of the call (see api-types.ts), with the error fields beside it. */
  body: Answer<S>;
  headers: Record<string, unknown>;
}

type Headers = Record<string, string>;

/** The same calls with no types: for bodies sent wrong on purpose (fuzz, walks, wrong types). */
export interface UntypedClient {
  get(path: string, headers?: Headers): Promise<Reply>;
  post(path: string, body?: unknown, headers?: Headers): Promise<Reply>;
  patch(path: string, body?: unknown, headers?: Headers): Promise<Reply>;
  put(path: string, body?: unknown, headers?: Headers): Promise<Reply>;
  delete(path: string, headers?: Headers): Promise<Reply>;
}

/**
 * Calls typed from the OpenAPI document (api-types.ts): the body a path and method take, and the
 * body they answer. `raw` and `request` send anything and answer untyped.
 */
export interface Client {
  get<P extends string>(path: P, headers?: Headers): Promise<Reply<ResponseOf<P, 'get'>>>;
  post<P extends string>(path: P, body?: BodyOf<P, 'post'>, headers?: Headers): Promise<Reply<ResponseOf<P, 'post'>>>;
  patch<P extends string>(
    path: P,
    body?: BodyOf<P, 'patch'>,
    headers?: Headers,
  ): Promise<Reply<ResponseOf<P, 'patch'>>>;
  put<P extends string>(path: P, body?: BodyOf<P, 'put'>, headers?: Headers): Promise<Reply<ResponseOf<P, 'put'>>>;
  delete<P extends string>(path: P, headers?: Headers): Promise<Reply<ResponseOf<P, 'delete'>>>;
  request(method: string, path: string, body?: unknown, headers?: Headers): Promise<Reply>;
  raw: UntypedClient;
}

export interface Workspace {
  firmId: number;
  ownerId: number;
  /** A full-permission key of the owner. */
  key: string;
  api: Client;
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  /** The app's data directory (a temporary one, removed on close). */
  dataDir: string;
  /** The process environment the app runs with (its deps: clock, mail, storage …), for worker tasks. */
  env: Env;
  /** The app's log lines, parsed (only when started with a logLevel). */
  logs: Record<string, any>[];
  /** Sends every queued message that is due by the env's clock, as the worker does; returns how many it tried. */
  sendQueuedMail(): Promise<number>;
  /** Calls with the admin bearer token. */
  admin: Client;
  /** Calls with no credentials. */
  anon: Client;
  /** A client sending `key` as X-API-Key. */
  as(key: string): Client;
  /** Provisions a workspace (Gold, active unless overridden) with its owner and an owner key. */
  workspace(body?: Record<string, unknown>): Promise<Workspace>;
  /** Adds a user and returns it with a key of the given permissions. */
  user(
    firmId: number,
    body: Record<string, unknown>,
    permissions?: string[],
  ): Promise<{ id: number; key: string; api: Client }>;
  key(firmId: number, userId: number, permissions?: string[]): Promise<string>;
  close(): Promise<void>;
}

function client(app: FastifyInstance, base: Record<string, string>): Client {
  const request = async (method: string, path: string, body?: unknown, headers: Headers = {}): Promise<Reply> => {
    const res = await app.inject({
      method: method as 'GET',
      url: path,
      headers: { ...base, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    let parsed: unknown = res.body;
    try {
      parsed = res.body === '' ? null : JSON.parse(res.body);
    } catch {
      /* not JSON */
    }
    return { status: res.statusCode, body: parsed as any, headers: res.headers as Record<string, unknown> };
  };
  const raw: UntypedClient = {
    get: (p, h) => request('GET', p, undefined, h),
    post: (p, b, h) => request('POST', p, b ?? {}, h),
    patch: (p, b, h) => request('PATCH', p, b ?? {}, h),
    put: (p, b, h) => request('PUT', p, b ?? {}, h),
    delete: (p, h) => request('DELETE', p, undefined, h),
  };
  // The typed calls are the untyped ones: the types are the document's, checked at compile time.
  return { ...(raw as Omit<Client, 'request' | 'raw'>), request, raw };
}

/**
 * Opens a fresh, migrated database: SQLite in memory, or on PostgreSQL a copy of the run's template
 * (a new schema, migrated here, when the run made none: a file run outside vitest.config.ts).
 */
export async function freshDatabase(): Promise<{
  database: Database;
  /** Where a second connection to it opens (with `schema: database.schema`); SQLite's is ':memory:', its own. */
  url: string;
  drop: () => Promise<void>;
}> {
  const url = process.env.DATABASE_URL;
  const template = url && isPostgresUrl(url) ? inject('postgresTemplate') : null;
  if (url && template) {
    const name = `t_${randomBytes(6).toString('hex')}`;
    await whenUnused(url, `create database ${name} template ${template}`);
    const database = openDatabase(withDatabase(url, name), { schema: 'public', poolSize: 20 });
    const drop = async () => {
      await database.close();
      await whenUnused(url, `drop database if exists ${name}`);
    };
    try {
      // What every start does; on the copy it finds every migration applied.
      await migrateToLatest(database);
    } catch (err) {
      await drop();
      throw err;
    }
    return { database, url: withDatabase(url, name), drop };
  }
  if (url && isPostgresUrl(url)) {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const database = openDatabase(url, { schema, poolSize: 20 });
    const drop = async () => {
      await database.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    };
    try {
      await migrateToLatest(database);
    } catch (err) {
      await drop();
      throw err;
    }
    return { database, url, drop };
  }
  const database = openDatabase(':memory:');
  await migrateToLatest(database);
  return { database, url: ':memory:', drop: () => database.close() };
}

export interface AppOptions {
  rateLimit?: { max: number; windowMs: number };
  /** The admin API's limit per address; generous unless a test asks, so provisioning is never throttled. */
  adminRateLimit?: { max: number; windowMs: number };
  adminToken?: string | null;
  allowPrivateNetwork?: boolean;
  geocoder?: Geocoder;
  /** Files and photos: the local adapter on the app's temporary data directory unless given. */
  storage?: Storage;
  /** The area list to install (a test may add a stand-in area for one that does not exist yet). */
  areas?: readonly Area[];
  /** Mail: the outbox on the app's temporary data directory unless given (a local SMTP server's transport). */
  mail?: MailTransport;
  /** The clock of worker tasks (a ManualClock walks schedules); the system clock unless given. */
  clock?: Clock;
  /** Online payments: the built-in test mode unless given (Stripe aimed at a local Stripe-protocol server). */
  payments?: Payments;
  /** GROUNDWORK_PUBLIC_URL: the origin links are made on (the request's own unless given). */
  publicUrl?: string;
  /** The request, headers, keep-alive and upload-idle timeouts (config.ts's defaults unless given). */
  timeouts?: Partial<TimeoutSettings>;
  /** Log at this level into TestApp.logs instead of not logging. */
  logLevel?: string;
  /** Aerial imagery: none unless given (tile servers on loopback, platform/imagery/select.ts). */
  imagery?: Imagery;
  /** The vision endpoint that replaces the built-in distress detector (a local server's); none unless given. */
  vision?: Vision;
  /** The segmentation endpoint that replaces the built-in paved-surface detector (a local server's); none unless given. */
  segmentation?: Segmentation;
  /** How long a resolved key is kept (platform/auth-cache.ts); the server's default (1 s) unless given. */
  authCacheMs?: number;
}

export async function startApp(options: AppOptions = {}): Promise<TestApp> {
  const { database, drop } = await freshDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-test-'));
  const env = startEnv(
    database,
    {
      dataDir,
      allowPrivateNetwork: options.allowPrivateNetwork ?? true,
      geocoder: options.geocoder,
      storage: options.storage,
      mail: options.mail,
      clock: options.clock,
      payments: options.payments,
      imagery: options.imagery,
      vision: options.vision ?? null,
      segmentation: options.segmentation ?? null,
    },
    options.areas,
  );
  const logs: Record<string, any>[] = [];
  const app = await buildApp(
    database,
    {
      env,
      adminToken: options.adminToken === undefined ? ADMIN_TOKEN : options.adminToken,
      rateLimit: options.rateLimit ?? { max: 1_000_000, windowMs: 1000 },
      adminRateLimit: options.adminRateLimit ?? { max: 1_000_000, windowMs: 1000 },
      logLevel: options.logLevel ?? false,
      logStream: { write: (line) => void logs.push(JSON.parse(line)) },
      publicUrl: options.publicUrl ?? null,
      timeouts: { ...DEFAULT_TIMEOUTS, ...options.timeouts },
      ...(options.authCacheMs === undefined ? {} : { authCacheMs: options.authCacheMs }),
      dataDir,
      // Test receivers listen on loopback.
      allowPrivateNetwork: options.allowPrivateNetwork ?? true,
      geocoder: options.geocoder,
      storageAdapter: options.storage,
    },
    options.areas,
  );
  await app.ready();
  const admin = client(app, { authorization: `Bearer ${ADMIN_TOKEN}` });
  const as = (key: string) => client(app, { 'x-api-key': key });
  let n = 0;

  const key = async (firmId: number, userId: number, permissions: string[] = ALL_PERMISSIONS) => {
    const res = await admin.post(`/admin/v1/workspaces/${firmId}/api-keys`, { user_id: userId, permissions });
    if (res.status !== 201) throw new Error(`key create failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.key as string;
  };

  return {
    app,
    database,
    dataDir,
    env,
    logs,
    sendQueuedMail: () => new MailWorker(database, env.deps.mail, { clock: env.deps.clock, leaseMs: 60_000 }).drain(),
    admin,
    anon: client(app, {}),
    as,
    key,
    async workspace(body = {}) {
      n++;
      const res = await admin.post('/admin/v1/workspaces', {
        name: `Workspace ${n}`,
        plan: 'gold',
        subscription_status: 'active',
        owner: { name: `Owner ${n}`, email: `owner${n}@example.com` },
        ...body,
      });
      if (res.status !== 201) throw new Error(`workspace create failed: ${res.status} ${JSON.stringify(res.body)}`);
      const { firm_id, owner_user_id } = res.body.data;
      const k = await key(firm_id, owner_user_id);
      return { firmId: firm_id, ownerId: owner_user_id, key: k, api: as(k) };
    },
    async user(firmId, body, permissions = ALL_PERMISSIONS) {
      n++;
      const res = await admin.post(`/admin/v1/workspaces/${firmId}/users`, {
        name: `User ${n}`,
        email: `user${n}@example.com`,
        ...body,
      });
      if (res.status !== 201) throw new Error(`user create failed: ${res.status} ${JSON.stringify(res.body)}`);
      const k = await key(firmId, res.body.data.id, permissions);
      return { id: res.body.data.id, key: k, api: as(k) };
    },
    async close() {
      await app.close();
      await env.deps.mail.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A contact row, for job-detail tests (contacts get their own endpoints in a later area). */
export async function insertContact(
  database: Database,
  firmId: number,
  fields: { name: string; email?: string; phone?: string; client_account_id?: number | null },
) {
  const t = '2026-01-01T00:00:00.000000';
  const row = await database.db
    .insertInto('contacts')
    .values({
      firm_id: firmId,
      name: fields.name,
      email: fields.email ?? null,
      phone: fields.phone ?? null,
      company: null,
      client_account_id: fields.client_account_id ?? null,
      archived_at: null,
      created_at: t,
      updated_at: t,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Events recorded for a job, oldest first (the feed endpoint arrives with the events area). */
export async function eventsOf(database: Database, jobId: number) {
  const rows = await database.db.selectFrom('events').selectAll().where('job_id', '=', jobId).orderBy('id').execute();
  return rows.map((r) => ({ ...r, data: JSON.parse(r.data) as Record<string, unknown> }));
}
