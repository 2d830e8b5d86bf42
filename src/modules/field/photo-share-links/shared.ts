// What the photo report link and the chosen-photo links share: their expiry arithmetic, their
// customer URLs, the job check, and the photo rows their pages show.
import type { Executor } from '#db/dialect.ts';
import type { Job } from '#db/tables.ts';
import { findVisibleJob, jobNotFound } from '#crm/index.ts';
import type { ServiceContext } from '#platform/context.ts';
import { millisOf, now, storedAt } from '#platform/time.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The stored instant `days` whole days from now. */
export const daysFromNow = (days: number) => storedAt(millisOf(now()) + days * DAY_MS);

/** A link with an expiry stops at that instant. */
export const isPast = (expiresAt: string | null) => expiresAt !== null && expiresAt <= now();

/** The customer URL of a link: `<origin>/share/<kind path>/<token>`. */
export const shareUrl = (origin: string, kindPath: 'photos' | 'photo-selections', token: string) =>
  `${origin}/share/${kindPath}/${token}`;

export async function visibleJob(ctx: ServiceContext, db: Executor, jobId: number): Promise<Job> {
  const job = await findVisibleJob(db, ctx.auth.firm.id, jobId, ctx.auth.user);
  if (!job) throw jobNotFound();
  return job;
}

/** A photo as a customer page shows it. */
export interface SharedPhoto {
  id: number;
  storage_key: string;
  thumbnail_key: string | null;
  content_type: string;
  is_video: number;
  title: string | null;
  caption: string | null;
  taken_at: string;
}

export const SHARED_PHOTO_COLUMNS = [
  'p.id',
  'p.storage_key',
  'p.thumbnail_key',
  'p.content_type',
  'p.is_video',
  'p.title',
  'p.caption',
  'p.taken_at',
] as const;

/** Who sent a link, for its page's header and dates. */
export interface LinkSender {
  firmName: string;
  timezone: string;
  jobName: string;
}

export async function senderOf(db: Executor, firmId: number, jobId: number): Promise<LinkSender | undefined> {
  const row = await db
    .selectFrom('jobs')
    .innerJoin('firms', 'firms.id', 'jobs.firm_id')
    .select(['firms.name as firm_name', 'firms.timezone', 'jobs.name as job_name'])
    .where('jobs.id', '=', jobId)
    .where('jobs.firm_id', '=', firmId)
    .executeTakeFirst();
  return row && { firmName: row.firm_name, timezone: row.timezone, jobName: row.job_name };
}
