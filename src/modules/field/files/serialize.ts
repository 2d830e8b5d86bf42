// A file as the API shows it (document 3, File). signed_url and signed_url_expires_at are set by
// GET /v1/files/{id} only, attachment by a job's list for its library files; elsewhere null.
import { storedOneOf } from '#platform/schemas.ts';
import type { SignedUrl } from '#platform/storage/storage.ts';
import { zWire } from '#platform/time.ts';
import type { AttachedFileRow, FileRow } from './repo.ts';
import { AUDIENCES, SOURCES, type FileObject } from './schemas.ts';

export const downloadPath = (id: number) => `/v1/files/${id}/download`;

const isAttached = (row: FileRow): row is AttachedFileRow => 'attachment_id' in row;

export function fileObject(row: FileRow | AttachedFileRow, signed: SignedUrl | null = null): FileObject {
  return {
    id: row.id,
    filename: row.filename,
    content_type: row.content_type,
    size_bytes: row.size_bytes,
    description: row.description,
    document_type: row.document_type,
    source: storedOneOf(SOURCES, row.source),
    audience: storedOneOf(AUDIENCES, row.audience),
    customer_visible: Boolean(row.customer_visible),
    job_id: row.job_id,
    client_account_id: row.client_account_id,
    contact_id: row.contact_id,
    work_order_id: row.work_order_id,
    folder: row.folder_id === null ? null : { id: row.folder_id, name: row.folder_name ?? '' },
    uploaded_by: row.uploaded_by_user_id === null ? null : { id: row.uploaded_by_user_id, name: row.by_name ?? '' },
    download_url: downloadPath(row.id),
    signed_url: signed?.url ?? null,
    signed_url_expires_at: signed ? zWire(new Date(signed.expiresAt).toISOString()) : null,
    attachment: isAttached(row)
      ? {
          id: row.attachment_id,
          job_id: row.attachment_job_id,
          attached_by_rule: row.attached_by_rule,
          created_at: zWire(row.attached_at),
        }
      : null,
    created_at: zWire(row.created_at),
  };
}
