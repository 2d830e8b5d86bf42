// Regenerates the typed client's committed files from the server's own route schemas:
// clients/typescript/openapi.json (the document GET /v1/openapi.json serves) and
// clients/typescript/src/schema.d.ts (its types, by openapi-typescript).
//
//   node --import tsx scripts/generate-client.ts           writes both files (npm run client:generate)
//   node --import tsx scripts/generate-client.ts --check   exits 1 when they are stale (npm run client:check)
//
// The app is built in-process on an in-memory SQLite database, so generating needs no server,
// no configuration and no network, and two runs give byte-identical files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { buildApp } from '#src/app.ts';
import { openDatabase } from '#db/database.ts';
import { migrateToLatest } from '#db/migrate.ts';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const OPENAPI_FILE = 'clients/typescript/openapi.json';
export const SCHEMA_FILE = 'clients/typescript/src/schema.d.ts';

const SCHEMA_HEADER = `${COMMENT_HEADER.trimEnd()}
// From ${OPENAPI_FILE}; regenerate both with \`npm run client:generate\`.

`;

/** The OpenAPI document exactly as the server emits it (key order included). */
async function openapiDocument(): Promise<OpenAPI3> {
  const database = openDatabase(':memory:');
  // A throwaway data directory: building the app must not touch ./data.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-client-'));
  try {
    await migrateToLatest(database);
    // No admin token: the operator's /admin/v1 API is not part of the client.
    const app = await buildApp(database, {
      adminToken: null,
      rateLimit: { max: 1_000_000, windowMs: 1000 },
      logLevel: false,
      dataDir,
    });
    try {
      await app.ready();
      return app.swagger() as OpenAPI3;
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The generated files' contents by path relative to the repository root, computed in memory. */
export async function generateClientFiles(): Promise<Record<string, string>> {
  const document = await openapiDocument();
  // Serialised before openapi-typescript sees it, so its bundling cannot alter what is committed.
  const json = `${JSON.stringify(document, null, 2)}\n`;
  const ast = await openapiTS(structuredClone(document), { silent: true });
  return {
    [OPENAPI_FILE]: json,
    [SCHEMA_FILE]: `${SCHEMA_HEADER}${astToString(ast)}`,
  };
}

/** Paths whose committed contents differ from a fresh generation (missing files included). */
export async function staleClientFiles(): Promise<string[]> {
  const files = await generateClientFiles();
  return Object.entries(files)
    .filter(([file, contents]) => {
      const full = path.join(ROOT, file);
      return !fs.existsSync(full) || fs.readFileSync(full, 'utf8') !== contents;
    })
    .map(([file]) => file);
}

async function main(args: string[]): Promise<number> {
  if (args.includes('--check')) {
    const stale = await staleClientFiles();
    if (stale.length === 0) {
      console.log('Typed client files are up to date.');
      return 0;
    }
    console.error(`Stale typed client files: ${stale.join(', ')}\nRun \`npm run client:generate\` and commit them.`);
    return 1;
  }
  for (const [file, contents] of Object.entries(await generateClientFiles())) {
    fs.writeFileSync(path.join(ROOT, file), contents);
    console.log(`wrote ${file}`);
  }
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  process.exitCode = await main(process.argv.slice(2));
}
