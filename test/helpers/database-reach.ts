// Which test files can touch a database: a static walk of the import graph (type-only imports do
// not count, since they are erased). A file reaches the database when something it imports,
// however indirectly, is a database driver, builds the app or starts another process (a server,
// a CLI) that may open one. `*.nodb.test.ts` files must reach none of them, and every other test
// file must reach one: test/platform/database-split.nodb.test.ts holds the suite to that, and
// vitest.config.ts leaves the `.nodb` files out of the PostgreSQL run.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from './paths.ts';

/** What counts as touching a database: drivers, the app, and child processes. */
export const DATABASE_MODULES: Readonly<Record<string, string>> = {
  pg: 'the PostgreSQL driver',
  'better-sqlite3': 'the SQLite driver',
  'node:child_process': 'starts a process (a server or CLI may open a database)',
  child_process: 'starts a process (a server or CLI may open a database)',
  'src/db/database.ts': 'opens a database',
  'src/app.ts': 'builds the app',
  'test/helpers/harness.ts': 'the test harness: a real app on a fresh database',
};

/** The `.nodb.test.ts` suffix marks a database-free test file. */
export const DATABASE_FREE = /\.nodb\.test\.ts$/;

/**
 * The `.sqlite.test.ts` suffix marks a file whose databases are SQLite ones of its own, whatever the
 * run's DATABASE_URL: files it names itself, and child processes (`serve`, the CLI) it gives their
 * own DATABASE_URL. It runs the same on both runs, so like `.nodb` it runs in the SQLite run only.
 * It may not reach the harness (whose database is the run's); database-split.nodb.test.ts checks.
 */
export const SQLITE_ONLY = /\.sqlite\.test\.ts$/;

/** What follows the run's DATABASE_URL, which a `.sqlite.test.ts` file may not reach. */
export const RUN_DATABASE: Readonly<Record<string, string>> = {
  'test/helpers/harness.ts': "the test harness: the run's database",
};

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  imports: Record<string, string>;
};

/** The repo-relative file a specifier names, a bare package name, or null for what is not followed. */
function resolve(specifier: string, from: string): string | null {
  if (specifier.startsWith('#')) {
    for (const [pattern, target] of Object.entries(pkg.imports)) {
      const prefix = pattern.slice(0, -1);
      if (pattern.endsWith('*') && specifier.startsWith(prefix)) {
        return path.posix.normalize(target.slice(0, -1).replace(/^\.\//, '') + specifier.slice(prefix.length));
      }
      if (pattern === specifier) return path.posix.normalize(target.replace(/^\.\//, ''));
    }
    return null;
  }
  if (specifier.startsWith('.')) {
    return path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  }
  if (specifier.startsWith('node:')) return specifier;
  // A bare package: its name (with scope), not followed into node_modules.
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return name;
}

/** The value imports of a file (static, re-exports and literal dynamic imports). */
function valueImports(file: string): string[] {
  const text = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) found.push(node.moduleSpecifier.text);
      return;
    }
    if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!node.isTypeOnly) found.push(node.moduleSpecifier.text);
      return;
    }
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments.length > 0 &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const edges = new Map<string, string[]>();

function importsOf(file: string): string[] {
  let list = edges.get(file);
  if (!list) {
    list = [];
    if (/\.[cm]?[jt]s$/.test(file) && fs.existsSync(path.join(REPO_ROOT, file))) {
      for (const specifier of valueImports(file)) {
        const target = resolve(specifier, file);
        if (target) list.push(target);
      }
    }
    edges.set(file, list);
  }
  return list;
}

/**
 * The import chain from `file` (repo-relative) to the first module of `modules` (DATABASE_MODULES
 * unless given) it reaches, or null when it reaches none.
 */
export function databaseReach(
  file: string,
  modules: Readonly<Record<string, string>> = DATABASE_MODULES,
): string[] | null {
  const seen = new Set<string>([file]);
  const queue: string[][] = [[file]];
  for (let chain = queue.shift(); chain !== undefined; chain = queue.shift()) {
    const here = chain[chain.length - 1];
    if (chain.length > 1 && here in modules) return chain;
    for (const next of importsOf(here)) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push([...chain, next]);
      }
    }
  }
  return null;
}
