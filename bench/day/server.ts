// The server of the busy day, run as `npm start` runs it: `node --import tsx src/main.ts serve` in a
// process of its own, configured by the environment alone, its background worker on (webhook
// deliveries, mail, export files). Its log (LOG_LEVEL info, as by default: a line per request) goes
// to a file, read afterwards for 5xx answers and logged errors. Its memory (VmRSS) and CPU time
// are read from /proc while it runs.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServerProcess {
  base: string;
  port: number;
  pid: number;
  logFile: string;
  /** Resident memory now, bytes (VmRSS of /proc/<pid>/status); null where /proc cannot tell. */
  rss(): number | null;
  /** CPU time used so far, user and system, seconds (/proc/<pid>/stat); null where /proc cannot tell. */
  cpuSeconds(): number | null;
  stop(): Promise<void>;
}

/** A port free right now on 127.0.0.1 (the server is told it by PORT, as an operator would). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Clock ticks a second of /proc/<pid>/stat (USER_HZ), 100 on Linux everywhere it runs. */
const TICKS = 100;

/** Starts the server on `port` (a free one unless given: a restart keeps its address, so links stay valid). */
export async function startServer(o: { databaseUrl: string; dataDir: string; port?: number }): Promise<ServerProcess> {
  const port = o.port ?? (await freePort());
  const logFile = path.join(o.dataDir, 'server.log');
  const log = fs.openSync(logFile, 'a');
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: o.databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      GROUNDWORK_DATA_DIR: path.join(o.dataDir, 'data'),
      GROUNDWORK_PUBLIC_URL: `http://127.0.0.1:${port}`,
      GROUNDWORK_DEMO: 'false',
      // The webhook receivers are on this machine; a deployment delivering to the internet leaves it off.
      GROUNDWORK_ALLOW_PRIVATE_NETWORK: '1',
      GROUNDWORK_WORKER: 'true',
    },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const pid = child.pid!;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  // Ready when it answers its health check; a start that fails shows its log.
  const deadline = Date.now() + 120_000;
  for (;;) {
    const gone = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 200))]);
    if (gone) throw new Error(`the server exited while starting:\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
    try {
      const res = await fetch(`${base}/v1/health`);
      if (res.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('the server did not answer /v1/health within 120 s');
    }
  }
  const proc = (file: string) => {
    try {
      return fs.readFileSync(`/proc/${pid}/${file}`, 'utf8');
    } catch {
      return null;
    }
  };
  return {
    base,
    port,
    pid,
    logFile,
    rss() {
      const kb = /VmRSS:\s+(\d+) kB/.exec(proc('status') ?? '')?.[1];
      return kb === undefined ? null : Number(kb) * 1024;
    },
    cpuSeconds() {
      // Fields after the command name (which is in parentheses): utime and stime are the 12th and 13th.
      const stat = proc('stat');
      if (!stat) return null;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / TICKS;
    },
    async stop() {
      // SIGTERM: serve closes the app, lets the worker settle and closes the database.
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** What the server's log says went wrong: answers of 500 and up, and lines logged at error level or above. */
export async function serverLogProblems(
  logFile: string,
): Promise<{ fiveXx: number; errors: number; samples: string[] }> {
  let fiveXx = 0;
  let errors = 0;
  const samples: string[] = [];
  // Read a line at a time: a long run at a line per request writes hundreds of megabytes.
  const lines = readline.createInterface({ input: fs.createReadStream(logFile), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    if (!line.startsWith('{')) continue;
    let entry: { level?: number; res?: { statusCode?: number } };
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if ((entry.res?.statusCode ?? 0) >= 500) fiveXx++;
    if ((entry.level ?? 0) >= 50) {
      errors++;
      if (samples.length < 5) samples.push(line.slice(0, 600));
    }
  }
  return { fiveXx, errors, samples };
}
