// Crash safety of bulk export: a client that goes away mid-stream stops the export's queries and
// leaves the server healthy; a server killed in the middle of building a workspace_data file
// never serves the half-written file, and the next worker builds it again from scratch.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { insertJobs } from '../../../bench/seed.ts';
import { isPostgresUrl } from '#src/config.ts';
import { openDatabase, type Database } from '#db/database.ts';
import { migrateToLatest } from '#db/migrate.ts';
import { createWorkspace } from '#admin/workspaces.ts';
import { createApiKey } from '#admin/keys.ts';
import { jobsDataset } from '#crm/jobs/export.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { jsonLines, unzip } from '#test/helpers/downloads.ts';
import { REPO_ROOT } from '#test/helpers/paths.ts';
import { EXPORT_DATASETS } from '#test/helpers/datasets.ts';

const root = REPO_ROOT;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe('a client that goes away mid-stream', () => {
  let t: TestApp;
  let base: string;
  let key: string;
  const JOBS = 40_000;

  beforeAll(async () => {
    t = await startApp();
    const w = await t.workspace();
    key = w.key;
    await insertJobs(t.database, w.firmId, w.ownerId, JOBS);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address() as net.AddressInfo;
    base = `http://127.0.0.1:${address.port}`;
  }, 120_000);
  afterAll(() => t.close());

  /** Starts a GET and destroys the connection as soon as the first bytes arrive. */
  function abortAfterFirstChunk(url: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = http.get(url, { headers: { 'x-api-key': key } }, (res) => {
        res.once('data', (chunk: Buffer) => {
          req.destroy();
          resolve(chunk.length);
        });
      });
      req.on('error', (err) => {
        if (!req.destroyed) reject(err);
      });
    });
  }

  function fetchAll(url: string): Promise<{ status: number; body: Buffer }> {
    return new Promise((resolve, reject) => {
      http
        .get(url, { headers: { 'x-api-key': key } }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (b: Buffer) => parts.push(b));
          res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(parts) }));
          res.on('error', reject);
        })
        .on('error', reject);
    });
  }

  for (const suffix of ['.jsonl', '.jsonl.gz']) {
    it(`stops reading batches once the client is gone (${suffix})`, async () => {
      const reads = vi.spyOn(jobsDataset, 'readBatch');
      try {
        const first = await abortAfterFirstChunk(`${base}/v1/exports/jobs${suffix}`);
        expect(first).toBeGreaterThan(0);
        // Let the server notice the closed socket and finish the batch in flight.
        await sleep(500);
        const afterAbort = reads.mock.calls.length;
        await sleep(500);
        expect(reads.mock.calls.length).toBe(afterAbort);
        // 40 batches make the whole dataset; only what the socket buffers could take was read.
        expect(afterAbort).toBeGreaterThan(0);
        expect(afterAbort).toBeLessThan(JOBS / 1000 / 2);
      } finally {
        reads.mockRestore();
      }
    });
  }

  it('leaves the server healthy: the next full export is complete', async () => {
    for (let i = 0; i < 3; i++) await abortAfterFirstChunk(`${base}/v1/exports/jobs.jsonl`);
    const health = await fetchAll(`${base}/v1/health`);
    expect(health.status).toBe(200);
    const full = await fetchAll(`${base}/v1/exports/jobs.jsonl`);
    expect(full.status).toBe(200);
    const rows = jsonLines(full.body);
    expect(rows.length).toBe(JOBS);
    expect(rows[JOBS - 1].id).toBeGreaterThan(rows[0].id);
  }, 60_000);
});

/** A database the test and a server process can both open: a SQLite file, or a PostgreSQL schema. */
async function sharedDatabase(): Promise<{ database: Database; url: string; drop: () => Promise<void> }> {
  const env = process.env.DATABASE_URL;
  if (env && isPostgresUrl(env)) {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: env });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const database = openDatabase(env, { schema });
    const url = new URL(env);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return {
      database,
      url: url.toString(),
      drop: async () => {
        await database.close();
        const c = new pg.Client({ connectionString: env });
        await c.connect();
        await c.query(`drop schema if exists ${schema} cascade`);
        await c.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-crash-db-'));
  const file = path.join(dir, 'crash.sqlite');
  const database = openDatabase(file);
  return {
    database,
    url: file,
    drop: async () => {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

describe('a server killed while building a workspace_data file', () => {
  it('never serves the half-written file; the next server builds it again', async () => {
    const { database, url, drop } = await sharedDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-crash-data-'));
    const children: ChildProcess[] = [];
    let output = '';
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const startServer = () => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
        cwd: root,
        env: {
          ...process.env,
          DATABASE_URL: url,
          PORT: String(port),
          HOST: '127.0.0.1',
          GROUNDWORK_DEMO: 'false',
          GROUNDWORK_DATA_DIR: dataDir,
          GROUNDWORK_WORKER_POLL_MS: '20',
          GROUNDWORK_WORKER_LEASE_MS: '1500',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (b) => {
        output += b;
      });
      child.stderr!.on('data', (b) => {
        output += b;
      });
      children.push(child);
      return child;
    };
    const listening = () =>
      until(
        'the server to listen',
        () =>
          fetch(`${base}/v1/health`).then(
            (r) => r.ok,
            () => false,
          ),
        60_000,
      );
    const exportsDir = path.join(dataDir, 'exports');
    const filesOf = (id: number) =>
      (fs.existsSync(exportsDir) ? fs.readdirSync(exportsDir) : []).filter((n) => n.startsWith(`${id}-`));
    try {
      await migrateToLatest(database);
      const { firm_id, owner_user_id } = await createWorkspace(database, {
        name: 'Crash Paving',
        plan: 'gold',
        subscription_status: 'active',
        owner: { name: 'Owner', email: 'owner@crash.test' },
      });
      const { key } = await createApiKey(database, firm_id, { user_id: owner_user_id, permissions: ['read_jobs'] });
      const JOBS = 30_000;
      await insertJobs(database, firm_id, owner_user_id, JOBS);
      const headers = { 'x-api-key': key, 'content-type': 'application/json' };

      const first = startServer();
      await listening();
      const created = await fetch(`${base}/v1/exports`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ kind: 'workspace_data' }),
      });
      expect(created.status).toBe(202);
      const file = ((await created.json()) as { data: { id: number; url: string } }).data;

      // Kill the server (SIGKILL: no shutdown hooks) once the build has written part of its file.
      const partial = await until('a partial file', async () => {
        const name = filesOf(file.id).find((n) => n.endsWith('.zip.partial'));
        return name && fs.statSync(path.join(exportsDir, name)).size > 64 * 1024 ? name : undefined;
      });
      first.kill('SIGKILL');
      await new Promise((r) => first.once('exit', r));

      // What the crash left: a pending export and a half-written file that nothing points at.
      const row = await database.db
        .selectFrom('export_files')
        .selectAll()
        .where('id', '=', file.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'pending', attempts: 1, file_name: null });
      expect(filesOf(file.id)).toEqual([partial]);

      startServer();
      await listening();
      const pending = (await (await fetch(`${base}${file.url}`, { headers })).json()) as {
        data: { status: string; download_url: string | null };
      };
      expect(pending.data.download_url).toBeNull();

      const ready = await until(
        'the rebuilt export',
        async () => {
          const poll = (await (await fetch(`${base}${file.url}`, { headers })).json()) as {
            data: { status: string; download_url: string; row_counts: Record<string, number> };
          };
          expect(poll.data.status).not.toBe('failed');
          return poll.data.status === 'ready' ? poll.data : undefined;
        },
        60_000,
      );
      expect(ready.row_counts.jobs).toBe(JOBS);

      // The half-written file is gone (removed just after the export is marked ready); the one
      // file left is complete and is the one served.
      const left = await until(
        'the leftovers to be removed',
        async () => {
          const names = filesOf(file.id);
          return names.length === 1 ? names : undefined;
        },
        5000,
      );
      expect(left).toEqual([expect.stringMatching(/\.zip$/)]);
      expect(left[0]).not.toBe(partial.replace(/\.partial$/, ''));
      const download = await fetch(ready.download_url);
      expect(download.status).toBe(200);
      const entries = await unzip(Buffer.from(await download.arrayBuffer()));
      expect([...entries.keys()]).toEqual(EXPORT_DATASETS.map((d) => `${d}.jsonl`));
      const jobs = jsonLines(entries.get('jobs.jsonl')!);
      expect(jobs.length).toBe(JOBS);
      const after = await database.db
        .selectFrom('export_files')
        .select('attempts')
        .where('id', '=', file.id)
        .executeTakeFirstOrThrow();
      expect(after.attempts).toBe(2);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- server output ---\n${output}`, { cause: err });
    } finally {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
