// The job page's activity log (document 2: "Tagging and other job-page changes ... land in the
// job's activity log"). Writers call logJobActivity in the transaction of their change.
import type { Executor } from '#db/dialect.ts';
import { now } from '#platform/time.ts';

export type JobActivityKind =
  | 'tag_added'
  | 'tag_removed'
  | 'custom_fields_changed'
  | 'note_added'
  | 'activity_logged'
  | 'contact_added'
  | 'contact_removed'
  | 'task_added'
  | 'task_completed'
  | 'job_merged'
  | 'note_deleted'
  | 'task_reopened'
  | 'photo_added'
  | 'photo_share_link_changed'
  | 'photo_selection_shared'
  | 'photo_selection_revoked'
  | 'file_added'
  | 'library_file_attached'
  | 'library_file_detached'
  | 'assessment_report_shared'
  | 'assessment_report_link_revoked'
  | 'portal_message_posted'
  | 'review_requested'
  | 'review_submitted'
  | 'follow_up_sequence_started'
  | 'follow_up_sequence_stopped';

export interface JobActivityEntry {
  firmId: number;
  jobId: number;
  userId: number | null;
  kind: JobActivityKind;
  /** One readable line, e.g. `Tag "Repeat customer" added`. */
  summary: string;
  data?: Record<string, unknown>;
}

export async function logJobActivity(db: Executor, entry: JobActivityEntry): Promise<void> {
  await db
    .insertInto('job_activity')
    .values({
      firm_id: entry.firmId,
      job_id: entry.jobId,
      user_id: entry.userId,
      kind: entry.kind,
      summary: entry.summary,
      data: JSON.stringify(entry.data ?? {}),
      created_at: now(),
    })
    .execute();
}
