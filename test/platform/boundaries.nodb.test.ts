// The boundaries of the code (docs/architecture.md, "Areas and their manifests"): each area is used
// from outside only through its public entry, src/modules/<area>/index.ts (and src/areas.ts reads its
// manifest, area.ts); the layers every area stands on (db, platform, events, engines, worker and the
// pages' shell) import no area, nor the seed, the CLI or the app that compose them; engines stay pure
// (they import nothing of ours outside src/engines). This scans every import in src/: static,
// re-exports and dynamic ones.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#test/helpers/paths.ts';

const PACKAGE = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  imports: Record<string, string>;
};

/** `from '…'` (imports and re-exports) and `import('…')`, with the offset of each. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])([^'"]+)\1/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The repository path (posix, from the root) a specifier names, or null for a package. */
function target(fromFile: string, specifier: string): string | null {
  let absolute: string | null = null;
  if (specifier.startsWith('.')) absolute = path.resolve(path.dirname(path.join(REPO_ROOT, fromFile)), specifier);
  else if (specifier.startsWith('#')) {
    for (const [alias, folder] of Object.entries(PACKAGE.imports)) {
      const prefix = alias.replace('*', '');
      if (specifier.startsWith(prefix))
        absolute = path.resolve(REPO_ROOT, folder.replace('*', ''), specifier.slice(prefix.length));
    }
  }
  return absolute === null ? null : path.relative(REPO_ROOT, absolute).split(path.sep).join('/');
}

const areaOf = (file: string) => /^src\/modules\/([^/]+)\//.exec(file)?.[1] ?? null;

/** The layers below the areas, by folder (and the top-level files they may read: the area contract, the typed environment, the version). */
const CORE = ['src/db/', 'src/platform/', 'src/events/', 'src/engines/', 'src/worker/', 'src/pages/'];
const isCore = (file: string) => CORE.some((folder) => file.startsWith(folder));
const CORE_MAY_IMPORT = (to: string) =>
  isCore(to) || to === 'src/area.ts' || to === 'src/config.ts' || to === 'src/version.ts';

/** What one file's imports break, as `file:line: why`. */
function violations(file: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(SPECIFIER)) {
    const to = target(file, m[2]!);
    if (to === null) continue;
    const line = text.slice(0, m.index).split('\n').length;
    const say = (why: string) => found.push(`${file}:${line}: ${m[2]} — ${why}`);
    if (file.startsWith('src/engines/') && !to.startsWith('src/engines/')) {
      say('an engine is pure: it imports nothing of ours outside src/engines');
      continue;
    }
    if (isCore(file)) {
      if (!CORE_MAY_IMPORT(to)) say('db, platform, events, engines, worker and pages import no area, seed, CLI or app');
      continue;
    }
    const area = areaOf(to);
    if (area === null || areaOf(file) === area) continue;
    if (to === `src/modules/${area}/index.ts`) continue;
    if (to === `src/modules/${area}/area.ts` && file === 'src/areas.ts') continue;
    say(`another area is used through its entry, #${area}/index.ts`);
  }
  return found;
}

describe('area boundaries', () => {
  it('the scan catches the imports it forbids', () => {
    const bad: [string, string][] = [
      ['src/modules/billing/invoices/service.ts', "import { findVisibleJob } from '#crm/jobs/access.ts';"],
      ['src/modules/billing/invoices/service.ts', "export { findVisibleJob } from '#crm/jobs/access.ts';"],
      ['src/modules/billing/invoices/service.ts', "const m = await import('../../crm/jobs/repo.ts');"],
      ['src/seed/demo.ts', "import { createJob } from '#crm/jobs/service.ts';"],
      ['src/platform/mail/queue.ts', "import { crmArea } from '#crm/index.ts';"],
      ['src/events/record.ts', "import type { Job } from '#crm/index.ts';"],
      ['src/pages/layout.ts', "import { AREAS } from '#src/areas.ts';"],
      ['src/engines/pricing/engine.ts', "import { money } from '#platform/money.ts';"],
      ['src/modules/crm/area.ts', "import { billingArea } from '#billing/area.ts';"],
    ];
    for (const [file, text] of bad) expect(violations(file, text), `${file}: ${text}`).toHaveLength(1);
    const fine: [string, string][] = [
      ['src/modules/billing/invoices/service.ts', "import { findVisibleJob } from '#crm/index.ts';"],
      ['src/modules/billing/invoices/service.ts', "import { rules } from './rules.ts';"],
      ['src/modules/billing/invoices/service.ts', "import { x } from '#billing/change-orders/figures.ts';"],
      ['src/areas.ts', "import { crmArea } from '#crm/area.ts';"],
      ['src/events/payload.ts', "import { contributions } from '#src/area.ts';"],
      ['src/engines/pricing/engine.ts', "import { sum } from './rational.ts';"],
      ['src/platform/mail/queue.ts', "import { sql } from 'kysely';"],
    ];
    for (const [file, text] of fine) expect(violations(file, text), `${file}: ${text}`).toEqual([]);
  });

  it('every import in src/ keeps to the boundaries', () => {
    const offenders = sourceFiles(path.join(REPO_ROOT, 'src')).flatMap((absolute) => {
      const file = path.relative(REPO_ROOT, absolute).split(path.sep).join('/');
      return violations(file, readFileSync(absolute, 'utf8'));
    });
    expect(offenders, `Imports across a boundary:\n${offenders.join('\n')}`).toEqual([]);
  });
});
