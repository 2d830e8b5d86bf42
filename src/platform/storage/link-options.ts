// A link request checked and put in the form both adapters send: the expiry in bounds, a media
// type that cannot smuggle a header, and the Content-Disposition header (disposition.ts).
import { contentDisposition } from './disposition.ts';
import type { LinkOptions } from './storage.ts';

/** S3 presigned links last at most 7 days; the local adapter keeps the same bound. */
export const MAX_LINK_SECONDS = 7 * 24 * 60 * 60;

/** type/subtype with optional parameters, all tokens (no quotes, no line breaks). */
const MEDIA_TYPE =
  /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+(\s*;\s*[A-Za-z0-9!#$&^_.+-]+=[A-Za-z0-9!#$&^_.+-]+)*$/;

export interface CheckedLink {
  expiresInSeconds: number;
  contentType: string | undefined;
  disposition: 'inline' | 'attachment';
  /** The whole Content-Disposition header value. */
  dispositionHeader: string;
}

export function checkLinkOptions(options: LinkOptions): CheckedLink {
  const { expiresInSeconds, contentType, disposition } = options;
  if (!Number.isInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > MAX_LINK_SECONDS)
    throw new RangeError(`expiresInSeconds must be a whole number from 1 to ${MAX_LINK_SECONDS}`);
  if (contentType !== undefined && (contentType.length > 200 || !MEDIA_TYPE.test(contentType)))
    throw new RangeError(`contentType ${JSON.stringify(contentType)} is not a media type`);
  if (disposition !== 'inline' && disposition !== 'attachment')
    throw new RangeError('disposition must be inline or attachment');
  return {
    expiresInSeconds,
    contentType,
    disposition,
    dispositionHeader: contentDisposition(disposition, options.filename),
  };
}
