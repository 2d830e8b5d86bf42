// Typed environment: every knob the operator can turn, read once at start.
import type { StorageSettings } from '#platform/storage/select.ts';
import type { S3Settings } from '#platform/storage/s3.ts';
import type { MailSettings } from '#platform/mail/select.ts';
import type { PaymentSettings } from '#platform/payments/select.ts';
import type { StripeSettings } from '#platform/payments/stripe.ts';
import { DEFAULT_TIMEOUTS, type TimeoutSettings } from '#platform/timeouts.ts';
import type { ImagerySettings } from '#platform/imagery/select.ts';
import { templateProblem } from '#platform/imagery/xyz-tiles.ts';

export interface Config {
  port: number;
  host: string;
  /**
   * `postgres://…` (or `postgresql://…`) selects PostgreSQL; otherwise a SQLite file path (or
   * `:memory:`). Any other URL scheme (`mysql://`, `sqlite://`, `file:`) is refused at start.
   */
  databaseUrl: string;
  /**
   * GROUNDWORK_PUBLIC_URL: the customer-facing origin (`https://app.example.com`) every link in
   * mail, pages and answers is made on; null: the origin each request came to (a warning at start).
   */
  publicUrl: string | null;
  /** How long a request, its headers, an idle keep-alive connection and a silent upload may take. */
  timeouts: TimeoutSettings;
  adminToken: string | null;
  rateLimit: { max: number; windowMs: number };
  /** Proxies whose X-Forwarded-For is believed (Fastify trustProxy): addresses, CIDRs and names, or true/false. */
  trustProxy: boolean | string;
  /** Seed a demo workspace on first start when the database has none. */
  demo: boolean;
  /** How long a resolved API key is remembered (0 turns the memo off). */
  authCacheMs: number;
  logLevel: string;
  /** Where the server keeps files it makes (workspace exports) under the embedded default. */
  dataDir: string;
  /** Nominatim base URL (or Photon's `…/api`) for geocoding; null = none, lookups fail with address errors. */
  geocoderUrl: string | null;
  /** The vision endpoint that replaces the built-in distress detector (GROUNDWORK_VISION_URL); null = built in. */
  visionUrl: string | null;
  /** The segmentation endpoint that replaces the built-in paved-surface detector (GROUNDWORK_SEGMENTATION_URL); null = built in. */
  segmentationUrl: string | null;
  /** Files and photos: the data directory (links signed with `secret`), or S3 when a bucket is set. */
  storage: StorageSettings;
  /** Email: SMTP when GROUNDWORK_SMTP_URL is set, else .eml files in <dataDir>/outbox. */
  mail: MailSettings;
  /** Online payments: Stripe when GROUNDWORK_STRIPE_SECRET_KEY is set, else the built-in test mode. */
  payments: PaymentSettings;
  /** Aerial imagery: XYZ tile URL templates (standard, premium) and the tile cache's size; none by default. */
  imagery: ImagerySettings;
  worker: WorkerConfig;
}

export interface WorkerConfig {
  /** Run the background worker inside `serve` (a separate `groundwork worker` can run instead). */
  inServe: boolean;
  /** How often an idle worker looks for due work. */
  pollMs: number;
  /** How long a claimed delivery or export is held before another worker may take it over. */
  leaseMs: number;
  /** Webhook attempts in flight at once, per worker process. */
  concurrency: number;
  /** Deliver to (and later fetch from) private and loopback addresses. Off by default. */
  allowPrivateNetwork: boolean;
  /** Days a settled webhook delivery and its attempts are kept (GROUNDWORK_DELIVERY_RETENTION_DAYS, 30). */
  deliveryRetentionDays: number;
}

/** Settled webhook deliveries are kept 30 days unless the operator says otherwise. */
export const DEFAULT_DELIVERY_RETENTION_DAYS = 30;

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

/** Where a reverse proxy sits: on the machine or in a private network. */
export const DEFAULT_TRUST_PROXY = 'loopback, linklocal, uniquelocal';

/** GROUNDWORK_TRUST_PROXY: unset = loopback and private networks; true (every hop), false (none), or a list. */
function trustProxyFromEnv(raw: string | undefined): boolean | string {
  const v = raw?.trim();
  if (!v) return DEFAULT_TRUST_PROXY;
  return v === 'true' || v === 'false' ? v === 'true' : v;
}

const env = (name: string) => process.env[name]?.trim() || null;

/** GROUNDWORK_S3_*: null unless a bucket is named; a bucket without its region or credentials stops the start. */
function s3FromEnv(): S3Settings | null {
  const bucket = env('GROUNDWORK_S3_BUCKET');
  if (!bucket) {
    const stray = ['ENDPOINT', 'REGION', 'ACCESS_KEY_ID', 'SECRET_ACCESS_KEY', 'FORCE_PATH_STYLE']
      .map((s) => `GROUNDWORK_S3_${s}`)
      .filter((name) => env(name) !== null);
    if (stray.length > 0)
      throw new Error(`${stray.join(', ')} set but GROUNDWORK_S3_BUCKET is not: set it to store files in S3`);
    return null;
  }
  const missing = ['GROUNDWORK_S3_REGION', 'GROUNDWORK_S3_ACCESS_KEY_ID', 'GROUNDWORK_S3_SECRET_ACCESS_KEY'].filter(
    (name) => env(name) === null,
  );
  if (missing.length > 0) throw new Error(`GROUNDWORK_S3_BUCKET is set, so ${missing.join(', ')} must be set too`);
  const pathStyle = env('GROUNDWORK_S3_FORCE_PATH_STYLE') ?? 'false';
  if (pathStyle !== 'true' && pathStyle !== 'false')
    throw new Error(`GROUNDWORK_S3_FORCE_PATH_STYLE must be true or false, got "${pathStyle}"`);
  const endpoint = env('GROUNDWORK_S3_ENDPOINT');
  if (endpoint !== null && !/^https?:\/\/[^/]/.test(endpoint))
    throw new Error(`GROUNDWORK_S3_ENDPOINT must be an http:// or https:// URL, got "${endpoint}"`);
  return {
    endpoint,
    bucket,
    region: env('GROUNDWORK_S3_REGION')!,
    accessKeyId: env('GROUNDWORK_S3_ACCESS_KEY_ID')!,
    secretAccessKey: env('GROUNDWORK_S3_SECRET_ACCESS_KEY')!,
    forcePathStyle: pathStyle === 'true',
  };
}

/** GROUNDWORK_STORAGE_SECRET: anyone who knows it can make links to any file, so no short one. */
function storageSecretFromEnv(): string | null {
  const secret = env('GROUNDWORK_STORAGE_SECRET');
  if (secret !== null && secret.length < 32)
    throw new Error('GROUNDWORK_STORAGE_SECRET must be at least 32 characters (openssl rand -hex 32 makes one)');
  return secret;
}

/** GROUNDWORK_SMTP_URL (smtp:// or smtps://) and GROUNDWORK_MAIL_FROM (a bare address). */
function mailFromEnv(): MailSettings {
  const smtpUrl = env('GROUNDWORK_SMTP_URL');
  if (smtpUrl !== null && !/^smtps?:\/\/[^/]/.test(smtpUrl))
    throw new Error(`GROUNDWORK_SMTP_URL must be an smtp:// or smtps:// URL, got "${smtpUrl}"`);
  const from = env('GROUNDWORK_MAIL_FROM');
  if (from !== null && !/^[^\s@<>]+@[^\s@<>]+$/.test(from))
    throw new Error(`GROUNDWORK_MAIL_FROM must be a bare address like quotes@example.com, got "${from}"`);
  return { smtpUrl, from };
}

/**
 * GROUNDWORK_STRIPE_*: null unless a secret key is set; a key without its webhook secret stops the
 * start (payments would be taken and never reach the invoice). Values are never repeated in messages.
 */
function stripeFromEnv(): StripeSettings | null {
  const secretKey = env('GROUNDWORK_STRIPE_SECRET_KEY');
  const webhookSecret = env('GROUNDWORK_STRIPE_WEBHOOK_SECRET');
  const apiUrl = env('GROUNDWORK_STRIPE_API_URL');
  if (!secretKey) {
    const stray = [
      ['GROUNDWORK_STRIPE_WEBHOOK_SECRET', webhookSecret],
      ['GROUNDWORK_STRIPE_API_URL', apiUrl],
    ].filter(([, value]) => value !== null);
    if (stray.length > 0)
      throw new Error(
        `${stray.map(([name]) => name).join(', ')} set but GROUNDWORK_STRIPE_SECRET_KEY is not: set it to take payments with Stripe`,
      );
    return null;
  }
  // A publishable key (pk_…) is the usual mix-up: it cannot create Checkout Sessions.
  if (!/^(sk|rk)_/.test(secretKey))
    throw new Error(
      'GROUNDWORK_STRIPE_SECRET_KEY must be a secret key (sk_live_…, sk_test_…) or a restricted key (rk_…)',
    );
  if (!webhookSecret)
    throw new Error(
      'GROUNDWORK_STRIPE_SECRET_KEY is set, so GROUNDWORK_STRIPE_WEBHOOK_SECRET must be set too (the whsec_… signing secret of the webhook endpoint)',
    );
  if (apiUrl !== null && !/^https?:\/\/[^/]+\/?$/.test(apiUrl))
    throw new Error(
      `GROUNDWORK_STRIPE_API_URL must be an http:// or https:// URL with no path (Stripe's /v1 is added), got "${apiUrl}"`,
    );
  return { secretKey, webhookSecret, apiUrl };
}

/**
 * GROUNDWORK_IMAGERY_URL and GROUNDWORK_PREMIUM_IMAGERY_URL (XYZ templates with {z}, {x}, {y}) and
 * GROUNDWORK_IMAGERY_CACHE_MB (200 by default; 0 keeps no tiles).
 */
function imageryFromEnv(): ImagerySettings {
  const template = (name: string) => {
    const raw = env(name);
    const problem = raw === null ? null : templateProblem(raw);
    if (raw !== null && problem) throw new Error(`${name} ${problem}, got "${withoutCredentials(raw)}"`);
    return raw;
  };
  const rawMb = env('GROUNDWORK_IMAGERY_CACHE_MB');
  const cacheMb = rawMb === null ? 200 : Number(rawMb);
  if (!Number.isInteger(cacheMb) || cacheMb < 0)
    throw new Error(
      `GROUNDWORK_IMAGERY_CACHE_MB must be a whole number of megabytes (0 turns the cache off), got "${rawMb}"`,
    );
  return {
    standardUrl: template('GROUNDWORK_IMAGERY_URL'),
    premiumUrl: template('GROUNDWORK_PREMIUM_IMAGERY_URL'),
    cacheMb,
  };
}

/** A URL with its user and password hidden, for messages. */
export const withoutCredentials = (url: string) => url.replace(/\/\/[^@/]*@/, '//***@');

/**
 * DATABASE_URL: a postgres:// or postgresql:// URL, `:memory:`, or a SQLite file path. A path is
 * anything without a URL scheme (letters then a colon, two or more of them, so `C:\…` stays a
 * path): `mysql://…` used to become a SQLite file named `mysql:`, and `file:` or `sqlite:` URLs
 * are refused too rather than half-understood.
 */
function databaseUrlFromEnv(): string {
  const raw = process.env.DATABASE_URL?.trim();
  if (!raw) return 'data/groundwork.sqlite';
  if (isPostgresUrl(raw) || raw === ':memory:') return raw;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]+):/.exec(raw)?.[1]?.toLowerCase();
  if (scheme === undefined) return raw;
  const hint =
    scheme === 'file' || scheme === 'sqlite' || scheme === 'sqlite3'
      ? ' For SQLite write the file path itself, e.g. DATABASE_URL=data/groundwork.sqlite.'
      : ' MySQL and other databases are not supported.';
  throw new Error(
    `DATABASE_URL must be a postgres:// or postgresql:// URL (PostgreSQL) or a file path (SQLite, or :memory:); ` +
      `"${scheme}:" is not supported, got "${withoutCredentials(raw)}".${hint}`,
  );
}

/**
 * GROUNDWORK_PUBLIC_URL: an http or https origin with no path (one trailing slash allowed), no
 * query, no user or password; kept without the trailing slash.
 */
function publicUrlFromEnv(): string | null {
  const raw = env('GROUNDWORK_PUBLIC_URL');
  if (raw === null) return null;
  const refuse = (why: string) =>
    new Error(
      `GROUNDWORK_PUBLIC_URL must be the customer-facing origin, like https://app.example.com (${why}), got "${raw}"`,
    );
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('http:// or https:// only');
  if (url.username || url.password) throw refuse('no user or password');
  if (url.pathname !== '/' || url.search || url.hash || /[?#]/.test(raw))
    throw refuse('no path, query or fragment: links are made as <origin>/share/…, and the server answers at the root');
  return url.origin;
}

/** A positive whole number of milliseconds. */
function msFromEnv(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0)
    throw new Error(`${name} must be a positive whole number of milliseconds, got "${raw}"`);
  return n;
}

/** GROUNDWORK_*_TIMEOUT_MS; the headers may not take longer than the whole request. */
function timeoutsFromEnv(): TimeoutSettings {
  const timeouts: TimeoutSettings = {
    requestMs: msFromEnv('GROUNDWORK_REQUEST_TIMEOUT_MS', DEFAULT_TIMEOUTS.requestMs),
    headersMs: msFromEnv('GROUNDWORK_HEADERS_TIMEOUT_MS', DEFAULT_TIMEOUTS.headersMs),
    keepAliveMs: msFromEnv('GROUNDWORK_KEEP_ALIVE_TIMEOUT_MS', DEFAULT_TIMEOUTS.keepAliveMs),
    uploadIdleMs: msFromEnv('GROUNDWORK_UPLOAD_IDLE_TIMEOUT_MS', DEFAULT_TIMEOUTS.uploadIdleMs),
  };
  if (timeouts.headersMs > timeouts.requestMs)
    throw new Error(
      `GROUNDWORK_HEADERS_TIMEOUT_MS (${timeouts.headersMs}) may not exceed GROUNDWORK_REQUEST_TIMEOUT_MS (${timeouts.requestMs})`,
    );
  return timeouts;
}

export function loadConfig(): Config {
  return {
    port: intFromEnv('PORT', 3000),
    host: process.env.HOST || '0.0.0.0',
    databaseUrl: databaseUrlFromEnv(),
    publicUrl: publicUrlFromEnv(),
    timeouts: timeoutsFromEnv(),
    adminToken: process.env.GROUNDWORK_ADMIN_TOKEN || null,
    // 1000 calls per 10 s per key: Stripe-like 100/s on average, with room for bursts.
    rateLimit: {
      max: intFromEnv('GROUNDWORK_RATE_LIMIT_MAX', 1000),
      windowMs: intFromEnv('GROUNDWORK_RATE_LIMIT_WINDOW_MS', 10_000),
    },
    trustProxy: trustProxyFromEnv(process.env.GROUNDWORK_TRUST_PROXY),
    demo: process.env.GROUNDWORK_DEMO !== 'false',
    authCacheMs: process.env.GROUNDWORK_AUTH_CACHE_MS === '0' ? 0 : intFromEnv('GROUNDWORK_AUTH_CACHE_MS', 1000),
    logLevel: process.env.LOG_LEVEL || 'info',
    dataDir: process.env.GROUNDWORK_DATA_DIR || 'data',
    geocoderUrl: process.env.GROUNDWORK_GEOCODER_URL || null,
    visionUrl: process.env.GROUNDWORK_VISION_URL || null,
    segmentationUrl: process.env.GROUNDWORK_SEGMENTATION_URL || null,
    storage: { secret: storageSecretFromEnv(), s3: s3FromEnv() },
    mail: mailFromEnv(),
    payments: { stripe: stripeFromEnv() },
    imagery: imageryFromEnv(),
    worker: {
      inServe: process.env.GROUNDWORK_WORKER !== 'false',
      pollMs: intFromEnv('GROUNDWORK_WORKER_POLL_MS', 500),
      leaseMs: intFromEnv('GROUNDWORK_WORKER_LEASE_MS', 60_000),
      concurrency: intFromEnv('GROUNDWORK_WEBHOOK_CONCURRENCY', 32),
      allowPrivateNetwork: process.env.GROUNDWORK_ALLOW_PRIVATE_NETWORK === '1',
      deliveryRetentionDays: intFromEnv('GROUNDWORK_DELIVERY_RETENTION_DAYS', DEFAULT_DELIVERY_RETENTION_DAYS),
    },
  };
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(url);
}
