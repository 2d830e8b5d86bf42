import { configDefaults, defineConfig } from 'vitest/config';

// `*.nodb.test.ts` files touch no database (engines, property tests, PDF and image generation,
// pure rendering): they run in the SQLite run (`npm test`) only, and the PostgreSQL run
// (DATABASE_URL=postgres://…) leaves them out. test/platform/database-split.nodb.test.ts fails
// when a file's name and what it imports disagree (docs/architecture.md, "Tests").
const postgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '');

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(postgres ? ['test/**/*.nodb.test.ts'] : [])],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
