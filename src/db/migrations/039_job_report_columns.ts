// Columns the owner reports group and filter jobs by (docs/reports.md, "Job reports";
// crm/jobs/report-columns.ts keeps them from here on): the address's ZIP and city, when the job was
// decided (entered a won, lost or excluded stage) and when it was bid (its first proposal sent).
// Existing jobs are filled: ZIP and city read from their addresses, bid_at from their proposals,
// decided_at from the latest decision event in the feed, else the job's last update.
import { type Kysely, sql } from 'kysely';
import { addressParts } from '#platform/address-parts.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('address_zip', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('address_city', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('decided_at', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('bid_at', 'text').execute();

  // Addresses in pages of 1,000, so a large workspace is not read into memory at once.
  for (let after = 0; ; ) {
    const rows: { id: number; address: string }[] = await db
      .selectFrom('jobs')
      .select(['id', 'address'])
      .where('address', 'is not', null)
      .where('id', '>', after)
      .orderBy('id')
      .limit(1000)
      .execute();
    if (rows.length === 0) break;
    for (const r of rows) {
      const parts = addressParts(r.address);
      if (parts.address_zip !== null || parts.address_city !== null)
        await db.updateTable('jobs').set(parts).where('id', '=', r.id).execute();
    }
    after = rows[rows.length - 1]!.id;
  }
  await sql`update jobs set bid_at = (select min(p.sent_at) from proposals p where p.job_id = jobs.id)`.execute(db);
  await sql`update jobs set decided_at = coalesce(
      (select max(e.occurred_at) from events e
        where e.job_id = jobs.id and e.in_feed = 1 and e.event_type in ('job_won', 'job_lost', 'job_cancelled')),
      jobs.updated_at)
    where exists (select 1 from job_stages s
      where s.firm_id = jobs.firm_id and s.key = jobs.status and s.type in ('won', 'lost', 'excluded'))`.execute(db);

  // Whether a workspace uses the leads pipeline (the lead-pipeline report is listed only then): a
  // lookup of its first lead on the pipeline, not a walk of its leads.
  await sql`create index leads_on_pipeline on leads (firm_id) where on_leads_pipeline = 1`.execute(db);
  for (const col of ['created_at', 'bid_at', 'decided_at'])
    await db.schema.createIndex(`jobs_firm_${col}`).on('jobs').columns(['firm_id', col]).execute();
}
