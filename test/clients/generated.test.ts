// The typed client's committed files (clients/typescript/openapi.json and src/schema.d.ts) are
// what the generator makes from the current route schemas: a route change without
// `npm run client:generate` fails here rather than shipping a client with stale types.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateClientFiles, ROOT } from '../../scripts/generate-client.ts';

describe('generated client files', () => {
  it('match a fresh generation from the route schemas', async () => {
    const files = await generateClientFiles();
    expect(Object.keys(files).sort()).toEqual([
      'clients/typescript/openapi.json',
      'clients/typescript/src/schema.d.ts',
    ]);
    for (const [file, contents] of Object.entries(files)) {
      const full = path.join(ROOT, file);
      const committed = fs.existsSync(full) ? fs.readFileSync(full, 'utf8') : '';
      // A boolean, not a diff of megabytes: the message says what to do.
      expect(committed === contents, `${file} is stale: run \`npm run client:generate\` and commit the result`).toBe(
        true,
      );
    }
  });
});
