// Route handlers are typed from their schemas (docs/architecture.md, GUIDE "Shape of the code"):
// no handler casts request data. This scans src/ for casts of request.body / query / params, and
// for `as {…}` applied to request data that a destructuring or an alias carries on.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#test/helpers/paths.ts';

const REQUEST_PART = String.raw`request\s*\.\s*(?:body|query|params)`;
/** `request.body as …`, `(request.query) as …`, `<T>request.params` (type assertions of request data). */
const DIRECT_CAST = new RegExp(String.raw`${REQUEST_PART}\s*\)?\s*as\b|<[^<>]+>\s*${REQUEST_PART}`);
/** `const x = request.body …` followed (in the same statement) by `as {`. */
const STATEMENT_CAST = new RegExp(String.raw`=\s*[^;]*${REQUEST_PART}[^;]*\bas\s*\{`);
/** Aliases of request data cast later: `const body = request.body;` … `body as {`. */
const ALIAS = new RegExp(String.raw`(?:const|let)\s+(\w+)\s*=\s*${REQUEST_PART}\s*;`, 'g');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Offending statements of one file, as `path:line: text`. */
function castsOfRequestData(file: string, text: string): string[] {
  const found: string[] = [];
  const report = (index: number) => {
    const line = text.slice(0, index).split('\n').length;
    found.push(`${file}:${line}: ${text.split('\n')[line - 1]!.trim()}`);
  };
  // Statements, roughly: split on ; and blank-line boundaries, keeping offsets.
  const statement = /[^;]+;?/g;
  for (let m = statement.exec(text); m; m = statement.exec(text)) {
    const s = m[0];
    const hit = DIRECT_CAST.exec(s) ?? STATEMENT_CAST.exec(s);
    if (hit) report(m.index + hit.index);
  }
  for (const alias of text.matchAll(ALIAS)) {
    const cast = new RegExp(String.raw`\b${alias[1]}\s*\)?\s*as\s*\{`, 'g');
    cast.lastIndex = alias.index!;
    const later = cast.exec(text);
    if (later) report(later.index);
  }
  return found;
}

describe('typed routes', () => {
  it('the scan catches the shapes it looks for', () => {
    const samples = [
      'const q = request.query as { limit?: number };',
      'const { id } = (request.params as { id: number });',
      'await f(ctx, request.body as never);',
      'const x = (request.body) as Input;',
      'const body = request.body;\nconst y = body as { a: number };',
      'const { a } = request.body\n  as { a: string };',
    ];
    for (const sample of samples) expect(castsOfRequestData('sample.ts', sample), sample).toHaveLength(1);
    expect(
      castsOfRequestData(
        'ok.ts',
        'const { id } = request.params;\nconst t = 1 as const;\nconst page = pageOf(request.query);',
      ),
    ).toEqual([]);
  });

  it('no source file casts request.body, query or params', () => {
    const root = path.join(REPO_ROOT, 'src');
    const offenders = sourceFiles(root).flatMap((file) =>
      castsOfRequestData(path.relative(REPO_ROOT, file), readFileSync(file, 'utf8')),
    );
    expect(
      offenders,
      `Casts of request data (type the route from its schemas instead):\n${offenders.join('\n')}`,
    ).toEqual([]);
  });
});
