// Builds the package for plain Node.js: dist/*.js (ES modules) and dist/*.d.ts from src/ with
// TypeScript (tsconfig.build.json), then the generated src/schema.d.ts, the source of every type,
// copied beside them as dist/schema.d.ts.
//
//   npm run build                    into dist/ (not committed)
//   node build.mjs --out-dir <dir>   elsewhere (test/clients/build.test.ts builds into a temp dir)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const at = process.argv.indexOf('--out-dir');
const outDir = path.resolve(at === -1 ? path.join(here, 'dist') : process.argv[at + 1]);

fs.rmSync(outDir, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const built = spawnSync(process.execPath, [tsc, '-p', path.join(here, 'tsconfig.build.json'), '--outDir', outDir], {
  stdio: 'inherit',
});
if (built.status !== 0) process.exit(built.status ?? 1);
fs.copyFileSync(path.join(here, 'src', 'schema.d.ts'), path.join(outDir, 'schema.d.ts'));
