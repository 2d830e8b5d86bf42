// The typed client as a package: `npm run build` in clients/typescript (build.mjs: tsc, then the
// generated schema.d.ts beside the output) makes JavaScript and declarations that plain Node.js
// and a TypeScript project use through the package's `exports`, with nothing of the repository's
// TypeScript tooling. Built here into a temporary node_modules/@groundwork/client.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { REPO_ROOT } from '#test/helpers/paths.ts';
import { listening } from './kit.ts';

const run = promisify(execFile);
const CLIENT = path.join(REPO_ROOT, 'clients/typescript');

let t: TestApp;
let w: Workspace;
let scratch: string;
let installed: string;
beforeAll(async () => {
  t = await startApp();
  w = await t.workspace();
  // A project with the built package installed, as `npm install` would lay it out; openapi-fetch,
  // its one dependency, is the repository's own copy.
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-client-build-'));
  installed = path.join(scratch, 'node_modules/@groundwork/client');
  fs.mkdirSync(installed, { recursive: true });
  await run(process.execPath, [path.join(CLIENT, 'build.mjs'), '--out-dir', path.join(installed, 'dist')]);
  fs.copyFileSync(path.join(CLIENT, 'package.json'), path.join(installed, 'package.json'));
  fs.symlinkSync(path.join(CLIENT, 'openapi.json'), path.join(installed, 'openapi.json'));
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules/openapi-fetch'), path.join(scratch, 'node_modules/openapi-fetch'));
}, 60_000);
afterAll(async () => {
  await t.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('the built client', () => {
  it('is JavaScript and declarations, with the generated schema.d.ts as the types', () => {
    const files = fs.readdirSync(path.join(installed, 'dist')).sort();
    expect(files).toEqual([
      'index.d.ts',
      'index.js',
      'retry.d.ts',
      'retry.js',
      'schema.d.ts',
      'webhooks.d.ts',
      'webhooks.js',
    ]);
    expect(fs.readFileSync(path.join(installed, 'dist/schema.d.ts'), 'utf8')).toBe(
      fs.readFileSync(path.join(CLIENT, 'src/schema.d.ts'), 'utf8'),
    );
  });

  it('runs in plain Node.js: creates a client and calls the running server', async () => {
    const script = `
      import { createGroundworkClient, verifyWebhook } from '@groundwork/client';
      const api = createGroundworkClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY });
      const created = await api.POST('/v1/jobs', { body: { name: 'Built client lot' } });
      const read = await api.GET('/v1/jobs/{id}', { params: { path: { id: created.data.data.id } } });
      const denied = await createGroundworkClient({ baseUrl: process.env.BASE_URL, apiKey: 'gw_nope' }).GET('/v1/jobs');
      console.log(JSON.stringify({
        created: created.response.status, read: read.data.data, denied: denied.response.status,
        verifyWebhook: typeof verifyWebhook,
      }));
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: scratch,
      // Plain Node: no loader the repository's scripts use.
      env: { PATH: process.env.PATH, BASE_URL: await listening(t), API_KEY: w.key },
    });
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({ created: 201, denied: 401, verifyWebhook: 'function' });
    expect(out.read).toEqual((await w.api.get(`/v1/jobs/${out.read.id}`)).body.data);
  });

  it('types a TypeScript project that imports it (NodeNext)', () => {
    const file = path.join(scratch, 'check.ts');
    fs.writeFileSync(
      file,
      `import { createGroundworkClient, type GroundworkClient } from '@groundwork/client';
       const api: GroundworkClient = createGroundworkClient({ baseUrl: 'http://127.0.0.1', apiKey: 'gw_x' });
       export async function name(id: number): Promise<string | undefined> {
         const job = await api.GET('/v1/jobs/{id}', { params: { path: { id } } });
         // @ts-expect-error: the path's types are real, and a job's name is no number
         const wrong: number | undefined = job.data?.data.name;
         void wrong;
         return job.data?.data.name;
       }`,
    );
    const program = ts.createProgram([file], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
      types: [],
      // The declarations are not re-checked (seconds for the 1.4 MB schema); that they resolve and
      // carry real types is what the @ts-expect-error above shows: with \`any\` it would be unused.
      skipLibCheck: true,
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(problems).toEqual([]);
  });

  it('is what the package exports, and dist stays out of git', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(CLIENT, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({
      type: 'module',
      main: './dist/index.js',
      types: './dist/index.d.ts',
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      scripts: { build: 'node build.mjs' },
    });
    expect(pkg.files).toContain('dist');
    expect(fs.readFileSync(path.join(REPO_ROOT, '.gitignore'), 'utf8')).toMatch(/^clients\/typescript\/dist\/$/m);
  });
});
