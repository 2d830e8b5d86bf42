// Runs the admin CLI in-process against a database file, as `groundwork admin …` would.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { runAdmin } from '#cli/admin.ts';

/**
 * `databaseUrl` (and `dataDir`, where the outbox is) are read at each call (test files set them up
 * in beforeAll). Without a dataDir the CLI gets a temporary one, never the checkout's ./data.
 */
export function adminCli(databaseUrl: () => string, dataDir?: () => string) {
  const own = dataDir ?? (() => (scratch ??= fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-cli-'))));
  let scratch: string | undefined;
  async function admin(...args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(
      { databaseUrl: databaseUrl(), dataDir: own() },
      args,
      (s) => out.push(s),
      (s) => err.push(s),
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  }
  /** The command with --json; expects exit 0 and returns the printed `data`. */
  async function json(...args: string[]) {
    const r = await admin(...args, '--json');
    expect(r.code, r.err).toBe(0);
    return JSON.parse(r.out).data;
  }
  return { admin, json };
}
