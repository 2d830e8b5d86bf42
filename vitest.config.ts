import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// `*.nodb.test.ts` files touch no database (engines, property tests, PDF and image generation,
// pure rendering), and `*.sqlite.test.ts` files only SQLite databases of their own whatever the
// run's DATABASE_URL (`serve` and the CLI in child processes on a file): both run in the SQLite
// run (`npm test`) only, and the PostgreSQL run (DATABASE_URL=postgres://…) leaves them out, as it
// would run them exactly again. test/platform/database-split.nodb.test.ts fails when a file's
// name and what it imports disagree (docs/architecture.md, "Tests").
const postgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '');

const excluded = [
  ...configDefaults.exclude,
  ...(postgres ? ['test/**/*.nodb.test.ts', 'test/**/*.sqlite.test.ts'] : []),
];
const OWN_PROCESS = ['test/platform/fuzz.test.ts'];

/**
 * The files that take longest (a minute or more beside the rest: child processes, crash tests, the
 * walks of every route), started first. Vitest orders by the last run's durations when it has them
 * and by file size otherwise, which on a clean clone (CI) started some of these minutes into the run
 * and left them running alone at its end: the SQLite run's last two minutes were one file.
 */
const SLOW_FIRST = [
  'test/platform/startup.sqlite.test.ts',
  'test/integrations/webhooks/crash.test.ts',
  'test/platform/empty-patch.test.ts',
  'test/platform/serve.sqlite.test.ts',
  'test/engines/distress/detector.nodb.test.ts',
  'test/measurement/landscape/detect.test.ts',
  'test/integrations/exports/crash-safety.test.ts',
  'test/condition/ratings/api.test.ts',
  'test/measurement/measurements.test.ts',
  'test/estimating/proposals/page.test.ts',
  'test/field/photo-share-links/page.test.ts',
  'test/db/migrate-beside-drops.test.ts',
];

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.findIndex((name) => f.moduleId.endsWith(name));
      return i === -1 ? SLOW_FIRST.length : i;
    };

    // Array.prototype.sort is stable: the rest keep vitest's own order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    // On PostgreSQL, one migrated template database per run that each test file's is copied from.
    globalSetup: ['test/helpers/postgres-template.ts'],
    pool: 'forks',
    // A worker runs its files one after another in one process and module graph, not a new
    // process each: importing the app (Fastify, Kysely, the engines' WebAssembly) was 4-6 s per
    // file, most of the suite's time (the SQLite run took 13.8 min with a process per file against
    // about 5). Each file still makes its own databases and apps; what a file sets process-wide
    // (the test clock, the installed area list) is reset before the next by test/helpers/per-file.ts.
    isolate: false,
    setupFiles: ['test/helpers/per-file.ts'],
    sequence: { sequencer: SlowFirst },
    // Three test files at a time. Vitest's default on a machine of two cores is one (cores - 1), but
    // most of a file's time is waiting (on PostgreSQL, a spawned server, a browser, a timer), so three
    // keep both cores busy: the SQLite run took 6.1 min against about 11 with one, the PostgreSQL
    // run 7.3 min (docs/performance.md, "The test suite"). Each PostgreSQL file holds a pool of
    // 20 connections, so three stay well inside the server's 100.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...excluded, ...OWN_PROCESS] } },
      // A file that sends thousands of large requests through one app starts in a process of its
      // own: after other files in a shared worker it once took minutes, not its usual 20–50 s
      // (twice in six full runs, never alone). Most likely garbage collection: a shared worker's
      // heap fills with the earlier files' garbage to a gigabyte or more before V8 collects it, and
      // a file allocating large strings then pays for full collections over all of it
      // (docs/performance.md, "Why a file is slower in a shared worker").
      { extends: true, test: { name: 'own-process', include: OWN_PROCESS, exclude: excluded, isolate: true } },
    ],
  },
});
