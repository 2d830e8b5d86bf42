// The one interface every area stores files and photos through. Two adapters implement it:
// local.ts (the embedded default: files under GROUNDWORK_DATA_DIR, links served by this server)
// and s3.ts (S3-compatible object storage, presigned links); select.ts picks one per process and
// it reaches services as `ctx.deps.storage`.
//
// Keys are chosen by the callers and namespaced per workspace: `firms/<firm id>/<kind>/<random>`
// (for example `firms/12/photos/3f9a….jpg`), so one workspace's objects can be listed, moved or
// removed together and a key never names another workspace's object. keys.ts says which keys
// are valid; a key names one object and is never also the folder of other keys.
//
// Storage is an outside service: never call it while a database transaction is open (a slow or
// failing store would hold the workspace's lock). The pattern, for every record with objects:
//   1. put the object under a fresh random key (no transaction open);
//   2. insert the record naming the key, in a transaction;
//   3. if that transaction fails, delete the object (best effort) and rethrow.
// Deleting: remove the record in a transaction, then delete its objects after the commit. A crash
// between the steps leaves an object no record names (never a record without its object); those
// orphans are harmless and a sweeper can remove them later (not built yet).
import type { Readable } from 'node:stream';
import type { OpenedLink, ObjectLink } from './link.ts';

export interface PutOptions {
  /** The object's media type (S3 keeps it; the local adapter serves what each link says). */
  contentType: string;
  /** Refuse a body longer than this (ObjectTooLarge), leaving nothing stored. */
  maxBytes?: number;
}

export interface LinkOptions {
  /** How long the link works: 1 second to 7 days (S3's limit, kept for both adapters). */
  expiresInSeconds: number;
  /** The name a browser saves the file as (Content-Disposition); sanitised, any Unicode. */
  filename?: string;
  /** The Content-Type the link answers with (local: application/octet-stream when not given). */
  contentType?: string;
  /** inline: shown in the browser (photos); attachment: downloaded. */
  disposition: 'inline' | 'attachment';
}

export interface SignedUrl {
  /** Absolute and keyless: whoever holds it can read the object until `expiresAt`. */
  url: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export interface Storage {
  readonly kind: 'local' | 's3';
  /**
   * Streams `body` to `key` (replacing an object there) and says how many bytes it stored. The
   * object is visible only once complete. Failures: ObjectTooLarge, InvalidStorageKey, the 503
   * storage_unavailable ApiError (errors.ts); an error of the body stream itself is rethrown as it
   * came. On any failure nothing is left under the key, and a body stream not read to its end is
   * detached and drained (so a request body still completes and its answer can be sent).
   */
  put(key: string, body: Readable | Buffer, options: PutOptions): Promise<{ bytes: number }>;
  /** The object's bytes as a stream; ObjectNotFound when there is none. */
  get(key: string): Promise<Readable>;
  /** Removes the object; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** A keyless link to the object; `base` is this server's origin as the caller saw it (`https://host`). */
  signedUrl(key: string, options: LinkOptions, base: string): Promise<SignedUrl>;
  /**
   * Opens a link this server signed (GET /v1/objects/{signature}); only adapters whose links
   * point at this server have it. Refusals are ApiErrors (403 link_invalid / link_expired, 404).
   */
  openLink?(link: ObjectLink): Promise<OpenedLink>;
}
