// Which adapter a process uses: S3 when GROUNDWORK_S3_BUCKET is set (config.ts checks the rest
// of its settings at start), the local data directory otherwise. Built once per process into the
// dependency bag (deps.ts), never per request.
import type { Clock } from '#platform/clock.ts';
import { LocalStorage } from './local.ts';
import { S3Storage, type S3Settings } from './s3.ts';
import type { Storage } from './storage.ts';

export interface StorageSettings {
  /** GROUNDWORK_STORAGE_SECRET: signs local links; null keeps a generated one in the data directory. */
  secret: string | null;
  s3: S3Settings | null;
}

export function storageFor(settings: StorageSettings, dataDir: string, clock: Clock): Storage {
  return settings.s3
    ? new S3Storage(settings.s3, clock)
    : new LocalStorage({ dataDir, clock, secret: settings.secret });
}
