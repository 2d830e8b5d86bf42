// Every process entry point installs the one area list of src/areas.ts: the app, the worker and
// the admin CLI, each started in a fresh process, see the same merge movers, payload parts,
// export datasets and search types. And nothing registers itself by being imported.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { compileAreas, type Area } from '#src/area.ts';
import { AREAS } from '#src/areas.ts';
import { REPO_ROOT } from '#test/helpers/paths.ts';
import { EXPORT_DATASETS } from '#test/helpers/datasets.ts';

const run = promisify(execFile);

async function seenBy(entry: string) {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'test/platform/fixtures/entry-areas.ts', entry], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      GROUNDWORK_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-areas-')),
    },
  });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

describe('the area list', () => {
  it('is seen whole by the app, the worker and the CLI', async () => {
    const [app, worker, cli] = await Promise.all([seenBy('app'), seenBy('worker'), seenBy('cli')]);
    const expected = {
      areas: [
        'workspace',
        'crm',
        'estimating',
        'billing',
        'operations',
        'field',
        'condition',
        'measurement',
        'reports',
        'integrations',
      ],
      mergeMovers: {
        job: [
          'assignees',
          'tags',
          'people',
          'notes, activities, follow-ups and activity log',
          'reminders',
          'portal messages',
          'reviews',
          'follow-up sequences',
          'leads',
          'estimates',
          'proposals',
          'invoices',
          'change orders',
          'posted change orders',
          'work orders',
          'daily logs',
          'daily reports',
          'time entries',
          'job costs',
          'allocations',
          'photos',
          'site assessments',
          'photo report links',
          'photo selection links',
          'files',
          'measurements',
          'landscape takeoffs',
        ],
        client_account: [
          'jobs',
          'sites',
          'contacts',
          'contact links',
          'notes',
          'activities',
          'company follow-ups',
          'reminders',
          'portal links',
          'leads',
          'files',
        ],
        contact: [
          'jobs',
          'phones and emails',
          'company and site links',
          'notes',
          'activities',
          'job follow-ups',
          'company follow-ups',
          'reminders',
          'birthday follow-up',
          'leads',
          'files',
        ],
        location: [
          'jobs',
          'contact links',
          'leads',
          're-bid history',
          're-bid choices',
          'capital plan links',
          'condition ratings',
        ],
      },
      payloadParts: ['job', 'estimate'],
      exportDatasets: [...EXPORT_DATASETS],
      searchTypes: ['job', 'client_account', 'contact', 'location', 'note', 'proposal', 'measurement'],
      // Whose stored objects go with a job (photos, files, plan takeoffs' PDFs and sheets) or a
      // person (files) deleted outright.
      storedObjects: { job: 3, contact: 1 },
    };
    for (const seen of [app, worker, cli]) expect(seen).toMatchObject(expected);
    expect(app.routes).toBe(worker.routes);
    expect(cli.routes).toBe(app.routes);
    expect(worker.workerTasks).toEqual([
      'webhooks',
      'mail',
      'lead-escalation',
      'reminders-due',
      'follow-up-sequences',
      'landscape-runs',
      'workspace-exports',
    ]);
  }, 60_000);

  it('refuses an area contributed twice, or two areas naming one dataset', () => {
    expect(() => compileAreas([...AREAS, AREAS[0]!])).toThrow(/area "workspace" is contributed twice/);
    const twin: Area = { name: 'twin', routes: [], exportDatasets: [AREAS[1]!.exportDatasets![0]!] };
    expect(() => compileAreas([...AREAS, twin])).toThrow(/export dataset "customers" is contributed twice/);
  });

  it('has no module that registers itself by being imported', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (file.endsWith('.ts') && /^import '[^']+';/m.test(fs.readFileSync(file, 'utf8')))
          offenders.push(path.relative(REPO_ROOT, file));
      }
    };
    walk(path.join(REPO_ROOT, 'src'));
    expect(offenders).toEqual([]);
  });
});
