// Migrations on PostgreSQL start while other sessions drop their schemas (test databases side by
// side, tenants removed): Kysely's introspection reads every schema's columns first, and a schema
// dropped in the middle of that read used to fail the start with `schema "…" does not exist`.
// Bounded: four migrations against a churn of throwaway schemas (each reads its bookkeeping tables
// many times, so four are enough to meet a drop; twelve took a minute beside the rest of the suite
// and once ran past its limit). PostgreSQL only.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '#db/database.ts';
import { migrateToLatest } from '#db/migrate.ts';

const URL_ = process.env.DATABASE_URL ?? '';
const POSTGRES = URL_.startsWith('postgres');

async function admin<T>(work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: URL_ });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

describe.runIf(POSTGRES)('migrations beside schemas being dropped', () => {
  it('every migration completes while other schemas come and go', async () => {
    let churning = true;
    const churn = admin(async (c) => {
      // Schemas with a few tables each, made and dropped as fast as the server allows.
      while (churning) {
        const name = `churn_${randomBytes(5).toString('hex')}`;
        await c.query(
          `create schema ${name}; create table ${name}.a (x int, y text, z int); create table ${name}.b (x int)`,
        );
        await c.query(`drop schema ${name} cascade`);
      }
    });
    const schemas = Array.from({ length: 4 }, () => `t_${randomBytes(6).toString('hex')}`);
    try {
      await admin((c) => c.query(schemas.map((s) => `create schema ${s};`).join('')));
      const outcomes = await Promise.allSettled(
        schemas.map(async (schema) => {
          const database = openDatabase(URL_, { schema, poolSize: 2 });
          try {
            await migrateToLatest(database);
          } finally {
            await database.close();
          }
        }),
      );
      expect(
        outcomes.filter((o) => o.status === 'rejected').map((o) => String((o as PromiseRejectedResult).reason)),
      ).toEqual([]);
    } finally {
      churning = false;
      await churn;
      // One schema per statement: a single statement dropping them all would take a lock per
      // table and index of every schema in one transaction, past the server's shared lock table.
      await admin(async (c) => {
        for (const s of schemas) await c.query(`drop schema if exists ${s} cascade`);
      });
    }
  }, 120_000);
});
