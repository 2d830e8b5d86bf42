// Vitest globalSetup (vitest.config.ts): on a PostgreSQL run, migrates one template database before
// any test file starts, and drops it when the run ends. The harness (freshDatabase) then gives each
// test file a copy of it (CREATE DATABASE … TEMPLATE: the server copies the files, a fraction of a
// second) instead of creating a schema and running every migration in it (about a second of work
// for this process and the server, per app a test starts). The migrations still run: here, once
// per run, and again on each copy as every start runs them (finding nothing to do), and the
// migration tests (test/db) migrate databases of their own from nothing. A SQLite run does nothing here.
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { isPostgresUrl } from '#src/config.ts';
import { openDatabase } from '#db/database.ts';
import { migrateToLatest } from '#db/migrate.ts';
import { adminQuery, whenUnused, withDatabase } from './postgres-admin.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated template database each test file's database is copied from; null on SQLite. */
    postgresTemplate: string | null;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const url = process.env.DATABASE_URL;
  if (!url || !isPostgresUrl(url)) {
    project.provide('postgresTemplate', null);
    return undefined;
  }
  const name = `groundwork_template_${randomBytes(5).toString('hex')}`;
  await adminQuery(url, `create database ${name}`);
  const drop = () => whenUnused(url, `drop database if exists ${name}`);
  try {
    // Opened as the harness opens each copy (schema public), so the copies need nothing more.
    const database = openDatabase(withDatabase(url, name), { schema: 'public' });
    try {
      await migrateToLatest(database);
    } finally {
      await database.close();
    }
  } catch (err) {
    await drop();
    throw err;
  }
  project.provide('postgresTemplate', name);
  return drop;
}
