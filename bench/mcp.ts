// MCP against REST: the MCP tool call get_job (POST /v1/mcp, tools/call) against the REST call it
// runs, GET /v1/jobs/{id}, in the same run over real HTTP; tools/list and initialize as extra rows.
//
//   npm run bench:mcp                          SQLite file database in a temp dir
//   DATABASE_URL=postgres://… npm run bench:mcp    PostgreSQL (a fresh schema, dropped afterwards)
//   npm run bench:mcp -- --quick               one round of 2 s per row
//   npm run bench:mcp -- --smoke               seconds, for CI (bench/mode.ts)
//   npm run bench:mcp -- --connections=1       one call in flight instead of 10
//
// The app runs on this process's main thread; autocannon runs in a worker thread (bench/load.ts).
// Every scenario's answer is checked once before it is measured (200, and for the tool call a
// result that is not isError and carries the job), and every measured 2xx answer must have the
// checked answer's size, so the run cannot measure errors. Results are printed as markdown and
// written to bench/results/mcp-<engine>.md. See docs/performance.md, "MCP against REST".
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { buildApp } from '#src/app.ts';
import { isPostgresUrl } from '#src/config.ts';
import { actingAs } from '#platform/auth.ts';
import { catalogueOf, toolsetsOf } from '#integrations/mcp/catalogue.ts';
import type { OpenApiDocument } from '#integrations/mcp/operations.ts';
import { mcpServerFor } from '#integrations/mcp/server.ts';
import { dropOnInterrupt, openBenchDatabase } from './database.ts';
import { benchWorkspace } from './workspace.ts';
import { insertJobs } from './seed.ts';
import { fmt, listen, type LoadResult, type LoadSpec, loadNow, ms, revision, startLoadWorker } from './load.ts';
import { MODE_LABEL, QUICK, saveReport, sized } from './mode.ts';

const DURATION_S = sized(5, 2, 0.2);
const WARMUP_S = sized(1, 1, 0.1);
/** Before the first round, every scenario once, unmeasured. */
const WARMUP_PASS_S = sized(3, 1, 0.1);
const CONNECTIONS = Number(process.argv.find((a) => a.startsWith('--connections='))?.slice(14) ?? 10);
const JOBS = sized(1_000, 1_000, 100);
/** Rounds of every scenario; each round starts the rotation one scenario later. */
const ROUNDS = sized(2, 1, 1);
/** A measured 2xx answer may differ from the checked one by this many bytes (date, rate-limit headers). */
const SIZE_SLACK = 16;
/** The issue's target: an MCP tool call costs at most this many REST calls. */
const TARGET = 3;

const databaseUrl =
  process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;
const engine = databaseUrl ? 'postgres' : 'sqlite';

const REST = 'GET /v1/jobs/{id} (REST, baseline)';
const CALL = 'MCP tools/call get_job';
const LIST = 'MCP tools/list (default toolsets)';
const INIT = 'MCP initialize';

interface Scenario {
  name: string;
  spec: Omit<LoadSpec, 'duration'>;
  /** Checks one answer's body; throws when it is not the answer to measure. */
  check(body: string): string;
}

interface Row {
  scenario: string;
  round: number;
  r: LoadResult;
  /** The server thread's event-loop busy time per answered call, µs: the app's own cost. */
  serverUs: number;
}

interface JsonRpcAnswer {
  jsonrpc?: string;
  id?: number;
  result?: Record<string, unknown>;
  error?: unknown;
}

function rpc(method: string, params: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
}

function resultOf(body: string, what: string): Record<string, unknown> {
  const answer = JSON.parse(body) as JsonRpcAnswer;
  if (answer.error !== undefined || !answer.result) throw new Error(`${what}: JSON-RPC error ${body.slice(0, 500)}`);
  return answer.result;
}

/** µs per call, one call at a time: the median of five batches, so one collection or one noisy
 * moment on a shared machine does not decide the figure. */
async function timeIt(iterations: number, fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(100, iterations); i++) await fn();
  const batch = Math.ceil(iterations / 5);
  const means: number[] = [];
  for (let b = 0; b < 5; b++) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) await fn();
    means.push(((performance.now() - t0) * 1000) / batch);
  }
  return means.sort((x, y) => x - y)[2]!;
}

async function main(): Promise<void> {
  const started = Date.now();
  const log = (msg: string) => console.error(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${msg}`);
  const { database, describe, drop } = await openBenchDatabase({ url: databaseUrl, label: 'mcp' });
  dropOnInterrupt(drop);
  const load = startLoadWorker(CONNECTIONS);
  const apps: FastifyInstance[] = [];
  const rows: Row[] = [];
  const inProcess: { what: string; us: number }[] = [];
  const checked: { scenario: string; bytes: number; note: string }[] = [];
  const loadSamples: string[] = [`start: ${loadNow()}`];
  try {
    log(`engine: ${describe}`);
    const { firmId, ownerId, key } = await benchWorkspace(database);
    await insertJobs(database, firmId, ownerId, JOBS, { namePrefix: 'Bench job', customFields: '{}' });
    const readId = (
      await database.db
        .selectFrom('jobs')
        .select('id')
        .where('firm_id', '=', firmId)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow()
    ).id;

    // The app as `serve` builds it; the rate limiter on with a limit it never reaches.
    const app = await buildApp(database, {
      adminToken: null,
      rateLimit: { max: 1e9, windowMs: 1000 },
      logLevel: false,
    });
    apps.push(app);
    const api = await listen(app);

    const headers = { 'x-api-key': key };
    const mcpHeaders = {
      ...headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
    };
    const mcp = (body: string): Omit<LoadSpec, 'duration'> => ({
      url: `${api}/v1/mcp`,
      method: 'POST',
      headers: mcpHeaders,
      body,
    });

    const scenarios: Scenario[] = [
      {
        name: REST,
        spec: { url: `${api}/v1/jobs/${readId}`, method: 'GET', headers },
        check: (body) => {
          const id = (JSON.parse(body) as { data?: { id?: unknown } }).data?.id;
          if (id !== readId) throw new Error(`${REST}: data.id ${String(id)}, expected ${readId}`);
          return `job ${readId}`;
        },
      },
      {
        name: CALL,
        spec: mcp(rpc('tools/call', { name: 'get_job', arguments: { id: readId } })),
        check: (body) => {
          const result = resultOf(body, CALL) as {
            isError?: boolean;
            structuredContent?: { data?: { id?: unknown } };
          };
          if (result.isError) throw new Error(`${CALL}: isError ${body.slice(0, 500)}`);
          const id = result.structuredContent?.data?.id;
          if (id !== readId) throw new Error(`${CALL}: structuredContent.data.id ${String(id)}, expected ${readId}`);
          return `job ${readId}, not isError`;
        },
      },
      {
        name: LIST,
        spec: mcp(rpc('tools/list', {})),
        check: (body) => {
          const { tools } = resultOf(body, LIST) as { tools?: { name: string }[] };
          if (!tools?.some((tool) => tool.name === 'get_job')) throw new Error(`${LIST}: no get_job tool`);
          return `${tools.length} tools`;
        },
      },
      {
        name: INIT,
        spec: mcp(
          rpc('initialize', {
            protocolVersion: LATEST_PROTOCOL_VERSION,
            capabilities: {},
            clientInfo: { name: 'groundwork-bench', version: '1' },
          }),
        ),
        check: (body) => {
          const result = resultOf(body, INIT) as { protocolVersion?: string };
          if (!result.protocolVersion) throw new Error(`${INIT}: no protocolVersion`);
          return `protocol ${result.protocolVersion}`;
        },
      },
    ];

    // Each answer once over the same HTTP, before any load: the right status and the right answer.
    for (const s of scenarios) {
      const res = await fetch(s.spec.url, { method: s.spec.method, headers: s.spec.headers, body: s.spec.body });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${s.name}: HTTP ${res.status} ${body.slice(0, 500)}`);
      const note = s.check(body);
      checked.push({ scenario: s.name, bytes: Buffer.byteLength(body), note });
      log(`checked ${s.name}: 200, ${note}, body ${Buffer.byteLength(body)} bytes`);
    }

    const measure = async (s: Scenario, round: number) => {
      await load.run({ ...s.spec, duration: WARMUP_S });
      const before = performance.eventLoopUtilization();
      const r = await load.run({ ...s.spec, duration: DURATION_S });
      const serverUs = (performance.eventLoopUtilization(before).active * 1000) / Math.max(1, r.total);
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`${s.name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      if (r.maxBytes - r.minBytes > SIZE_SLACK)
        throw new Error(`${s.name}: answers of ${r.minBytes}–${r.maxBytes} bytes; an answer changed during the run`);
      rows.push({ scenario: s.name, round, r, serverUs });
      log(
        `  ${s.name.padEnd(36)} ${fmt(r.rps).padStart(7)} req/s  p50 ${ms(r.p50)} ms  p99 ${ms(r.p99)} ms  server ${fmt(serverUs)} µs/call  (load ${loadNow()})`,
      );
    };

    // The MCP path runs code the REST call never does (the SDK, zod); give the JIT one pass of
    // every scenario before any row is measured, so round 1 does not measure a cold path.
    log(`warm-up pass: every scenario for ${WARMUP_PASS_S} s`);
    for (const s of scenarios) await load.run({ ...s.spec, duration: WARMUP_PASS_S });
    for (let round = 1; round <= ROUNDS; round++) {
      log(`round ${round} of ${ROUNDS} (${CONNECTIONS} connections, ${DURATION_S} s each after ${WARMUP_S} s warm-up)`);
      loadSamples.push(`round ${round}: ${loadNow()}`);
      const shift = round - 1;
      for (let i = 0; i < scenarios.length; i++) await measure(scenarios[(i + shift) % scenarios.length]!, round);
    }
    // The same check after the load: the answers did not turn into errors on the way.
    for (const s of scenarios) {
      const res = await fetch(s.spec.url, { method: s.spec.method, headers: s.spec.headers, body: s.spec.body });
      if (res.status !== 200) throw new Error(`${s.name} after the run: HTTP ${res.status}`);
      s.check(await res.text());
    }

    // One request at a time in process (app.inject, no socket): what the tool call adds to the
    // route it runs, and what setting up the protocol for one request costs on its own.
    log('in-process timings');
    const iters = sized(2000, 500, 20);
    const injectOf = (s: Scenario) => () =>
      app.inject({
        method: s.spec.method,
        url: s.spec.url.slice(api.length),
        headers: s.spec.headers,
        payload: s.spec.body,
      });
    for (const s of scenarios) inProcess.push({ what: `app.inject: ${s.name}`, us: await timeIt(iters, injectOf(s)) });
    const catalogue = catalogueOf(app.swagger() as unknown as OpenApiDocument);
    const session = {
      catalogue,
      auth: await actingAs(database.db, firmId, ownerId),
      readOnly: false,
      toolsets: toolsetsOf(catalogue, undefined),
    };
    const caller = { key, remoteAddress: '127.0.0.1' };
    inProcess.push({
      what: 'per request: mcpServerFor, a stateless transport, connect and close (no message)',
      us: await timeIt(iters, async () => {
        const server = mcpServerFor(app, session, caller);
        const transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        await server.connect(transport);
        await server.close();
      }),
    });
    loadSamples.push(`end: ${loadNow()}`);

    const report = renderReport({
      describe,
      rows,
      inProcess,
      checked,
      loadSamples,
      seconds: (Date.now() - started) / 1000,
    });
    console.log(report);
    const file = `mcp-${engine}${QUICK ? '-quick' : ''}.md`;
    if (saveReport(file, report)) log(`written to bench/results/${file}`);
  } finally {
    for (const a of apps) await a.close();
    await load.stop();
    await drop();
  }
}

function renderReport(o: {
  describe: string;
  rows: Row[];
  inProcess: { what: string; us: number }[];
  checked: { scenario: string; bytes: number; note: string }[];
  loadSamples: string[];
  seconds: number;
}): string {
  const row = (scenario: string, round: number) => o.rows.find((r) => r.scenario === scenario && r.round === round);
  const ratio = (a: number | undefined, b: number | undefined) =>
    a !== undefined && b !== undefined && b > 0 ? (a / b).toFixed(2) : 'n/a';
  const lines: string[] = [];
  lines.push(`# MCP against REST — ${engine}${MODE_LABEL}`, '');
  lines.push(
    `- ${new Date().toISOString()}, Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}`,
  );
  lines.push(`- ${o.describe}`);
  lines.push(`- source: ${revision()}; MCP protocol version ${LATEST_PROTOCOL_VERSION}`);
  lines.push(`- one workspace, ${fmt(JOBS)} jobs; every call reads the same job with an owner key`);
  lines.push(
    `- autocannon: ${CONNECTIONS} connections, ${DURATION_S} s per row after a ${WARMUP_S} s warm-up, ${ROUNDS} round(s) in rotated order after a ${WARMUP_PASS_S} s warm-up pass of every scenario; load generator in a worker thread of the same process`,
  );
  lines.push(`- load average (1/5/15 min): ${o.loadSamples.join('; ')}`);
  lines.push(`- run took ${o.seconds.toFixed(0)} s`, '');
  lines.push('Checked once before and once after the load (HTTP 200 and the answer):', '');
  lines.push('| Scenario | Body bytes | Check |', '|---|---:|---|');
  for (const c of o.checked) lines.push(`| ${c.scenario} | ${fmt(c.bytes)} | ${c.note} |`);
  lines.push(
    '',
    '| Scenario | Round | req/s | p50 ms | p90 ms | p99 ms | server µs per call | non-2xx | response bytes |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const { scenario, round, r, serverUs } of o.rows) {
    const bytes = r.minBytes === r.maxBytes ? fmt(r.minBytes) : `${fmt(r.minBytes)}–${fmt(r.maxBytes)}`;
    lines.push(
      `| ${scenario} | ${round} | ${fmt(r.rps)} | ${ms(r.p50)} | ${ms(r.p90)} | ${ms(r.p99)} | ${fmt(serverUs)} | ${r.non2xx + r.errors} | ${bytes} |`,
    );
  }
  lines.push(
    '',
    'server µs per call: the server thread’s event-loop busy time during the row ÷ calls answered (the load generator runs on another thread).',
  );
  lines.push(
    '',
    '| Ratio to the REST call (same round) | Round | p50 | p99 | cost: REST req/s ÷ req/s | server µs per call | Target |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---|');
  for (let round = 1; round <= ROUNDS; round++) {
    const rest = row(REST, round);
    for (const scenario of [CALL, LIST, INIT]) {
      const x = row(scenario, round);
      lines.push(
        `| ${scenario} | ${round} | ${ratio(x?.r.p50, rest?.r.p50)} | ${ratio(x?.r.p99, rest?.r.p99)} | ${ratio(rest?.r.rps, x?.r.rps)} | ${ratio(x?.serverUs, rest?.serverUs)} | ${scenario === CALL ? `≤ ${TARGET}` : '—'} |`,
      );
    }
  }
  lines.push('', 'One request at a time, in process (no socket, no concurrency):', '');
  lines.push('| What | µs per call | ÷ REST |', '|---|---:|---:|');
  const restUs = o.inProcess[0]?.us;
  for (const q of o.inProcess) lines.push(`| ${q.what} | ${fmt(q.us)} | ${ratio(q.us, restUs)} |`);
  lines.push('');
  return lines.join('\n');
}

await main();
// pg's pool and the worker are closed in main; exit explicitly in case a handle lingers.
process.exit(0);
