// The one dependency bag: every outside service and setting a service may need, built once by
// whoever starts the process (buildApp, the worker, the CLI) and handed to services on their
// context. Tests swap an adapter here (a local geocoder, a manual clock) instead of reaching
// into a module.
import { DEFAULT_DELIVERY_RETENTION_DAYS } from '#src/config.ts';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { systemClock, type Clock } from './clock.ts';
import { geocoderFor, type Geocoder } from './geocoding.ts';
import type { Imagery } from './imagery/imagery.ts';
import { type Segmentation, segmentationFor } from './segmentation.ts';
import { type Vision, visionFor } from './vision.ts';
import { imageryFor, NO_IMAGERY_SETTINGS, type ImagerySettings } from './imagery/select.ts';
import { linkTokensFrom, type LinkTokens } from './link-tokens.ts';
import { mailTransportFor, type MailSettings } from './mail/select.ts';
import type { MailTransport } from './mail/transport.ts';
import { paymentsFor, type PaymentSettings } from './payments/select.ts';
import type { Payments } from './payments/processor.ts';
import { secretSource } from './storage/secret.ts';
import { storageFor, type StorageSettings } from './storage/select.ts';
import type { Storage } from './storage/storage.ts';

export interface OutboundPolicy {
  /** Accept targets on private and loopback addresses (GROUNDWORK_ALLOW_PRIVATE_NETWORK). */
  allowPrivateNetwork: boolean;
}

export interface Deps {
  geocoder: Geocoder;
  clock: Clock;
  /** Where the server keeps files it makes (GROUNDWORK_DATA_DIR). */
  dataDir: string;
  outbound: OutboundPolicy;
  /** Files and photos (platform/storage): the data directory, or S3 when configured. */
  storage: Storage;
  /** The tokens of customer links (link-tokens.ts), derived with the server secret. */
  links: LinkTokens;
  /** Email (platform/mail): the outbox folder, or SMTP when GROUNDWORK_SMTP_URL is set. */
  mail: MailTransport;
  /** Online payments (platform/payments): the built-in test mode, or Stripe when configured. */
  payments: Payments;
  /** Aerial imagery (platform/imagery): none, or XYZ tile servers when GROUNDWORK_*IMAGERY_URL is set. */
  imagery: Imagery;
  /** The vision endpoint (GROUNDWORK_VISION_URL) that replaces the built-in distress detector; null = built in. */
  vision: Vision | null;
  /** The segmentation endpoint (GROUNDWORK_SEGMENTATION_URL) that replaces the built-in paved-surface detector; null = built in. */
  segmentation: Segmentation | null;
  /**
   * Days a settled webhook delivery and its attempts are kept (GROUNDWORK_DELIVERY_RETENTION_DAYS):
   * the worker prunes older ones (events/prune.ts) and the delivery log says how far back it reaches.
   */
  deliveryRetentionDays: number;
}

export interface DepsOptions {
  geocoder?: Geocoder;
  geocoderUrl?: string;
  clock?: Clock;
  dataDir?: string;
  allowPrivateNetwork?: boolean;
  /** A storage to use as it is (tests pass one on a temporary directory or a local S3 server). */
  storage?: Storage;
  /** How to build the storage when none is given (GROUNDWORK_S3_*, GROUNDWORK_STORAGE_SECRET). */
  storageSettings?: StorageSettings;
  /** A mail transport to use as it is (tests pass one aimed at a local SMTP server). */
  mail?: MailTransport;
  /** How to build the mail transport when none is given (GROUNDWORK_SMTP_URL, GROUNDWORK_MAIL_FROM). */
  mailSettings?: MailSettings;
  /** Payments to use as they are (tests pass Stripe aimed at a local server speaking its API). */
  payments?: Payments;
  /** How to build the payments when none are given (GROUNDWORK_STRIPE_*). */
  paymentSettings?: PaymentSettings;
  /** Imagery to use as it is (tests pass one aimed at a local tile server). */
  imagery?: Imagery;
  /** A vision endpoint to use as it is, or its URL (tests: a local server). */
  vision?: Vision | null;
  visionUrl?: string;
  /** A segmentation endpoint to use as it is, or its URL (tests: a local server). */
  segmentation?: Segmentation | null;
  segmentationUrl?: string;
  /** How to build the imagery when none is given (GROUNDWORK_IMAGERY_URL, …_PREMIUM_…, …_CACHE_MB). */
  imagerySettings?: ImagerySettings;
  deliveryRetentionDays?: number;
}

/** The bag with the embedded defaults for whatever is not given. */
export function buildDeps(options: DepsOptions = {}): Deps {
  const clock = options.clock ?? systemClock;
  // The server always names its data directory (GROUNDWORK_DATA_DIR, ./data by default: config.ts).
  // A bag built without one (a test, a benchmark) gets a temporary directory of its own, so no run
  // ever writes its outbox, objects or secret into the checkout's ./data, or shares another's. It is
  // only named here: whatever writes there first makes it (each writer makes its folder), so a bag
  // that writes nothing leaves nothing behind; an app built on one removes it when it closes (app.ts).
  const dataDir = options.dataDir ?? path.join(os.tmpdir(), `groundwork-data-${randomUUID()}`);
  return {
    geocoder: options.geocoder ?? geocoderFor(options.geocoderUrl),
    clock,
    dataDir,
    outbound: { allowPrivateNetwork: options.allowPrivateNetwork ?? false },
    // Building it touches nothing: the local adapter makes its folder and secret on first use.
    storage: options.storage ?? storageFor(options.storageSettings ?? { secret: null, s3: null }, dataDir, clock),
    links: linkTokensFrom(secretSource(dataDir, options.storageSettings?.secret ?? null)),
    mail: options.mail ?? mailTransportFor(options.mailSettings ?? { smtpUrl: null, from: null }, dataDir),
    // Building the Stripe client touches no network: the first checkout does.
    payments: options.payments ?? paymentsFor(options.paymentSettings ?? null),
    // Building it touches nothing: the tile cache's folder is made with its first tile.
    imagery:
      options.imagery ??
      imageryFor(options.imagerySettings ?? NO_IMAGERY_SETTINGS, dataDir, options.allowPrivateNetwork ?? false),
    vision: options.vision !== undefined ? options.vision : visionFor(options.visionUrl),
    segmentation: options.segmentation !== undefined ? options.segmentation : segmentationFor(options.segmentationUrl),
    deliveryRetentionDays: options.deliveryRetentionDays ?? DEFAULT_DELIVERY_RETENTION_DAYS,
  };
}
