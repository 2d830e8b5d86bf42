// MuPDF is loaded on first use, not with the server (engines/plans/mupdf.ts): in a fresh process
// that has imported the whole app, opening a plan before loadMupdf() is refused as the caller's
// mistake (a plain Error, not the NotReadablePdf a customer would be shown), and after it the
// same bytes open. A fresh process because test files share their modules (vitest.config.ts).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { REPO_ROOT } from '#test/helpers/paths.ts';

const run = promisify(execFile);

it('leaves MuPDF unloaded until a plan is opened', async () => {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'test/engines/plans/fixtures/lazy-mupdf.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: '' },
  });
  const seen = JSON.parse(stdout.trim().split('\n').pop()!);
  expect(seen.before).not.toBeNull();
  expect(seen.before.notReadable).toBe(false);
  expect(seen.before.message).toMatch(/await loadMupdf\(\)/);
  expect(seen.pagesAfter).toBe(1);
});
