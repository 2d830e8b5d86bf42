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

/** Where bulk photo k's times start: photo k is taken, created and updated k seconds after this. */
export const PHOTO_EPOCH = '2025-01-01T00:00:00';

/** The stored timestamp of bulk photo k (see PHOTO_EPOCH). */
export const photoInstant = (k: number) =>
  new Date(Date.parse(`${PHOTO_EPOCH}Z`) + k * 1000).toISOString().slice(0, 19) + '.000000';

export interface PhotoSeedOptions {
  /** The jobs the photos go on, in turn: ids `first` to `first + count - 1`, all the workspace's. */
  jobs: { first: number; count: number };
  /** Photo tags to link, in turn, to every third photo (ids `first` to `first + count - 1`). */
  tags?: { first: number; count: number };
  chunk?: number;
}

/**
 * Photo rows for list benchmarks, numbered `from` to `from + count - 1` (continue the numbering to
 * grow a workspace): every NOT NULL column filled, realistic keys, captions on a third, four
 * stages, a fifth internal, a position and heading, a client_uid, and distinct times a second
 * apart, so "newest first" and updated_after windows are well defined. No stored objects: a list
 * only signs links to them. Each chunk is one INSERT … SELECT over a generated series.
 */
export async function insertPhotos(
  database: Database,
  firmId: number,
  userId: number,
  from: number,
  count: number,
  options: PhotoSeedOptions,
): Promise<void> {
  const { db } = database;
  const chunk = options.chunk ?? 50_000;
  const sqlite = database.dialect.engine === 'sqlite';
  for (let done = 0; done < count; done += chunk) {
    const size = Math.min(chunk, count - done);
    const first = from + done;
    const series = sqlite
      ? sql`with recursive s(n) as (select 0 union all select n + 1 from s where n + 1 < ${sql.lit(size)})`
      : sql`with s(n) as (select generate_series(0, ${sql.lit(size - 1)}))`;
    const k = sql`(${sql.lit(first)} + n)`;
    const at = sqlite
      ? sql`strftime('%Y-%m-%dT%H:%M:%S', ${sql.lit(PHOTO_EPOCH.replace('T', ' '))}, '+' || ${k} || ' seconds') || '.000000'`
      : sql`to_char(timestamp ${sql.lit(PHOTO_EPOCH.replace('T', ' '))} + ${k} * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.US')`;
    const key = `firms/${firmId}/photos/bench-`;
    await db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('photos')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst();
      await sql`${series}
        insert into photos (firm_id, job_id, storage_key, thumbnail_key, content_type, bytes, is_video, width, height,
          filename, caption, title, stage, visibility, include_in_report, taken_at, taken_by_user_id, latitude, longitude,
          compass_heading, sort_order, client_uid, created_at, updated_at)
        select ${sql.lit(firmId)}, ${sql.lit(options.jobs.first)} + (${k} % ${sql.lit(options.jobs.count)}),
          ${key} || ${k} || '.jpg', ${key} || ${k} || '-thumb.jpg', 'image/jpeg', 900000 + (${k} % 200000), 0, 2000, 1500,
          'IMG_' || ${k} || '.jpg',
          case ${k} % 3 when 0 then 'Edge cracking along the north drive, before crack fill' else null end, null,
          case ${k} % 4 when 0 then 'before' when 1 then 'during' when 2 then 'after' else 'general' end,
          case ${k} % 5 when 0 then 'internal' else 'external' end, case ${k} % 5 when 0 then 0 else 1 end,
          ${at}, ${sql.lit(userId)}, 39.78 + (${k} % 1000) * 0.00001, -89.65 - (${k} % 1000) * 0.00001, ${k} % 360, 0,
          'bench-' || ${k}, ${at}, ${at}
        from s`.execute(trx);
      if (options.tags) {
        const t = options.tags;
        await sql`insert into photo_tag_links (photo_id, tag_id)
          select id, ${sql.lit(t.first)} + ((id / 3) % ${sql.lit(t.count)}) from photos
          where firm_id = ${firmId} and id > ${Number(before?.id ?? 0)} and id % 3 = 0`.execute(trx);
      }
    });
  }
}
