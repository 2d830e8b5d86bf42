// The storage settings: S3 only with a bucket, and a bucket only with its region and credentials;
// a short GROUNDWORK_STORAGE_SECRET stops the start.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '#src/config.ts';
import { envVars } from '#test/helpers/env-vars.ts';

const NAMES = [
  'GROUNDWORK_S3_ENDPOINT',
  'GROUNDWORK_S3_BUCKET',
  'GROUNDWORK_S3_REGION',
  'GROUNDWORK_S3_ACCESS_KEY_ID',
  'GROUNDWORK_S3_SECRET_ACCESS_KEY',
  'GROUNDWORK_S3_FORCE_PATH_STYLE',
  'GROUNDWORK_STORAGE_SECRET',
];
const set = envVars(NAMES);

describe('storage settings', () => {
  it('default to the local adapter with a generated secret', () => {
    set({});
    expect(loadConfig().storage).toEqual({ secret: null, s3: null });
  });

  it('name S3 when a bucket is set with its region and credentials', () => {
    set({
      GROUNDWORK_S3_ENDPOINT: 'http://127.0.0.1:9000',
      GROUNDWORK_S3_BUCKET: 'photos',
      GROUNDWORK_S3_REGION: 'us-east-1',
      GROUNDWORK_S3_ACCESS_KEY_ID: 'id',
      GROUNDWORK_S3_SECRET_ACCESS_KEY: 'secret',
      GROUNDWORK_S3_FORCE_PATH_STYLE: 'true',
    });
    expect(loadConfig().storage.s3).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'photos',
      region: 'us-east-1',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });
  });

  it('stop the start when a bucket lacks its region or credentials, or S3 settings lack a bucket', () => {
    set({ GROUNDWORK_S3_BUCKET: 'photos' });
    expect(() => loadConfig()).toThrow(
      'GROUNDWORK_S3_BUCKET is set, so GROUNDWORK_S3_REGION, GROUNDWORK_S3_ACCESS_KEY_ID, GROUNDWORK_S3_SECRET_ACCESS_KEY must be set too',
    );
    set({ GROUNDWORK_S3_ENDPOINT: 'http://127.0.0.1:9000' });
    expect(() => loadConfig()).toThrow('GROUNDWORK_S3_ENDPOINT set but GROUNDWORK_S3_BUCKET is not');
    set({
      GROUNDWORK_S3_BUCKET: 'photos',
      GROUNDWORK_S3_REGION: 'us-east-1',
      GROUNDWORK_S3_ACCESS_KEY_ID: 'id',
      GROUNDWORK_S3_SECRET_ACCESS_KEY: 'secret',
      GROUNDWORK_S3_FORCE_PATH_STYLE: 'yes',
    });
    expect(() => loadConfig()).toThrow('GROUNDWORK_S3_FORCE_PATH_STYLE must be true or false');
  });

  it('refuse a short storage secret', () => {
    set({ GROUNDWORK_STORAGE_SECRET: 'short' });
    expect(() => loadConfig()).toThrow('at least 32 characters');
    set({ GROUNDWORK_STORAGE_SECRET: 'k'.repeat(40) });
    expect(loadConfig().storage.secret).toBe('k'.repeat(40));
  });
});
