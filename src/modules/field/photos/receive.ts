// How photos arrive, for every route that takes them (a job's photos, a pin's photos): JSON with a
// public url, fetched and stored here, or a multipart form whose files were stored as they streamed
// in (upload.ts). What was sent is checked whole before anything is recorded, and a refused form
// keeps none of its stored files. The route only says which of the two came (upload.ts sentPhotos).
import type { ServiceContext } from '#platform/context.ts';
import { storeFromUrl } from './from-url.ts';
import type { PhotoFields, PhotoObject, UrlUploadInput } from './schemas.ts';
import { checkFields, preflightUpload, recordPhotoUpload, removeQuietly, type StoredUpload } from './service.ts';
import { fileAndUrl, type MultipartUpload, noPhoto, type SentPhotos } from './upload.ts';

/** The JSON form with its url (a body without one sent no photo). */
function isUrlUpload(body: unknown): body is UrlUploadInput & { url: string } {
  return typeof body === 'object' && body !== null && 'url' in body && typeof body.url === 'string';
}

/** What else a route refuses of a form with its files (a pin's: client_uid with several). */
export type FormRule = (form: MultipartUpload) => void;

/** The stored photos and their fields; every file of a refused form is removed again. */
export async function receivePhotos(
  ctx: ServiceContext,
  sent: SentPhotos,
  rule?: FormRule,
): Promise<{ stored: StoredUpload[]; fields: PhotoFields }> {
  if (sent.kind === 'json') {
    if (!isUrlUpload(sent.body)) throw noPhoto();
    const { url, ...fields } = sent.body;
    checkFields(fields);
    return { stored: [await storeFromUrl(ctx, url)], fields };
  }
  const form = await sent.read();
  try {
    if (form.files.length > 0 && form.url !== undefined) throw fileAndUrl();
    if (form.files.length === 0) throw noPhoto();
    rule?.(form);
    checkFields(form.fields);
  } catch (err) {
    await removeQuietly(
      ctx,
      form.files.map((f) => f.key),
    );
    throw err;
  }
  return { stored: form.files, fields: form.fields };
}

/**
 * POST /v1/jobs/{job_id}/photos: the job first (404 before a byte is stored) and room for one more,
 * then what was sent, then the record. Answers the photo and whether it is new (false: a repeated
 * client_uid's earlier photo).
 */
export async function uploadJobPhoto(
  ctx: ServiceContext,
  jobId: number,
  sent: SentPhotos,
  base: string,
): Promise<{ data: PhotoObject; created: boolean }> {
  await preflightUpload(ctx, jobId);
  const { stored, fields } = await receivePhotos(ctx, sent);
  return recordPhotoUpload(ctx, jobId, stored[0]!, fields, base);
}
