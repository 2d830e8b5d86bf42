// Tests that touch no database run once, in the SQLite run, not once per database
// (docs/architecture.md, "Tests"): they are named `*.nodb.test.ts`, and vitest.config.ts leaves
// them out when DATABASE_URL names PostgreSQL. Whether a file touches a database is read from what
// it imports (test/helpers/database-reach.ts): a database driver, the app, the harness or a child
// process, however indirectly. This file holds every test file's name to that, both ways.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  DATABASE_FREE,
  DATABASE_MODULES,
  RUN_DATABASE,
  SQLITE_ONLY,
  databaseReach,
} from '#test/helpers/database-reach.ts';
import { REPO_ROOT } from '#test/helpers/paths.ts';

function testFiles(dir: string): string[] {
  return fs.readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return testFiles(file);
    return entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

const files = testFiles('test');
const shown = (chain: string[]) => `${chain.join(' > ')} (${DATABASE_MODULES[chain[chain.length - 1]]})`;

describe('database-free test files', () => {
  it('a `.nodb.test.ts` file imports nothing that opens a database, builds the app or starts a process', () => {
    const wrong = files
      .filter((f) => DATABASE_FREE.test(f))
      .flatMap((f) => {
        const chain = databaseReach(f);
        return chain ? [`${f} reaches ${shown(chain)}: name it ${path.basename(f, '.nodb.test.ts')}.test.ts`] : [];
      });
    expect(wrong).toEqual([]);
  });

  it('a file that reaches no database is named `.nodb.test.ts`, so the PostgreSQL run skips it', () => {
    const wrong = files
      .filter((f) => !DATABASE_FREE.test(f) && databaseReach(f) === null)
      .map((f) => `${f} touches no database: name it ${path.basename(f, '.test.ts')}.nodb.test.ts`);
    expect(wrong).toEqual([]);
  });

  it("a `.sqlite.test.ts` file opens only databases of its own: not the harness, not the run's DATABASE_URL", () => {
    const wrong = files
      .filter((f) => SQLITE_ONLY.test(f))
      .flatMap((f) => {
        const text = fs.readFileSync(path.join(REPO_ROOT, f), 'utf8');
        const chain = databaseReach(f, RUN_DATABASE);
        // A child given the suite's environment gets its own DATABASE_URL beside it, never the run's.
        const inherited = (text.match(/\.\.\.process\.env\b/g) ?? []).length;
        const named = (text.match(/\bDATABASE_URL:/g) ?? []).length;
        return [
          ...(chain ? [`${f} reaches ${chain.join(' > ')} (${RUN_DATABASE[chain[chain.length - 1]]})`] : []),
          ...(/process\.env\.DATABASE_URL/.test(text) ? [`${f} reads the run's DATABASE_URL`] : []),
          ...(inherited > named ? [`${f} hands a child the run's DATABASE_URL (${inherited} env, ${named} own)`] : []),
        ];
      });
    expect(wrong).toEqual([]);
  });

  it('follows helpers, re-exports and dynamic imports, and not type-only imports', () => {
    expect(databaseReach('test/smoke.test.ts')).toEqual(['test/smoke.test.ts', 'test/helpers/harness.ts']);
    expect(databaseReach('test/helpers/receiver.ts')).toBeNull();
    const fixtures = 'test/platform/fixtures/database-reach';
    expect(databaseReach(`${fixtures}/type-only.ts`)).toBeNull();
    expect(databaseReach(`${fixtures}/re-export.ts`)).toEqual([`${fixtures}/re-export.ts`, 'test/helpers/harness.ts']);
    expect(databaseReach(`${fixtures}/dynamic.ts`)).toEqual([`${fixtures}/dynamic.ts`, 'node:child_process']);
  });

  it('the PostgreSQL run leaves them (and the `.sqlite` files) out, the SQLite run keeps them', async () => {
    /** Each project's exclude list (the config runs its files in two projects). */
    const excluded = async (url: string): Promise<string[][]> => {
      vi.stubEnv('DATABASE_URL', url);
      vi.resetModules();
      try {
        const config = (await import('../../vitest.config.ts')).default;
        const projects = (config.test?.projects ?? []) as { test?: { exclude?: string[] } }[];
        expect(projects.length).toBeGreaterThan(0);
        return projects.map((p) => p.test?.exclude ?? []);
      } finally {
        vi.unstubAllEnvs();
      }
    };
    const postgres = await excluded('postgres://postgres@127.0.0.1:5432/postgres');
    const sqlite = await excluded('');
    for (const pattern of ['test/**/*.nodb.test.ts', 'test/**/*.sqlite.test.ts']) {
      for (const list of postgres) expect(list).toContain(pattern);
      for (const list of sqlite) expect(list).not.toContain(pattern);
    }
  });
});
