// The operator's settings read by config.ts for start-up and links: DATABASE_URL (PostgreSQL URLs,
// :memory: and paths; other URL schemes refused), GROUNDWORK_PUBLIC_URL (an http(s) origin) and
// the GROUNDWORK_*_TIMEOUT_MS limits.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '#src/config.ts';
import { DEFAULT_TIMEOUTS } from '#platform/timeouts.ts';
import { envVars } from '#test/helpers/env-vars.ts';

const set = envVars([
  'DATABASE_URL',
  'GROUNDWORK_PUBLIC_URL',
  'GROUNDWORK_REQUEST_TIMEOUT_MS',
  'GROUNDWORK_HEADERS_TIMEOUT_MS',
  'GROUNDWORK_KEEP_ALIVE_TIMEOUT_MS',
  'GROUNDWORK_UPLOAD_IDLE_TIMEOUT_MS',
]);

describe('DATABASE_URL', () => {
  it('takes PostgreSQL URLs, :memory: and file paths (a Windows drive path too)', () => {
    for (const url of [
      'postgres://app@db:5432/groundwork',
      'postgresql://app@db/groundwork',
      'POSTGRES://app@db/groundwork',
      ':memory:',
      'data/groundwork.sqlite',
      '/var/lib/groundwork/db.sqlite',
      'C:\\groundwork\\db.sqlite',
    ]) {
      set({ DATABASE_URL: url });
      expect(loadConfig().databaseUrl).toBe(url);
    }
    set({});
    expect(loadConfig().databaseUrl).toBe('data/groundwork.sqlite');
  });

  it('refuses other URL schemes, naming the variable and never the password', () => {
    for (const url of [
      'mysql://app:pw123@db/groundwork',
      'mariadb://db/x',
      'sqlite:data.db',
      'file:data.db',
      'redis://x',
    ]) {
      set({ DATABASE_URL: url });
      expect(() => loadConfig(), url).toThrow(/^DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/);
      expect(() => loadConfig()).not.toThrow(/pw123/);
    }
  });
});

describe('GROUNDWORK_PUBLIC_URL', () => {
  it('is an http or https origin, kept without its trailing slash; unset is null', () => {
    set({});
    expect(loadConfig().publicUrl).toBeNull();
    for (const [raw, kept] of [
      ['https://app.example.com', 'https://app.example.com'],
      ['https://app.example.com/', 'https://app.example.com'],
      ['http://10.0.0.5:3000', 'http://10.0.0.5:3000'],
      ['HTTPS://App.Example.com:443/', 'https://app.example.com'],
    ]) {
      set({ GROUNDWORK_PUBLIC_URL: raw! });
      expect(loadConfig().publicUrl).toBe(kept);
    }
  });

  it('refuses a path, a query, a user, another scheme or no URL at all', () => {
    for (const raw of [
      'https://app.example.com/groundwork',
      'https://app.example.com/?x=1',
      'https://app.example.com/#top',
      'https://user:pw@app.example.com',
      'ftp://app.example.com',
      'app.example.com',
    ]) {
      set({ GROUNDWORK_PUBLIC_URL: raw });
      expect(() => loadConfig(), raw).toThrow(/^GROUNDWORK_PUBLIC_URL must be the customer-facing origin/);
    }
  });
});

describe('timeouts', () => {
  it('default to the documented limits and take positive milliseconds', () => {
    set({});
    expect(loadConfig().timeouts).toEqual(DEFAULT_TIMEOUTS);
    expect(DEFAULT_TIMEOUTS).toEqual({
      requestMs: 600_000,
      headersMs: 30_000,
      keepAliveMs: 72_000,
      uploadIdleMs: 60_000,
    });
    set({ GROUNDWORK_UPLOAD_IDLE_TIMEOUT_MS: '15000', GROUNDWORK_REQUEST_TIMEOUT_MS: '1800000' });
    expect(loadConfig().timeouts).toMatchObject({ uploadIdleMs: 15_000, requestMs: 1_800_000 });
  });

  it('refuse what is not a positive whole number, and headers longer than the request', () => {
    for (const bad of ['0', '-5', '1.5', 'soon']) {
      set({ GROUNDWORK_UPLOAD_IDLE_TIMEOUT_MS: bad });
      expect(() => loadConfig(), bad).toThrow(/GROUNDWORK_UPLOAD_IDLE_TIMEOUT_MS must be a positive whole number/);
    }
    set({ GROUNDWORK_HEADERS_TIMEOUT_MS: '90000', GROUNDWORK_REQUEST_TIMEOUT_MS: '60000' });
    expect(() => loadConfig()).toThrow(/GROUNDWORK_HEADERS_TIMEOUT_MS \(90000\) may not exceed/);
  });
});
