// Start-up errors an operator can act on (src/startup.ts), in real child processes: a port in use,
// a DATABASE_URL that is no database we speak, one we cannot connect to or write, and a data
// directory the server may not write each stop the start with exit code 1 and a message naming
// the setting, the path or address and the problem. Permission cases run the server as another
// user (nobody) when the tests run as root, whom no permission stops.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#test/helpers/paths.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-startup-'));
// Other users (the permission cases' server) may enter it.
fs.chmodSync(dir, 0o755);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A port nothing listens on, for the starts that must fail before they listen. */
let freePort = 0;
beforeAll(async () => {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  freePort = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

/** A folder the server may not write in: root's when the server runs as nobody, read-only otherwise. */
function unwritableFolder(name: string): string {
  const folder = path.join(dir, name);
  fs.mkdirSync(folder, { mode: 0o755 });
  if (!asRoot) fs.chmodSync(folder, 0o555);
  return folder;
}

// A start that fails must end the process; how long tsx takes to load the server before it fails
// depends on the machine's load (20 s and more while the suite's other files run), so the wait is
// generous: a process still running after it is the failure.
const EXIT_WAIT_MS = 90_000;

/** Runs `groundwork serve` until it exits (EXIT_WAIT_MS at most). */
async function serveUntilExit(env: Record<string, string>, options: { otherUser?: boolean } = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(freePort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      GROUNDWORK_DEMO: 'false',
      GROUNDWORK_DATA_DIR: path.join(dir, 'data'),
      DATABASE_URL: ':memory:',
      GROUNDWORK_ADMIN_TOKEN: '',
      GROUNDWORK_PUBLIC_URL: '',
      ...env,
    },
    ...(options.otherUser && asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(null);
    }, EXIT_WAIT_MS);
    child.on('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  return { code, output };
}

describe('listening', () => {
  it('a port in use: exit 1 naming the port and HOST, not a process left running', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const { code, output } = await serveUntilExit({ PORT: String(port) });
      expect(code, output).toBe(1);
      expect(output).toContain(`PORT ${port}`);
      expect(output).toContain('HOST 127.0.0.1');
      expect(output).toMatch(/already in use/);
      expect(output).not.toMatch(/\n\s+at /); // a message, not a stack trace
    } finally {
      taken.close();
    }
  }, 120_000);
});

describe('DATABASE_URL', () => {
  it('a URL of another database (mysql://) is refused, its password not repeated, and no file is made', async () => {
    const { code, output } = await serveUntilExit({ DATABASE_URL: 'mysql://app:s3cret@db.example.com/groundwork' });
    expect(code, output).toBe(1);
    expect(output).toMatch(/DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/);
    expect(output).toContain('"mysql:" is not supported');
    expect(output).not.toContain('s3cret');
    expect(fs.existsSync(path.join(REPO_ROOT, 'mysql:'))).toBe(false);
  }, 120_000);

  it('a file: or sqlite: URL is refused with how to write a SQLite path', async () => {
    for (const url of ['file:data/app.sqlite', 'sqlite:///data/app.sqlite']) {
      const { code, output } = await serveUntilExit({ DATABASE_URL: url });
      expect(code, output).toBe(1);
      expect(output).toContain('For SQLite write the file path itself');
    }
  }, 120_000);

  it('PostgreSQL that cannot be reached: exit 1 naming DATABASE_URL, the address and the problem', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { code, output } = await serveUntilExit({
      DATABASE_URL: `postgres://app:s3cret@127.0.0.1:${port}/groundwork`,
    });
    expect(code, output).toBe(1);
    expect(output).toContain('DATABASE_URL');
    expect(output).toContain(`127.0.0.1:${port}/groundwork`);
    expect(output).toMatch(/nothing accepts connections/);
    expect(output).not.toContain('s3cret');
  }, 120_000);

  it('a SQLite path through a file: exit 1 naming DATABASE_URL and the path', async () => {
    const file = path.join(dir, 'not-a-folder');
    fs.writeFileSync(file, 'x');
    const { code, output } = await serveUntilExit({ DATABASE_URL: path.join(file, 'groundwork.sqlite') });
    expect(code, output).toBe(1);
    expect(output).toContain(`DATABASE_URL names the SQLite file ${path.join(file, 'groundwork.sqlite')}`);
    expect(output).toMatch(/a file is in the way/);
  }, 120_000);

  it('a SQLite file in a folder the server may not write: exit 1 naming DATABASE_URL and the permission', async () => {
    const folder = unwritableFolder('db-readonly');
    const { code, output } = await serveUntilExit(
      { DATABASE_URL: path.join(folder, 'groundwork.sqlite') },
      { otherUser: true },
    );
    expect(code, output).toBe(1);
    expect(output).toContain(`DATABASE_URL names the SQLite file ${path.join(folder, 'groundwork.sqlite')}`);
    expect(output).toMatch(/permission denied/);
    expect(output).toContain(folder);
  }, 120_000);

  it('a database folder that cannot be made: exit 1 naming DATABASE_URL and the permission', async () => {
    const folder = unwritableFolder('db-parent-readonly');
    const { code, output } = await serveUntilExit(
      { DATABASE_URL: path.join(folder, 'sub', 'groundwork.sqlite') },
      { otherUser: true },
    );
    expect(code, output).toBe(1);
    expect(output).toContain('DATABASE_URL names the SQLite file');
    expect(output).toMatch(/permission denied/);
  }, 120_000);
});

describe('GROUNDWORK_DATA_DIR', () => {
  it('a data directory the server may not write: exit 1 naming it, the path and the permission', async () => {
    const folder = unwritableFolder('data-readonly');
    const { code, output } = await serveUntilExit({ GROUNDWORK_DATA_DIR: folder }, { otherUser: true });
    expect(code, output).toBe(1);
    expect(output).toContain(`GROUNDWORK_DATA_DIR (${folder}) cannot be used`);
    expect(output).toMatch(/permission denied/);
  }, 120_000);

  it('one that cannot be made (a file in the way): exit 1 naming it', async () => {
    const file = path.join(dir, 'data-file');
    fs.writeFileSync(file, 'x');
    const { code, output } = await serveUntilExit({ GROUNDWORK_DATA_DIR: path.join(file, 'data') });
    expect(code, output).toBe(1);
    expect(output).toContain('GROUNDWORK_DATA_DIR');
    expect(output).toMatch(/a file is in the way/);
  }, 120_000);

  it('a folder inside it the server may not write (its objects): exit 1 naming that folder', async () => {
    const data = path.join(dir, 'data-objects');
    fs.mkdirSync(data, { mode: 0o777 });
    fs.chmodSync(data, 0o777);
    const objects = path.join(data, 'objects');
    fs.mkdirSync(objects, { mode: 0o755 });
    if (!asRoot) fs.chmodSync(objects, 0o555);
    const { code, output } = await serveUntilExit({ GROUNDWORK_DATA_DIR: data }, { otherUser: true });
    expect(code, output).toBe(1);
    expect(output).toContain(`may not create or write in ${objects}`);
  }, 120_000);
});

describe('GROUNDWORK_PUBLIC_URL', () => {
  it('anything but an http(s) origin stops the start', async () => {
    for (const url of ['app.example.com', 'ftp://app.example.com', 'https://app.example.com/groundwork']) {
      const { code, output } = await serveUntilExit({ GROUNDWORK_PUBLIC_URL: url });
      expect(code, output).toBe(1);
      expect(output).toContain('GROUNDWORK_PUBLIC_URL must be the customer-facing origin');
    }
  }, 360_000);
});
