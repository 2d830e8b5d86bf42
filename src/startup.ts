// What a process checks as it starts, so that the operator reads what to fix instead of a stack
// trace, or a server that seems up and is not: the database DATABASE_URL names (opened and
// migrated), the data directory (GROUNDWORK_DATA_DIR, written to before anything is served) and
// the address `serve` listens on (PORT, HOST). Each failure is a StartError naming the setting,
// the path or address, and the problem; main.ts prints its message and exits with 1.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isPostgresUrl, withoutCredentials } from './config.ts';
import { type Database, openDatabase } from '#db/database.ts';
import { migrateToLatest } from '#db/migrate.ts';

/** A start-up failure the operator can act on: its message says which setting and what to do. */
export class StartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartError';
  }
}

type Failure = { code?: string; message?: string; cause?: unknown; errors?: unknown[] };

/** The error's code, looking through a migration's wrapper and a connection attempt per address. */
function codeOf(err: unknown): string | undefined {
  const e = err as Failure | null;
  if (!e) return undefined;
  return e.code ?? codeOf(e.errors?.[0]) ?? codeOf(e.cause);
}

function messageOf(err: unknown): string {
  const e = err as Failure | null;
  return e?.message || (e?.errors?.[0] as Failure | undefined)?.message || String(err);
}

/** Who this process runs as, for permission messages. */
function whoAmI(): string {
  try {
    const { username, uid } = os.userInfo();
    return uid >= 0 ? `user ${username} (uid ${uid})` : `user ${username}`;
  } catch {
    return `uid ${process.getuid?.() ?? '?'}`;
  }
}

/** A file system error in words, for `where`. */
function fileProblem(err: unknown, where: string): string {
  switch (codeOf(err)) {
    case 'EACCES':
    case 'EPERM':
      return `permission denied: this process runs as ${whoAmI()}, which may not create or write in ${where}`;
    case 'EROFS':
      return `${where} is on a read-only file system`;
    case 'ENOTDIR':
    case 'EEXIST':
      return `a file is in the way: part of ${where} is a file, not a folder`;
    case 'ENOSPC':
      return `the disk holding ${where} is full`;
    case 'ENOENT':
      return `a folder on the way to ${where} does not exist`;
    default:
      return messageOf(err);
  }
}

// ---------------------------------------------------------------------------------------------
// The database

/**
 * Opens the database DATABASE_URL names and brings it to the latest migration; any failure is a
 * StartError naming DATABASE_URL (cannot connect, no such database, a path that cannot be made,
 * no permission, not a database).
 */
export async function openStartDatabase(url: string): Promise<Database> {
  let database: Database;
  try {
    database = openDatabase(url);
  } catch (err) {
    throw databaseError(url, err);
  }
  try {
    await migrateToLatest(database);
  } catch (err) {
    await database.close().catch(() => {});
    throw databaseError(url, err);
  }
  return database;
}

export function databaseError(url: string, err: unknown): StartError {
  return new StartError(isPostgresUrl(url) ? postgresProblem(url, err) : sqliteProblem(url, err));
}

function postgresProblem(url: string, err: unknown): string {
  let where = withoutCredentials(url);
  try {
    const u = new URL(url);
    where = `${u.hostname || 'localhost'}:${u.port || 5432}${u.pathname.length > 1 ? u.pathname : ''}`;
  } catch {
    /* the masked URL as it is */
  }
  const message = messageOf(err);
  const why = (() => {
    switch (codeOf(err)) {
      case 'ECONNREFUSED':
        return 'nothing accepts connections there: is PostgreSQL running, and listening on that address and port?';
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return `the host name in it cannot be resolved (${message})`;
      case 'ETIMEDOUT':
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
        return `${where} cannot be reached (${message})`;
      case '28P01':
      case '28000':
        return `PostgreSQL refused the user or password: ${message}`;
      case '3D000':
        return `${message}: create it (createdb) or name an existing database`;
      case '42501':
        return `the user may not do what the server needs: ${message}`;
      default:
        return message;
    }
  })();
  return `DATABASE_URL (${withoutCredentials(url)}): cannot use PostgreSQL at ${where}: ${why}`;
}

function sqliteProblem(url: string, err: unknown): string {
  const file = path.resolve(url);
  const folder = path.dirname(file);
  const code = codeOf(err);
  const why = (() => {
    if (code?.startsWith('E')) return fileProblem(err, folder);
    if (code === 'SQLITE_NOTADB') return 'it is not a SQLite database';
    if (code === 'SQLITE_READONLY' || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_PERM') {
      const stat = fs.statSync(file, { throwIfNoEntry: false });
      if (stat?.isDirectory()) return 'it is a folder, not a file';
      if (!canWrite(folder))
        return `permission denied: this process runs as ${whoAmI()}, which may not write in ${folder} (SQLite writes the file and its -wal and -shm files there)`;
      if (stat && !canWrite(file)) return `permission denied: the file is read-only for ${whoAmI()}`;
    }
    return messageOf(err);
  })();
  return `DATABASE_URL names the SQLite file ${file}, which cannot be used: ${why}`;
}

function canWrite(target: string): boolean {
  try {
    fs.accessSync(target, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// The data directory

/** The folders under the data directory the server writes in, checked when they are there already. */
const DATA_FOLDERS = ['objects', 'outbox', 'exports'];

/**
 * Makes the data directory if needed and writes (and removes) a file in it and in each of its
 * folders already there, so a directory the server cannot write stops the start instead of
 * failing uploads, mail and exports later.
 */
export function checkDataDir(dataDir: string): void {
  const root = path.resolve(dataDir);
  const fail = (where: string, err: unknown) =>
    new StartError(
      `GROUNDWORK_DATA_DIR (${root}) cannot be used: ${fileProblem(err, where)}. ` +
        'The server keeps stored files, the mail outbox, exports and its link secret there: point ' +
        'GROUNDWORK_DATA_DIR at a folder it may write to, or give it that permission.',
    );
  try {
    fs.mkdirSync(root, { recursive: true });
  } catch (err) {
    throw fail(root, err);
  }
  const folders = [
    root,
    ...DATA_FOLDERS.map((name) => path.join(root, name)).filter((f) =>
      fs.statSync(f, { throwIfNoEntry: false })?.isDirectory(),
    ),
  ];
  for (const folder of folders) {
    const probe = path.join(folder, `.write-check-${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      fs.writeFileSync(probe, '', { flag: 'wx' });
      fs.rmSync(probe, { force: true });
    } catch (err) {
      throw fail(folder, err);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Listening

/** Why `serve` could not listen on HOST and PORT, in words. */
export function listenError(err: unknown, port: number, host: string): StartError {
  const at = `HOST ${host} PORT ${port}`;
  switch (codeOf(err)) {
    case 'EADDRINUSE':
      return new StartError(
        `Cannot listen on ${at}: port ${port} is already in use by another process (EADDRINUSE). ` +
          'Stop that process, or set PORT (and HOST) to a free port.',
      );
    case 'EACCES':
      return new StartError(
        `Cannot listen on ${at}: permission denied (EACCES); ports below 1024 need privileges. Set PORT to 1024 or above.`,
      );
    case 'EADDRNOTAVAIL':
      return new StartError(
        `Cannot listen on ${at}: ${host} is not an address of this machine (EADDRNOTAVAIL). ` +
          'Set HOST to one of its addresses, or 0.0.0.0 for all.',
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new StartError(
        `Cannot listen on ${at}: the host name ${host} cannot be resolved. Set HOST to an address.`,
      );
    default:
      return new StartError(`Cannot listen on ${at}: ${messageOf(err)}`);
  }
}
