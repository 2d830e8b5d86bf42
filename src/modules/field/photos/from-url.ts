// The JSON form of POST /v1/jobs/{job_id}/photos: the photo copied in from a public https url
// (document 3: "public https image file, up to 15 MB; private networks refused"). Fetched through
// platform/outbound-fetch.ts, sniffed from its first bytes (a page or a video is not an image,
// whatever its Content-Type says) and streamed to storage with the 15 MB cap enforced as it
// arrives. Runs before any transaction: the record is written afterwards by recordPhotoUpload.
import type { ServiceContext } from '#platform/context.ts';
import { unprocessable } from '#platform/errors.ts';
import { FetchFailed, fetchPublic } from '#platform/outbound-fetch.ts';
import { IMAGE_MAX_BYTES } from './limits.ts';
import { SNIFF_BYTES, sniff } from '#platform/imagery/sniff.ts';
import { type StoredUpload, storeUpload } from './service.ts';
import { peek } from './upload.ts';

export const couldNotFetch = (reason: string) =>
  unprocessable('Could not fetch url', { code: 'url_fetch_failed', message: reason });
export const notAnImage = () =>
  unprocessable('url is not an image', {
    code: 'url_not_image',
    message: 'The url did not answer a JPEG, PNG, WebP, GIF or HEIC image',
  });
export const imageTooLarge = () =>
  unprocessable('Image too large', {
    code: 'image_too_large',
    message: `Images from a url may be at most ${IMAGE_MAX_BYTES / 1024 / 1024} MB`,
  });

export async function storeFromUrl(ctx: ServiceContext, url: string): Promise<StoredUpload> {
  let fetched: Awaited<ReturnType<typeof fetchPublic>>;
  try {
    fetched = await fetchPublic(url, { allowPrivate: ctx.deps.outbound.allowPrivateNetwork });
  } catch (err) {
    if (err instanceof FetchFailed) throw couldNotFetch(err.message);
    throw err;
  }
  // An announced size over the cap is refused before a byte is stored.
  if (fetched.announcedBytes !== null && fetched.announcedBytes > IMAGE_MAX_BYTES) {
    fetched.body.destroy();
    throw imageTooLarge();
  }
  let head: Buffer;
  let body: typeof fetched.body;
  try {
    ({ head, body } = await peek(fetched.body, SNIFF_BYTES));
  } catch (err) {
    throw couldNotFetch((err as Error).message || 'The download broke off');
  }
  const sniffed = sniff(head);
  if (!sniffed || sniffed.kind === 'video') {
    body.destroy();
    fetched.body.destroy();
    throw notAnImage();
  }
  try {
    return await storeUpload(ctx, body, sniffed, imageTooLarge);
  } catch (err) {
    // The source's own failure midway (reset, timeout) is the url's fault, not storage's.
    if (err instanceof Error && !('status' in err)) throw couldNotFetch(err.message || 'The download broke off');
    throw err;
  }
}
