// The data directory of a dependency bag built without one (src/platform/deps.ts, buildDeps): a
// temporary directory named for it alone and made only by what writes there first; an app built
// on such a bag removes it when it closes (src/app.ts), so test runs leave no directories behind.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '#src/app.ts';
import { openDatabase } from '#db/database.ts';
import { migrateToLatest } from '#db/migrate.ts';
import { buildDeps } from '#platform/deps.ts';

describe('a data directory nobody named', () => {
  it('is a new temporary path of its own, not made until something writes there', () => {
    const a = buildDeps().dataDir;
    const b = buildDeps().dataDir;
    expect(a).not.toBe(b);
    expect(path.dirname(a)).toBe(os.tmpdir());
    expect(fs.existsSync(a)).toBe(false);
  });

  it('an app built on one closes cleanly with nothing written there; a named one stays', async () => {
    const database = openDatabase(':memory:');
    await migrateToLatest(database);
    const named = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-named-'));
    try {
      const before = new Set(fs.readdirSync(os.tmpdir()));
      const config = { adminToken: null, rateLimit: { max: 1000, windowMs: 1000 }, logLevel: false as const };
      const app = await buildApp(database, config);
      const own = fs.readdirSync(os.tmpdir()).filter((n) => !before.has(n) && n.startsWith('groundwork-data-'));
      // Named, not made: the app writes nothing there until mail, a file or an export needs it.
      expect(own).toEqual([]);
      const kept = await buildApp(database, { ...config, dataDir: named });
      await kept.close();
      expect(fs.existsSync(named)).toBe(true);
      await app.close();
    } finally {
      fs.rmSync(named, { recursive: true, force: true });
      await database.close();
    }
  });
});
