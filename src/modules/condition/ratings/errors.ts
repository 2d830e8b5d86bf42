// The condition-rating errors (document 3's error table, "condition ratings"): every one is
// `{error, code}` (plus a message saying what to do), with the status the table gives. 401, the
// 402/403 plan errors and 429 keep the standard format (document 3: "use the standard format
// without code"), so they are not here.
import { ApiError, type ErrorCode } from '#platform/errors.ts';

const rated = (status: number, code: ErrorCode, message: string, extra: Record<string, unknown> = {}) =>
  new ApiError(status, code, { code, message, ...extra });

export const missingImage = () =>
  rated(
    400,
    'missing_image',
    'Send exactly one image source: image (a file, base64 or a data URI), image_url, or a place (polygon, lat and lng, or address)',
  );

/** A body the rating cannot use (a field of the wrong type or out of range, two image sources). */
export const invalidRequest = (message: string, field?: string) =>
  rated(400, 'invalid_request', message, field === undefined ? {} : { field });

export const invalidImage = (message: string) => rated(400, 'invalid_image', message);

export const imageTooLarge = (message: string) => rated(413, 'image_too_large', message);

export const noPavementVisible = (visiblePct: number) =>
  rated(
    422,
    'no_pavement_visible',
    `Only ${visiblePct}% of the image looks like pavement: send a photo or a place where the pavement fills most of the view`,
    { visible_pavement_pct: visiblePct },
  );

export const imageRejected = (message: string) => rated(422, 'image_rejected', message);

export const ratingFailed = (message: string) => rated(502, 'rating_failed', message);

export const upgradeRequired = () =>
  rated(
    403,
    'upgrade_required',
    "Premium imagery needs a plan that includes it (the workspace's premium_imagery_enabled setting): use imagery_source standard",
  );
