// Portal message queries: the most recent messages of jobs, and one insert both sides use.
import type { Insertable } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { PortalMessageTable } from '#db/tables.ts';
import type { PortalMessage } from './serialize.ts';

/** The most recent `limit` messages of the job, oldest first. */
export async function recentMessages(db: Executor, firmId: number, jobId: number, limit: number) {
  const rows = await db
    .selectFrom('portal_messages')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('job_id', '=', jobId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse() as PortalMessage[];
}

export function insertMessage(db: Executor, row: Insertable<PortalMessageTable>): Promise<PortalMessage> {
  return db
    .insertInto('portal_messages')
    .values(row)
    .returningAll()
    .executeTakeFirstOrThrow() as Promise<PortalMessage>;
}
