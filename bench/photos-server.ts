// The server of bench/photos.ts, in a process of its own so that its memory and CPU are measured
// apart from the client's: the app as `serve` builds it (rate limiter on, a limit it never
// reaches), listening on a random loopback port, on the database and data directory the parent
// prepared. Started by bench/photos.ts with fork(); it is not run by hand.
//
// A worker thread samples the process's RSS every 10 ms (RSS is the whole process's, and a
// worker keeps sampling while the main thread is busy). On Linux the kernel's own high-water mark
// (VmHWM, reset through /proc/self/clear_refs) is read as well, as a check that sampling missed
// no short peak. The parent asks over the IPC channel:
//   { id, cmd: 'mark' }  collect garbage (with --expose-gc), reset both peaks; answers the RSS now
//   { id, cmd: 'peak' }  answers the highest RSS since the mark, sampled and VmHWM
//   { id, cmd: 'cpu' }   answers process.cpuUsage() (every thread, libvips' included), µs
//   { id, cmd: 'stop' }  closes the app and the database and exits
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { buildApp } from '#src/app.ts';
import { openDatabase } from '#db/database.ts';
import { listen } from './load.ts';

export interface PhotoServerOptions {
  /** A PostgreSQL URL or the SQLite file's path. */
  url: string;
  /** The PostgreSQL schema (search_path). */
  schema?: string;
  dataDir: string;
}

export interface PeakAnswer {
  /** Highest RSS seen by the 10 ms sampler since the mark, bytes. */
  sampled: number;
  /** The kernel's high-water mark since the mark (VmHWM), bytes; null where /proc cannot tell. */
  hwm: number | null;
  rss: number;
}

const SAMPLER = `
const { parentPort } = require('node:worker_threads');
let peak = process.memoryUsage.rss();
const take = () => { const r = process.memoryUsage.rss(); if (r > peak) peak = r; return r; };
setInterval(take, 10);
parentPort.on('message', (m) => {
  if (m === 'reset') peak = take();
  else take();
  parentPort.postMessage(peak);
});
`;

const sampler = new Worker(SAMPLER, { eval: true, execArgv: [] });
const askSampler = (m: 'reset' | 'peak') =>
  new Promise<number>((resolve) => {
    sampler.once('message', resolve);
    sampler.postMessage(m);
  });

/** VmHWM after clear_refs "5" (Linux 4.0 and later); null elsewhere. */
function resetHwm(): boolean {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}
function readHwm(): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

const options = JSON.parse(process.argv[2] ?? '{}') as PhotoServerOptions;
const database = openDatabase(options.url, options.schema ? { schema: options.schema } : {});
const app = await buildApp(database, {
  adminToken: null,
  rateLimit: { max: 1e9, windowMs: 1000 },
  logLevel: false,
  dataDir: options.dataDir,
});
const base = await listen(app);
let hwmWorks = false;

async function stop(): Promise<never> {
  await sampler.terminate();
  await app.close();
  await database.close();
  process.exit(0);
}

process.on('message', (m: { id: number; cmd: string }) => {
  void (async () => {
    const reply = (body: Record<string, unknown>) => process.send!({ id: m.id, ...body });
    if (m.cmd === 'mark') {
      (globalThis as { gc?: () => void }).gc?.();
      hwmWorks = resetHwm();
      reply({ rss: await askSampler('reset') });
    } else if (m.cmd === 'peak') {
      const answer: PeakAnswer = {
        sampled: await askSampler('peak'),
        hwm: hwmWorks ? readHwm() : null,
        rss: process.memoryUsage.rss(),
      };
      reply({ ...answer });
    } else if (m.cmd === 'cpu') {
      const { user, system } = process.cpuUsage();
      reply({ us: user + system });
    } else if (m.cmd === 'stop') {
      reply({});
      await stop();
    }
  })();
});
// The parent went away (killed or interrupted): do not outlive it.
process.on('disconnect', () => void stop());
process.send!({ ready: true, base, pid: process.pid });
