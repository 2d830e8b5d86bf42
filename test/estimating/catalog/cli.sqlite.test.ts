// `groundwork admin catalog import|export` against a SQLite file (as test/platform/cli.test.ts),
// and once through `npm run admin` in a child process.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCli } from '#test/helpers/cli.ts';
import { REPO_ROOT } from '#test/helpers/paths.ts';

const run = promisify(execFile);
let dir: string;
let databaseUrl: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-catalog-cli-'));
  databaseUrl = path.join(dir, 'cli.sqlite');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const { admin, json } = adminCli(() => databaseUrl);
const write = (name: string, value: unknown) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
};

const DOC = {
  items: [{ kind: 'material', name: 'Mulch', unit: 'CY', unit_cost: 36 }],
  services: [
    {
      name: 'Mulch beds',
      unit: 'CY',
      estimating_mode: 'detailed',
      cost_lines: [{ type: 'material', item: 'Mulch', quantity_formula: 'quantity' }],
    },
  ],
};

describe('groundwork admin catalog', () => {
  it('the usage lists the catalog commands', async () => {
    const r = await admin('--help');
    expect(r.out).toContain('catalog import <firm_id> <file.json> [--replace]');
    expect(r.out).toContain('catalog export <firm_id>');
  });

  it('imports (merge, then --replace) and exports to a file', async () => {
    const ws = await json(
      'workspace',
      'create',
      '--name',
      'Catalog CLI',
      '--owner-name',
      'Cat',
      '--owner-email',
      'cat@example.com',
    );
    const merged = await json('catalog', 'import', String(ws.firm_id), write('doc.json', DOC));
    expect(merged).toMatchObject({ mode: 'merge', items: { created: 1 }, services: { created: 1 } });
    const replaced = await json('catalog', 'import', String(ws.firm_id), write('doc.json', DOC), '--replace');
    expect(replaced.mode).toBe('replace');
    expect(replaced.items).toMatchObject({ unchanged: 1, created: 0 });
    expect(replaced.services.archived).toBeGreaterThan(10); // the starter services
    const out = path.join(dir, 'export.json');
    const summary = await json('catalog', 'export', String(ws.firm_id), out);
    expect(summary).toMatchObject({ file: out, items: 1, services: 1 });
    const exported = JSON.parse(fs.readFileSync(out, 'utf8'));
    expect(exported.services[0]).toMatchObject({
      name: 'Mulch beds',
      cost_lines: [{ item: 'Mulch', unit_cost: 36, quantity_formula: 'quantity' }],
    });
    const stdout = await json('catalog', 'export', String(ws.firm_id));
    expect(stdout).toEqual(exported);
  });

  it('reports a bad file with its problems and exit code 1', async () => {
    const ws = await json(
      'workspace',
      'create',
      '--name',
      'Catalog CLI 2',
      '--owner-name',
      'Cat',
      '--owner-email',
      'cat2@example.com',
    );
    const bad = await admin(
      'catalog',
      'import',
      String(ws.firm_id),
      write('bad.json', {
        services: [
          { name: 'B', unit: 'EA', estimating_mode: 'detailed', cost_lines: [{ type: 'misc', item: 'Missing' }] },
        ],
      }),
    );
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('error 400: Invalid catalog');
    expect(bad.err).toContain('/services/0/cost_lines/0/item: Catalog item "Missing" not found');
    const notJson = await admin('catalog', 'import', String(ws.firm_id), write('nope.json', '{nope'));
    expect(notJson.code).toBe(1);
    expect(notJson.err).toContain('is not valid JSON');
    const missing = await admin('catalog', 'import', String(ws.firm_id), path.join(dir, 'absent.json'));
    expect(missing.err).toContain('cannot read');
    const noFile = await admin('catalog', 'import', String(ws.firm_id));
    expect(noFile.err).toContain('needs a file');
  });

  it('runs through npm run admin in a child process', async () => {
    const ws = await json(
      'workspace',
      'create',
      '--name',
      'Catalog CLI 3',
      '--owner-name',
      'Cat',
      '--owner-email',
      'cat3@example.com',
    );
    const { stdout } = await run(
      'npm',
      ['run', '--silent', 'admin', '--', 'catalog', 'import', String(ws.firm_id), write('doc3.json', DOC), '--json'],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, DATABASE_URL: databaseUrl },
      },
    );
    expect(JSON.parse(stdout).data).toMatchObject({ mode: 'merge', items: { created: 1 }, services: { created: 1 } });
  }, 30_000);
});
