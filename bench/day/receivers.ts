// The integrations' webhook receivers, in a worker thread of the load process so that the time a
// delivery arrives is taken on an event loop the load's own calls do not hold up. Four kinds:
//   fast     answers 200 at once (most integrations)
//   slow     answers 200 after SLOW_MS (an integration doing its work before it answers)
//   failing  answers 500 (a broken integration: the worker retries on its schedule)
//   down     a port nothing listens on (connection refused)
// Every delivery that arrives is noted with the time its event was written (the payload's
// created_at) and the time it arrived, so the load process can take the delivery lag.
import { Worker } from 'node:worker_threads';

export type ReceiverKind = 'fast' | 'slow' | 'failing' | 'down';

/** How long the slow receiver takes to answer (well within the 8 s a delivery is given). */
export const SLOW_MS = 2_000;

export interface Arrival {
  receiver: ReceiverKind;
  /** A business event (created_at to the second) or a job or proposal event (to the microsecond). */
  business: boolean;
  eventType: string;
  eventId: string;
  /** When the event was written and when the delivery arrived, ms since the epoch. */
  createdAt: number;
  arrivedAt: number;
}

const SOURCE = `
const http = require('node:http');
const net = require('node:net');
const { parentPort, workerData } = require('node:worker_threads');
const arrivals = [];
const clock = () => performance.timeOrigin + performance.now();
function receiver(kind) {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const arrivedAt = clock();
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString());
        arrivals.push({
          receiver: kind, business: 'api_version' in body, eventType: body.event_type, eventId: body.event_id,
          createdAt: Date.parse(body.created_at), arrivedAt,
        });
      } catch {}
      const answer = () => { res.writeHead(kind === 'failing' ? 500 : 200, { 'content-type': 'text/plain' }); res.end(kind === 'failing' ? 'broken' : 'ok'); };
      if (kind === 'slow') setTimeout(answer, workerData.slowMs); else answer();
    });
  });
  server.keepAliveTimeout = 60000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}
(async () => {
  const ports = { fast: await receiver('fast'), slow: await receiver('slow'), failing: await receiver('failing') };
  // A port that was free a moment ago and that nothing listens on now: the receiver that is down.
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  ports.down = probe.address().port;
  await new Promise((resolve) => probe.close(resolve));
  parentPort.postMessage({ ports });
})();
parentPort.on('message', () => parentPort.postMessage({ arrivals: arrivals.splice(0) }));
`;

export interface Receivers {
  url(kind: ReceiverKind, workspace: number, business?: boolean): string;
  /** The arrivals since the last take. */
  take(): Promise<Arrival[]>;
  stop(): Promise<number>;
}

export async function startReceivers(): Promise<Receivers> {
  const worker = new Worker(SOURCE, { eval: true, workerData: { slowMs: SLOW_MS }, execArgv: [] });
  const ports = await new Promise<Record<ReceiverKind, number>>((resolve, reject) => {
    worker.once('message', (m: { ports: Record<ReceiverKind, number> }) => resolve(m.ports));
    worker.once('error', reject);
  });
  return {
    url: (kind, workspace, business = false) =>
      `http://127.0.0.1:${ports[kind]}/hooks/${kind}?workspace=${workspace}${business ? '&events=business' : ''}`,
    take: () =>
      new Promise((resolve) => {
        worker.once('message', (m: { arrivals: Arrival[] }) => resolve(m.arrivals));
        worker.postMessage('take');
      }),
    stop: () => worker.terminate(),
  };
}

/** Which receivers a workspace's integrations run: every one a fast one; a few slow, failing, or down. */
export function receiversOf(index: number, workspaces: number): ReceiverKind[] {
  // One in ten of each; with fewer than ten workspaces (a smoke run) the first ones take them.
  const every = Math.min(10, workspaces);
  const kinds: ReceiverKind[] = ['fast'];
  if (index % every === 1 % every) kinds.push('slow');
  if (index % every === 2 % every) kinds.push('failing');
  if (index === 3 % workspaces) kinds.push('down');
  return kinds;
}
