// What storage calls fail with. Callers handle two cases themselves: ObjectTooLarge (their 413,
// worded for their record) and ObjectNotFound (usually their 404). Everything else an adapter
// meets (S3 unreachable or refusing, a full or read-only disk) is the 503 storage_unavailable
// answer with retryable: true, so a client knows to try again and nothing was saved.
import { ApiError } from '#platform/errors.ts';

export class ObjectTooLarge extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`The object is larger than ${limit} bytes`);
    this.name = 'ObjectTooLarge';
    this.limit = limit;
  }
}

export class ObjectNotFound extends Error {
  constructor(key: string) {
    super(`No object is stored under ${key}`);
    this.name = 'ObjectNotFound';
  }
}

/** A caller's bug (a key outside keys.ts's rule), never the client's: it is not turned into a 4xx. */
export class InvalidStorageKey extends Error {
  constructor(key: unknown, why: string) {
    super(`Invalid storage key ${JSON.stringify(String(key).slice(0, 80))}: ${why}`);
    this.name = 'InvalidStorageKey';
  }
}

/** The 503 a caller throws when storage fails; the adapter's error stays on `cause` for the log. */
export function storageUnavailable(cause?: unknown): ApiError {
  const error = new ApiError(503, 'Storage unavailable', {
    code: 'storage_unavailable',
    retryable: true,
    message: 'File storage could not be reached; nothing was saved. Try again shortly',
  });
  if (cause !== undefined) error.cause = cause;
  return error;
}

export const isStorageUnavailable = (err: unknown): err is ApiError =>
  err instanceof ApiError && err.body.code === 'storage_unavailable';

/**
 * Storage's own errors (and ApiErrors) pass through; anything else an adapter or a stream from
 * `get` throws becomes the 503. Adapters call it on every failure; callers may use it when an
 * object stream breaks mid-way.
 */
export function asStorageError(err: unknown): Error {
  if (
    err instanceof ObjectTooLarge ||
    err instanceof ObjectNotFound ||
    err instanceof InvalidStorageKey ||
    err instanceof ApiError
  )
    return err;
  return storageUnavailable(err);
}
