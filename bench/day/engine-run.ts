// One engine's busy day, start to end: its database, the workspaces provisioned, the server started
// as `npm start` starts it, the load process seeding and subscribing, the day itself, then the
// sizing steps (more workspaces each, until reads' p99 passes the target), and what the server,
// its log and its database say afterwards. Everything it made is removed at the end.
import os from 'node:os';
import { sql } from 'kysely';
import { log } from '../rounds.ts';
import { dayDatabase } from './database.ts';
import type { PhaseResult, PhaseWebhooks } from './load.ts';
import { LoadProcess } from './load-process.ts';
import { READ_P99_TARGET_MS, TYPICAL, WORKSPACES } from './mix.ts';
import { type ProvisionedWorkspace, provisionWorkspaces } from './provision.ts';
import { fmt, ms } from './report.ts';
import { serverLogProblems, startServer } from './server.ts';

export interface Plan {
  dayS: number;
  warmupS: number;
  stepS: number;
  /** Sizing steps at most (the day counts as the first). */
  maxSteps: number;
  /** Run the count found once more; it stands only if it passes again. */
  confirm: boolean;
  /** The search stops when the largest passing and the smallest failing count are this close (ratio). */
  resolution: number;
  /** Start the day with every flow once per workspace (a smoke run, whose day is too short for the rare ones). */
  tour: boolean;
  /** How often the server's RSS and CPU are read, ms. */
  sampleMs: number;
  /** Seconds the worker is given after the last phase to deliver its events. */
  settleS: number;
}

export interface ServerFigures {
  /** Cores the server process used over the measured window (its CPU seconds over wall seconds). */
  cores: number;
  rssMin: number;
  rssMax: number;
  rssEnd: number;
}

export interface StepResult {
  phase: PhaseResult;
  server: ServerFigures;
  /** The machine's 1-minute load average at the step's end (other work on the machine shows here). */
  load: string;
  passed: boolean;
  why: string;
}

export interface EngineResult {
  engine: 'sqlite' | 'postgres';
  describe: string;
  provisionS: number;
  seedS: number;
  /** Workspaces provisioned in all (the sizing steps add some); the day's proposals and online invoices. */
  records: { workspaces: number; proposals: number; invoices: number };
  steps: StepResult[];
  /** RSS through the run: seconds since the server started, bytes, and the phase then. */
  rssSeries: { s: number; rss: number; phase: string }[];
  rssAtStart: number;
  /** SQLite: when the server was restarted to add workspaces, its RSS just after, and the step it was for. */
  restarts: { s: number; rss: number; before: number }[];
  webhooks: PhaseWebhooks[];
  /** Deliveries in the database at the end, per receiver and status. */
  deliveries: { receiver: string; status: string; n: number }[];
  log: { fiveXx: number; errors: number; samples: string[] };
  loadBefore: string;
  loadAfter: string;
  /** The largest workspace count whose reads' p99 stayed under the target; and the smallest that did not. */
  carried: number | null;
  failedAt: number | null;
}

const loadAvg = () => os.loadavg()[0]!.toFixed(2);

/** Whether a step's reads kept their p99 under the target with nothing failing and nothing left behind. */
function verdict(p: PhaseResult): { passed: boolean; why: string } {
  const errors = p.kinds.reduce((a, k) => a + k.errors, 0) + p.flowErrors.length;
  const why: string[] = [];
  if (p.groups.read.p99 >= READ_P99_TARGET_MS) why.push(`read p99 ${fmt(p.groups.read.p99)} ms`);
  if (errors > 0) why.push(`${errors} errors`);
  if (p.dropped > 0) why.push(`${p.dropped} arrivals dropped`);
  if (p.unfinished > 0) why.push(`${p.unfinished} flows unfinished`);
  return { passed: why.length === 0, why: why.join(', ') || 'met' };
}

export async function runEngine(
  engine: 'sqlite' | 'postgres',
  pgUrl: string | null,
  plan: Plan,
  cleanups: Set<() => Promise<void>>,
): Promise<EngineResult> {
  const loadBefore = loadAvg();
  const db = await dayDatabase(engine, pgUrl);
  cleanups.add(db.drop);
  log(`${engine}: ${db.describe}`);
  // Kept open through the run: the sizing steps add workspaces with it between phases.
  const direct = await db.open();
  const closeDirect = () => direct.close();
  cleanups.add(closeDirect);
  let provisionS = 0;
  const provisioned: ProvisionedWorkspace[] = [];
  const provision = async (upTo: number) => {
    const t0 = Date.now();
    const made = await provisionWorkspaces(direct, provisioned.length, upTo - provisioned.length, TYPICAL);
    provisioned.push(...made);
    provisionS += (Date.now() - t0) / 1000;
    log(
      `${engine}: ${made.length} workspaces provisioned in ${((Date.now() - t0) / 1000).toFixed(0)} s (${upTo} in all)`,
    );
    return made;
  };
  await provision(WORKSPACES);

  let server = await startServer({ databaseUrl: db.url, dataDir: db.dir });
  const stopServer = () => server.stop();
  cleanups.add(stopServer);
  const startedAt = Date.now();
  const rssAtStart = server.rss() ?? 0;
  const load = new LoadProcess();
  const killLoad = async () => load.kill();
  cleanups.add(killLoad);
  try {
    const prepared = await load.prepare(server.base, provisioned, TYPICAL, engine === 'sqlite' ? 1 : 2);
    log(
      `${engine}: seeded through the API in ${prepared.seedS.toFixed(0)} s (${prepared.proposals} proposals sent, ${prepared.invoices} online invoices); subscriptions made`,
    );

    let phaseName = 'seeded';
    const rssSeries: EngineResult['rssSeries'] = [];
    const sampler = setInterval(() => {
      const rss = server.rss();
      if (rss !== null) rssSeries.push({ s: (Date.now() - startedAt) / 1000, rss, phase: phaseName });
    }, plan.sampleMs);

    const steps: StepResult[] = [];
    const restarts: EngineResult['restarts'] = [];
    const step = async (name: string, workspaces: number, seconds: number) => {
      if (workspaces > provisioned.length) {
        phaseName = 'provisioning';
        // SQLite takes one writer at a time, and the running server is it (its worker writes even
        // between phases): the server stops while workspaces are added and starts again, on the
        // same port. PostgreSQL takes them while it runs.
        if (engine === 'sqlite') await server.stop();
        const made = await provision(workspaces);
        if (engine === 'sqlite') {
          server = await startServer({ databaseUrl: db.url, dataDir: db.dir, port: server.port });
          restarts.push({ s: (Date.now() - startedAt) / 1000, rss: server.rss() ?? 0, before: workspaces });
        }
        await load.grow(made);
      }
      let cpu0 = 0;
      let w0 = 0;
      let from = 0;
      phaseName = `${name} (warm-up)`;
      const phase = await load.phase(
        { name, workspaces, warmupS: plan.warmupS, seconds, tour: plan.tour && name === 'day' },
        () => {
          cpu0 = server.cpuSeconds() ?? 0;
          w0 = Date.now();
          from = rssSeries.length;
          phaseName = name;
        },
      );
      const cores = ((server.cpuSeconds() ?? 0) - cpu0) / ((Date.now() - w0) / 1000);
      const rss = rssSeries.slice(from).map((r) => r.rss);
      if (rss.length === 0) rss.push(server.rss() ?? 0);
      const result: StepResult = {
        phase,
        server: { cores, rssMin: Math.min(...rss), rssMax: Math.max(...rss), rssEnd: server.rss() ?? 0 },
        load: loadAvg(),
        ...verdict(phase),
      };
      steps.push(result);
      log(
        `${engine}: ${name}, ${workspaces} workspaces: ${fmt(phase.groups.read.perSecond)} reads/s p50 ${ms(phase.groups.read.p50)} ms p99 ${ms(phase.groups.read.p99)} ms; ` +
          `server ${fmt(cores, 2)} cores, RSS ${fmt(result.server.rssMax / 2 ** 20)} MiB; ${result.why} (load ${loadAvg()})`,
      );
      return result.passed;
    };

    // The day: the typical workspaces' traffic for the planned time.
    let lo: number | null = null;
    let hi: number | null = null;
    if (await step('day', WORKSPACES, plan.dayS)) lo = WORKSPACES;
    else hi = WORKSPACES;
    // Then sizing: grow (four times while the server is far from busy, else twice) or halve until one
    // passes and one fails, then split the gap.
    for (let n = 1; n < plan.maxSteps; n++) {
      let next: number;
      const last = steps.at(-1)!;
      const idle = last.phase.groups.read.p99 < READ_P99_TARGET_MS / 2 && last.server.cores < 0.5;
      if (hi === null) next = lo! * (idle ? 4 : 2);
      else if (lo === null) next = Math.max(1, Math.floor(hi / 2));
      else if (hi / lo > plan.resolution) next = Math.round(Math.sqrt(lo * hi));
      else break;
      if (next === lo || next === hi) break;
      if (await step('sizing', next, plan.stepS)) lo = next;
      else hi = next;
    }
    // The machine is shared and a step lasts under a minute: the count found runs once more, and
    // stands only if it passes again (else the next smaller count that passed is the figure).
    if (plan.confirm && lo !== null && !(await step('again', lo, plan.stepS))) {
      hi = lo;
      const below = steps.filter((s) => s.passed && s.phase.workspaces < hi!).map((s) => s.phase.workspaces);
      lo = below.length > 0 ? Math.max(...below) : null;
    }
    phaseName = 'settling';
    const webhooks = await load.finish(plan.settleS);
    clearInterval(sampler);
    cleanups.delete(killLoad);
    await server.stop();
    cleanups.delete(stopServer);

    // What the database says of the deliveries (the server is stopped, so nothing moves).
    const rows = await direct.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_subscriptions as s', 's.id', 'd.subscription_id')
      .select(['s.target_url', 'd.status', sql<number>`count(*)`.as('n')])
      .groupBy(['s.target_url', 'd.status'])
      .execute();
    const byKind = new Map<string, number>();
    for (const r of rows) {
      const kind = /\/hooks\/(\w+)/.exec(r.target_url)?.[1] ?? 'other';
      const receiver = r.target_url.includes('events=business') ? `${kind} (business events)` : kind;
      const k = `${receiver}|${r.status}`;
      byKind.set(k, (byKind.get(k) ?? 0) + Number(r.n));
    }
    const deliveries = [...byKind].map(([k, n]) => {
      const [receiver, status] = k.split('|') as [string, string];
      return { receiver, status, n };
    });
    const problems = await serverLogProblems(server.logFile);
    return {
      engine,
      describe: db.describe,
      provisionS,
      seedS: prepared.seedS,
      records: { workspaces: provisioned.length, proposals: prepared.proposals, invoices: prepared.invoices },
      steps,
      rssSeries,
      rssAtStart,
      restarts,
      webhooks,
      deliveries,
      log: problems,
      loadBefore,
      loadAfter: loadAvg(),
      carried: lo,
      failedAt: hi,
    };
  } finally {
    await direct.close();
    cleanups.delete(closeDirect);
    load.kill();
    cleanups.delete(killLoad);
    if (cleanups.has(stopServer)) {
      await server.stop();
      cleanups.delete(stopServer);
    }
    await db.drop();
    cleanups.delete(db.drop);
  }
}
