// The load process of the busy day (forked by bench/day.ts; not run by hand): it seeds the
// workspaces' records through the server, runs the webhook receivers, and offers each phase's
// traffic when told, answering over the IPC channel:
//   prepare  → prepared   seed the day workspaces' pages, start the receivers, subscribe
//   grow     → grown      more workspaces (provisioned by bench/day.ts) subscribe and join the traffic
//   phase    → measuring (when the warm-up ends), then phase with the phase's figures
//   finish   → finished   the webhook deliveries each phase's events got; then it exits
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { Client } from './client.ts';
import type { Group, WorkspaceSize } from './mix.ts';
import { jobIdsOf, type ProvisionedWorkspace } from './provision.ts';
import { type GroupSummary, type KindSummary, quantile, Recorder } from './record.ts';
import { type Arrival, type ReceiverKind, startReceivers } from './receivers.ts';
import { seedPages, subscribe } from './seed.ts';
import type { Workspace } from './flows.ts';
import { rng } from '#engines/distress/synthetic-draw.ts';
import { offer, tour, type Traffic } from './traffic.ts';

export type ToLoad =
  | { type: 'prepare'; base: string; workspaces: ProvisionedWorkspace[]; size: WorkspaceSize; seed: number }
  | { type: 'grow'; workspaces: ProvisionedWorkspace[] }
  | { type: 'phase'; name: string; workspaces: number; warmupS: number; seconds: number; tour: boolean }
  | { type: 'finish'; settleS: number };

export interface PhaseResult {
  name: string;
  workspaces: number;
  seconds: number;
  /** Flows still unanswered when the phase's drain time ran out. */
  unfinished: number;
  kinds: KindSummary[];
  groups: Record<Group, GroupSummary>;
  /** How late this process started flows against their plan, p99 ms (its own saturation). */
  startLagP99: number;
  dropped: number;
  flowErrors: string[];
  /** The measured window, ms since the epoch (the webhook lag is taken over events written in it). */
  from: number;
  to: number;
  /** This process's CPU over the window, seconds. */
  loadCpuS: number;
}

export interface LagFigures {
  deliveries: number;
  p50: number;
  p99: number;
  max: number;
}

export interface PhaseWebhooks {
  name: string;
  /** Job and proposal events (created_at to the microsecond) per receiver that answers. */
  fast: LagFigures;
  slow: LagFigures;
  /** Business events (created_at to the second, so the lag is known to ±1 s) at the fast receiver. */
  business: LagFigures;
  /** Attempts the failing receiver answered with 500. */
  failingAttempts: number;
}

export type FromLoad =
  | { type: 'prepared'; seedS: number; proposals: number; invoices: number }
  | { type: 'grown' }
  | { type: 'measuring' }
  | { type: 'phase'; result: PhaseResult }
  | { type: 'finished'; webhooks: PhaseWebhooks[] };

const send = (m: FromLoad) => process.send!(m);
const GROUPS: Group[] = ['read', 'write', 'export', 'upload'];

/** A phone photo as a crew app sends it: 2000×1500, about 1 MB of JPEG (a scene with texture, not flat colour). */
async function phonePhoto(): Promise<Buffer> {
  const width = 2000;
  const height = 1500;
  const noise = await sharp({
    create: { width, height, channels: 3, background: '#6e6e6e', noise: { type: 'gaussian', mean: 110, sigma: 40 } },
  })
    .blur(1.2)
    .raw()
    .toBuffer();
  return sharp(noise, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 82 })
    .toBuffer();
}

function lagOf(arrivals: Arrival[]): LagFigures {
  // The first arrival of each event at a receiver (a retry that succeeded later is a second one).
  const first = new Map<string, number>();
  for (const a of arrivals) {
    const lag = a.arrivedAt - a.createdAt;
    const seen = first.get(a.eventId);
    if (seen === undefined || lag < seen) first.set(a.eventId, lag);
  }
  const lags = [...first.values()].sort((x, y) => x - y);
  return {
    deliveries: lags.length,
    p50: quantile(lags, 0.5),
    p99: quantile(lags, 0.99),
    max: lags.at(-1) ?? Number.NaN,
  };
}

const withJobs = (w: ProvisionedWorkspace): Workspace => ({
  ...w,
  jobIds: jobIdsOf(w),
});

async function main(): Promise<void> {
  let traffic: Traffic | null = null;
  let receivers: Awaited<ReturnType<typeof startReceivers>> | null = null;
  let dayWorkspaces = 0;
  const windows: { name: string; from: number; to: number }[] = [];
  process.on('message', (m: ToLoad) => {
    void handle(m).catch((err) => {
      console.error(err instanceof Error ? err.stack : err);
      process.exit(1);
    });
  });

  async function handle(m: ToLoad): Promise<void> {
    if (m.type === 'prepare') {
      const t0 = performance.now();
      const client = new Client(m.base);
      const pages = await seedPages(client, m.workspaces, m.size);
      receivers = await startReceivers();
      dayWorkspaces = m.workspaces.length;
      await subscribe(client, m.workspaces, receivers, dayWorkspaces);
      const tag = randomBytes(3).toString('hex');
      let n = 0;
      traffic = {
        client,
        workspaces: m.workspaces.map(withJobs),
        pages,
        photo: await phonePhoto(),
        // Seeded (mulberry32): runs differ only where timing changes the order of the draws.
        rand: rng(m.seed),
        serial: () => `${tag}-${++n}`,
        syncStates: new Map(),
      };
      send({
        type: 'prepared',
        seedS: (performance.now() - t0) / 1000,
        proposals: pages.reduce((a, p) => a + p.proposalPaths.length, 0),
        invoices: pages.reduce((a, p) => a + p.invoicePaths.length, 0),
      });
      return;
    }
    if (m.type === 'grow') {
      if (!traffic || !receivers) throw new Error('grow before prepare');
      await subscribe(traffic.client, m.workspaces, receivers, dayWorkspaces);
      traffic.workspaces.push(...m.workspaces.map(withJobs));
      send({ type: 'grown' });
      return;
    }
    if (m.type === 'phase') {
      if (!traffic) throw new Error('phase before prepare');
      // The warm-up's flows finish during the measured window, on a recorder of their own whose
      // failures (only) count. A smoke run's warm-up starts with every flow once.
      const warm = new Recorder();
      if (m.tour) await tour(traffic, m.workspaces, warm);
      await offer(traffic, m.workspaces, m.warmupS, warm, 0);
      send({ type: 'measuring' });
      const rec = new Recorder();
      const from = Date.now();
      const cpu0 = process.cpuUsage();
      const { seconds, unfinished } = await offer(traffic, m.workspaces, m.seconds, rec);
      const to = from + seconds * 1000;
      rec.takeErrors(warm);
      const cpu = process.cpuUsage(cpu0);
      windows.push({ name: m.name, from, to });
      const lag = [...rec.startLag].sort((a, b) => a - b);
      send({
        type: 'phase',
        result: {
          name: m.name,
          workspaces: m.workspaces,
          seconds,
          unfinished,
          kinds: rec.kinds(seconds),
          groups: Object.fromEntries(GROUPS.map((g) => [g, rec.group(g, seconds)])) as Record<Group, GroupSummary>,
          startLagP99: quantile(lag, 0.99),
          dropped: rec.dropped,
          flowErrors: rec.flowErrors.slice(0, 10),
          from,
          to,
          loadCpuS: (cpu.user + cpu.system) / 1e6,
        },
      });
      return;
    }
    // finish: give the worker time to deliver the last phase's events, then take every arrival.
    await new Promise((resolve) => setTimeout(resolve, m.settleS * 1000));
    const arrivals = receivers ? await receivers.take() : [];
    const of = (w: { from: number; to: number }, receiver: ReceiverKind, business: boolean) =>
      arrivals.filter(
        // Business events' created_at is cut to the second: one written in the window's first second reads earlier.
        (a) =>
          a.receiver === receiver &&
          a.business === business &&
          a.createdAt >= w.from - (business ? 1000 : 0) &&
          a.createdAt < w.to,
      );
    const webhooks = windows.map((w) => ({
      name: w.name,
      fast: lagOf(of(w, 'fast', false)),
      slow: lagOf(of(w, 'slow', false)),
      business: lagOf(of(w, 'fast', true)),
      failingAttempts: of(w, 'failing', false).length,
    }));
    send({ type: 'finished', webhooks });
    await receivers?.stop();
    await traffic?.client.close();
    process.disconnect?.();
  }
}

await main();
