// The production adapter: S3 or any S3-compatible service (MinIO, R2, Ceph …). Bodies of unknown
// length stream through lib-storage's Upload (one PUT for a small body, a multipart upload for a
// large one, a few 5 MB parts in memory at a time), counted on the way (body.ts); a failed or
// oversized upload is aborted and the key deleted, so nothing is left behind. Links are presigned
// GETs that carry the Content-Type and Content-Disposition the caller asked for.
//
// The SDK is loaded on first use, so a server on the local adapter never loads it. It warns once
// per process that future SDK versions will need Node 22 (NodeVersionSupportWarning); that says
// nothing about this server's Node 20, so it is turned off with the SDK's documented switch
// unless the operator set the switch themselves.
import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Clock } from '#platform/clock.ts';
import { countedBody } from './body.ts';
import { asStorageError, ObjectNotFound } from './errors.ts';
import { assertValidKey } from './keys.ts';
import { checkLinkOptions } from './link-options.ts';
import type { LinkOptions, PutOptions, SignedUrl, Storage } from './storage.ts';

export interface S3Settings {
  /** Leave null for AWS itself; set for MinIO, R2 and the like (`http://127.0.0.1:9000`). */
  endpoint: string | null;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `bucket` in the path instead of the host name (MinIO and most self-hosted servers). */
  forcePathStyle: boolean;
}

const PART_BYTES = 5 * 1024 * 1024;
/** Parts in flight at once: what bounds memory per upload (about 10 MB). */
const PARTS_IN_FLIGHT = 2;

type Sdk = {
  client: S3Client;
  s3: typeof import('@aws-sdk/client-s3');
  Upload: typeof import('@aws-sdk/lib-storage').Upload;
  getSignedUrl: typeof import('@aws-sdk/s3-request-presigner').getSignedUrl;
};

async function loadSdk(settings: S3Settings): Promise<Sdk> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const [s3, { Upload }, { getSignedUrl }] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/lib-storage'),
    import('@aws-sdk/s3-request-presigner'),
  ]);
  const client = new s3.S3Client({
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Checksums only where S3 requires them: many S3-compatible servers reject the newer
    // checksum headers and trailers the SDK would otherwise send.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // An unreachable endpoint fails in seconds (the 503), not after the OS's connect timeout.
    requestHandler: { connectionTimeout: 5000 },
  });
  return { client, s3, Upload, getSignedUrl };
}

const isMissing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

export class S3Storage implements Storage {
  readonly kind = 's3';
  private sdk: Promise<Sdk> | null = null;

  constructor(
    private readonly settings: S3Settings,
    private readonly clock: Clock,
  ) {}

  private load(): Promise<Sdk> {
    this.sdk ??= loadSdk(this.settings);
    return this.sdk;
  }

  async put(key: string, body: Readable | Buffer, options: PutOptions): Promise<{ bytes: number }> {
    assertValidKey(key);
    const { client, s3, Upload } = await this.load();
    const counted = countedBody(body, options.maxBytes);
    const upload = new Upload({
      client,
      params: {
        Bucket: this.settings.bucket,
        Key: key,
        // A Buffer goes as it is: Upload knows its length and sends one PUT.
        Body: Buffer.isBuffer(body) ? body : counted.stream,
        ContentType: options.contentType,
      },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
      return { bytes: counted.bytes() };
    } catch (err) {
      counted.release();
      // Upload aborts its multipart upload on failure; the delete covers a PUT that landed anyway.
      await client.send(new s3.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key })).catch(() => {});
      // The body's own failure is the cause, whatever the upload made of it.
      throw counted.bodyError() ?? asStorageError(err);
    }
  }

  async get(key: string): Promise<Readable> {
    assertValidKey(key);
    const { client, s3 } = await this.load();
    try {
      const answer = await client.send(new s3.GetObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      return answer.Body as Readable;
    } catch (err) {
      if (isMissing(err)) throw new ObjectNotFound(key);
      throw asStorageError(err);
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    const { client, s3 } = await this.load();
    try {
      // S3 answers a delete of a missing key with success: idempotent as the interface says.
      await client.send(new s3.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
    } catch (err) {
      throw asStorageError(err);
    }
  }

  /** Presigned on this machine (no request to S3); `base` is not used: the link points at S3. */
  async signedUrl(key: string, options: LinkOptions, _base: string): Promise<SignedUrl> {
    assertValidKey(key);
    const checked = checkLinkOptions(options);
    const { client, s3, getSignedUrl } = await this.load();
    const signedAt = this.clock.now();
    const command = new s3.GetObjectCommand({
      Bucket: this.settings.bucket,
      Key: key,
      ResponseContentDisposition: checked.dispositionHeader,
      ...(checked.contentType ? { ResponseContentType: checked.contentType } : {}),
    });
    try {
      const url = await getSignedUrl(client, command, {
        expiresIn: checked.expiresInSeconds,
        signingDate: new Date(signedAt),
      });
      return { url, expiresAt: Math.floor(signedAt / 1000) * 1000 + checked.expiresInSeconds * 1000 };
    } catch (err) {
      throw asStorageError(err);
    }
  }

  /** Closes the client's connections (tests; a server keeps its client for the process). */
  async close(): Promise<void> {
    if (this.sdk) (await this.sdk.catch(() => null))?.client.destroy();
  }
}
