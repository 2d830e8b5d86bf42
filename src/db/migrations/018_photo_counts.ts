// A workspace's photo count, kept by the database: GET /v1/photos answers `pagination.total`, and
// counting a million photos costs 60–110 ms on every call (docs/performance.md, "Photos"); the
// photo allowance (photo_limit) counted them on every upload too. Triggers keep the count, so
// every way a photo comes or goes is counted, including the rows a job's deletion cascades to.
// PostgreSQL counts per statement (a transition table), so a bulk insert adds once, not per row.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('photo_counts')
    .addColumn('firm_id', 'integer', (c) => c.primaryKey().references('firms.id'))
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();
  await sql`insert into photo_counts (firm_id, count) select firm_id, count(*) from photos group by firm_id`.execute(
    db,
  );
  if (d.engine === 'sqlite') {
    await sql`create trigger photo_counts_insert after insert on photos begin
      insert into photo_counts (firm_id, count) values (new.firm_id, 1)
        on conflict (firm_id) do update set count = count + 1;
    end`.execute(db);
    await sql`create trigger photo_counts_delete after delete on photos begin
      update photo_counts set count = count - 1 where firm_id = old.firm_id;
    end`.execute(db);
    return;
  }
  await sql`create function photo_counts_inserted() returns trigger language plpgsql as $$
    begin
      insert into photo_counts (firm_id, count)
        select firm_id, count(*) from inserted_photos group by firm_id
        on conflict (firm_id) do update set count = photo_counts.count + excluded.count;
      return null;
    end $$`.execute(db);
  await sql`create function photo_counts_deleted() returns trigger language plpgsql as $$
    begin
      update photo_counts c set count = c.count - d.n
        from (select firm_id, count(*) as n from deleted_photos group by firm_id) d
        where c.firm_id = d.firm_id;
      return null;
    end $$`.execute(db);
  await sql`create trigger photo_counts_insert after insert on photos
    referencing new table as inserted_photos for each statement execute function photo_counts_inserted()`.execute(db);
  await sql`create trigger photo_counts_delete after delete on photos
    referencing old table as deleted_photos for each statement execute function photo_counts_deleted()`.execute(db);
}
