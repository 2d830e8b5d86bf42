// Open-loop traffic: flows arrive as a Poisson process at the mix's rates times the number of
// workspaces, whether or not earlier calls have been answered, as real callers do (a closed loop of
// virtual users would slow down with the server and hide its queueing). Each arrival picks one of
// the first `workspaces` workspaces at random; each keeps a sync client (watermarks) of its own.
import { performance } from 'node:perf_hooks';
import { FLOWS, type FlowContext, type SyncState, type Workspace } from './flows.ts';
import type { Client } from './client.ts';
import { type FlowName, MIX } from './mix.ts';
import type { Recorder } from './record.ts';
import type { Pages } from './seed.ts';

/** Flows in flight beyond which new arrivals are dropped and counted: the server has fallen far behind. */
const MAX_IN_FLIGHT = 2_000;

export interface Traffic {
  client: Client;
  /** Every workspace provisioned so far, by index. */
  workspaces: Workspace[];
  /** The day workspaces' customer pages; workspace v's customers open those of v mod their number. */
  pages: Pages[];
  photo: Buffer;
  rand: () => number;
  serial: () => string;
  /** Per workspace (by index); made on first use, with watermarks at that moment. */
  syncStates: Map<number, SyncState>;
}

/** Flow `flow` of workspace `v`, due at `due`; a flow that throws is noted on the recorder. */
function run(t: Traffic, flow: FlowName, v: number, rec: Recorder, due: number): Promise<unknown> {
  const w = t.workspaces[v]!;
  let sync = t.syncStates.get(v);
  if (!sync) {
    const now = new Date().toISOString();
    sync = { lists: { jobs: now, estimates: now, invoices: now }, exports: {} };
    t.syncStates.set(v, sync);
  }
  const ctx: FlowContext = {
    client: t.client,
    rec,
    w,
    pages: t.pages[v % t.pages.length]!,
    sync,
    due,
    rand: t.rand,
    photo: t.photo,
    serial: t.serial,
  };
  return FLOWS[flow](ctx).catch((err) => rec.flowErrors.push(`${flow}: ${String(err)}`));
}

/** Every flow once for each of the first `workspaces`, all at once: a smoke run's proof that each still works. */
export async function tour(t: Traffic, workspaces: number, rec: Recorder): Promise<void> {
  const now = performance.now();
  await Promise.all(
    t.workspaces.slice(0, workspaces).flatMap((w) => MIX.map((m) => run(t, m.flow, w.index, rec, now))),
  );
}

/**
 * Offers `workspaces` workspaces' traffic for `seconds`, recording on `rec`, then waits (up to
 * `drainS`) for the flows still in flight. Answers the seconds it offered traffic for.
 */
export async function offer(t: Traffic, workspaces: number, seconds: number, rec: Recorder, drainS = 30) {
  if (workspaces > t.workspaces.length)
    throw new Error(`${workspaces} workspaces offered, ${t.workspaces.length} made`);
  const rates = MIX.map((m) => (m.perMinute * workspaces) / 60);
  const total = rates.reduce((a, b) => a + b, 0);
  const inFlight = new Set<Promise<unknown>>();
  const start = performance.now();
  const end = start + seconds * 1000;
  let due = start;
  const nextGap = () => (-Math.log(1 - t.rand()) / total) * 1000;
  due += nextGap();
  const fire = (at: number) => {
    rec.startLag.push(performance.now() - at);
    if (inFlight.size >= MAX_IN_FLIGHT) {
      rec.dropped++;
      return;
    }
    let r = t.rand() * total;
    let i = 0;
    while (i < rates.length - 1 && r >= rates[i]!) r -= rates[i++]!;
    const flow = MIX[i]!.flow;
    const p = run(t, flow, Math.floor(t.rand() * workspaces), rec, at);
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  while (due < end) {
    const now = performance.now();
    while (due <= now && due < end) {
      fire(due);
      due += nextGap();
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(due, end) - performance.now())));
  }
  const offered = (performance.now() - start) / 1000;
  const drainUntil = performance.now() + drainS * 1000;
  while (inFlight.size > 0 && performance.now() < drainUntil)
    await Promise.race([...inFlight, new Promise((resolve) => setTimeout(resolve, 100))]);
  return { seconds: offered, unfinished: inFlight.size };
}
