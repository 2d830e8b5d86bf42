// Volume fixtures for the benchmarks and the export tests: many jobs inserted directly,
// far faster than through the API. Each chunk is one INSERT … SELECT over a generated series (a
// recursive CTE on SQLite, generate_series on PostgreSQL); job numbers continue from the
// workspace's next_job_number, and its job_counts rows are recomputed afterwards, exactly as the
// job writes keep them.
import { sql } from 'kysely';
import type { Database } from '#db/database.ts';

export interface SeedOptions {
  /** Stored-form timestamp for created_at and updated_at. */
  at?: string;
  chunk?: number;
  /** Name of job k: `<namePrefix> <k>` (default "Seeded job"). */
  namePrefix?: string;
  /** custom_fields of every job (default {"lot_size": "large"}). */
  customFields?: string;
}

export async function insertJobs(
  database: Database,
  firmId: number,
  ownerId: number,
  count: number,
  options: SeedOptions = {},
): Promise<void> {
  const { db } = database;
  const at = options.at ?? '2026-01-01T00:00:00.000000';
  const chunk = options.chunk ?? 50_000;
  const name = options.namePrefix ?? 'Seeded job';
  const customFields = options.customFields ?? '{"lot_size": "large"}';
  for (let done = 0; done < count; done += chunk) {
    const size = Math.min(chunk, count - done);
    await db.transaction().execute(async (trx) => {
      const firm = await trx
        .selectFrom('firms')
        .select('next_job_number')
        .where('id', '=', firmId)
        .executeTakeFirstOrThrow();
      const first = firm.next_job_number;
      const series =
        database.dialect.engine === 'sqlite'
          ? sql`with recursive s(n) as (select 0 union all select n + 1 from s where n + 1 < ${sql.lit(size)})`
          : sql`with s(n) as (select generate_series(0, ${sql.lit(size - 1)}))`;
      const k = sql`(${sql.lit(first)} + n)`;
      await sql`${series}
        insert into jobs (firm_id, name, name_key, company, contact_name, contact_email, contact_phone, address, description,
          job_type, status, source, priority, estimated_value_cents, probability, measurement_count, custom_fields,
          assigned_to_user_id, job_number, description_customer_visible, created_at, updated_at)
        select ${sql.lit(firmId)}, ${`${name} `} || ${k}, ${`${name.toLowerCase()} `} || ${k}, 'Company ' || (${k} % 5000),
          'Contact ' || ${k}, 'contact' || ${k} || '@example.com', '555-0100', (${k} % 9000) || ' Main St, Springfield',
          'Parking lot sealcoating and line striping', 'Sealcoating',
          case n % 4 when 0 then 'lead' when 1 then 'active' when 2 then 'won' else 'lost' end,
          'api', 'normal', (${k} % 1000) * 10000, ${k} % 101, 0, ${customFields},
          ${sql.lit(ownerId)}, ${k}, 0, ${at}, ${at}
        from s`.execute(trx);
      await trx
        .updateTable('firms')
        .set({ next_job_number: first + size })
        .where('id', '=', firmId)
        .execute();
    });
  }
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('job_counts').where('firm_id', '=', firmId).execute();
    await sql`insert into job_counts (firm_id, status, count)
      select firm_id, status, count(*) from jobs where firm_id = ${firmId} group by firm_id, status`.execute(trx);
  });
  if (database.dialect.engine === 'postgres') await sql`analyze jobs`.execute(db);
}
