// The embedded default: objects are files under <dataDir>/objects/<key>, served by this server at
// keyless signed links (link.ts, routes.ts). A put writes a temporary file beside the object and
// renames it into place once complete, so a reader never sees half an object and a failed put
// leaves nothing (no fsync: a crash may lose a just-stored object, never expose a partial one).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { Clock } from '#platform/clock.ts';
import { ApiError, forbidden, notFound } from '#platform/errors.ts';
import { zWire } from '#platform/time.ts';
import { countedBody } from './body.ts';
import { asStorageError, InvalidStorageKey, ObjectNotFound, storageUnavailable } from './errors.ts';
import { assertValidKey } from './keys.ts';
import { checkLinkOptions } from './link-options.ts';
import { linkUrl, signatureMatches, signLink, type ObjectLink, type OpenedLink } from './link.ts';
import { secretSource } from './secret.ts';
import type { LinkOptions, PutOptions, SignedUrl, Storage } from './storage.ts';

export interface LocalStorageOptions {
  dataDir: string;
  clock: Clock;
  /** GROUNDWORK_STORAGE_SECRET; null keeps a generated one in the data directory. */
  secret?: string | null;
}

const code = (err: unknown) => (err as NodeJS.ErrnoException | null)?.code;
/** A path component that is a file, or an object that is a folder: the key collides with others. */
const COLLISION = new Set(['ENOTDIR', 'EISDIR', 'EEXIST']);

export class LocalStorage implements Storage {
  readonly kind = 'local';
  readonly root: string;
  private readonly clock: Clock;
  private readonly secret: () => Promise<Buffer>;

  constructor(options: LocalStorageOptions) {
    this.root = path.resolve(options.dataDir, 'objects');
    this.clock = options.clock;
    this.secret = secretSource(options.dataDir, options.secret);
  }

  /** The file of a key; keys.ts already keeps it inside the root, and this checks again. */
  pathOf(key: string): string {
    assertValidKey(key);
    const file = path.join(this.root, ...key.split('/'));
    if (!file.startsWith(this.root + path.sep)) throw new InvalidStorageKey(key, 'leaves the objects folder');
    return file;
  }

  async put(key: string, body: Readable | Buffer, options: PutOptions): Promise<{ bytes: number }> {
    const file = this.pathOf(key);
    const counted = countedBody(body, options.maxBytes);
    const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      await pipeline(counted.stream, fs.createWriteStream(temp, { flags: 'wx' }));
      await fs.promises.rename(temp, file);
      return { bytes: counted.bytes() };
    } catch (err) {
      counted.release();
      await fs.promises.rm(temp, { force: true }).catch(() => {});
      const stopped = counted.bodyError();
      if (stopped) throw stopped;
      if (COLLISION.has(code(err) ?? '') && (await this.rootExists()))
        throw new InvalidStorageKey(key, 'collides with another key');
      throw asStorageError(err);
    }
  }

  /** Whether the objects folder itself is there (else a path error is the data directory's, a 503). */
  private async rootExists(): Promise<boolean> {
    return (await fs.promises.stat(this.root).catch(() => null))?.isDirectory() ?? false;
  }

  async get(key: string): Promise<Readable> {
    return (await this.open(key)).createReadStream();
  }

  private async open(key: string): Promise<fs.promises.FileHandle> {
    const file = this.pathOf(key);
    try {
      return await fs.promises.open(file, 'r');
    } catch (err) {
      if (code(err) === 'ENOENT' || code(err) === 'ENOTDIR' || code(err) === 'EISDIR') {
        // Deleting removes an object, never the folders: with no objects folder, or an empty one
        // (a network share not mounted on its mount point), the store is out, not the object gone.
        if (!(await this.holdsObjects())) throw storageUnavailable(err);
        throw new ObjectNotFound(key);
      }
      throw asStorageError(err);
    }
  }

  /** Whether the objects folder is there with something in it. */
  private async holdsObjects(): Promise<boolean> {
    const entries = await fs.promises.readdir(this.root).catch(() => null);
    return entries !== null && entries.length > 0;
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    try {
      await fs.promises.rm(file, { force: true });
    } catch (err) {
      if (code(err) === 'ENOTDIR') return;
      throw asStorageError(err);
    }
  }

  async signedUrl(key: string, options: LinkOptions, base: string): Promise<SignedUrl> {
    assertValidKey(key);
    const checked = checkLinkOptions(options);
    const expires = Math.floor(this.clock.now() / 1000) + checked.expiresInSeconds;
    const fields = {
      key,
      expires,
      type: checked.contentType ?? 'application/octet-stream',
      disposition: checked.dispositionHeader,
    };
    const secret = await this.secret().catch((err) => {
      throw asStorageError(err);
    });
    return { url: linkUrl(base, { ...fields, signature: signLink(secret, fields) }), expiresAt: expires * 1000 };
  }

  /**
   * A signed link's object. A bad signature and an expired link are both 403 (as S3 answers its
   * presigned links), told apart by code; a good link to an object since deleted is 404, and 503
   * storage_unavailable while the objects folder itself is missing or empty (open above).
   */
  async openLink(link: ObjectLink): Promise<OpenedLink> {
    const secret = await this.secret().catch((err) => {
      throw asStorageError(err);
    });
    if (!signatureMatches(secret, link)) {
      throw forbidden('Invalid link', {
        code: 'link_invalid',
        message: 'This link is not valid: it was changed or not made by this server',
      });
    }
    const remaining = link.expires - Math.floor(this.clock.now() / 1000);
    if (remaining <= 0) {
      throw new ApiError(403, 'Link expired', {
        code: 'link_expired',
        message: 'This link has expired; ask for a new one',
        expired_at: zWire(new Date(link.expires * 1000).toISOString()),
      });
    }
    let handle: fs.promises.FileHandle;
    try {
      // Opened before answering, so a delete during the download does not cut it short.
      handle = await this.open(link.key);
    } catch (err) {
      if (err instanceof ObjectNotFound || err instanceof InvalidStorageKey)
        throw notFound('Object not found', { message: 'The file behind this link has been deleted' });
      throw err;
    }
    const { size } = await handle.stat().catch(async (err) => {
      await handle.close();
      throw asStorageError(err);
    });
    return {
      body: handle.createReadStream(),
      bytes: size,
      contentType: link.type,
      disposition: link.disposition,
      remainingSeconds: remaining,
    };
  }
}
