// What every process entry point does first: install the area list (src/areas.ts) and build the
// dependency bag from its settings. buildApp, `serve` (the demo seed and the in-process worker),
// `groundwork worker` and `groundwork admin` all start here, so each sees the same areas.
import type { Config } from './config.ts';
import type { Database } from '#db/database.ts';
import type { Env } from '#platform/context.ts';
import { buildDeps, type DepsOptions } from '#platform/deps.ts';
import { installAreas, type Area } from './area.ts';
import { AREAS } from './areas.ts';

export function startEnv(database: Database, options: DepsOptions = {}, areas: readonly Area[] = AREAS): Env {
  installAreas(areas);
  return { database, deps: buildDeps(options) };
}

/** The dependency settings of the loaded configuration (serve and `groundwork worker`). */
export function depsOptionsOf(
  config: Pick<
    Config,
    'dataDir' | 'geocoderUrl' | 'visionUrl' | 'segmentationUrl' | 'worker' | 'storage' | 'mail' | 'payments' | 'imagery'
  >,
): DepsOptions {
  return {
    dataDir: config.dataDir,
    storageSettings: config.storage,
    mailSettings: config.mail,
    paymentSettings: config.payments,
    imagerySettings: config.imagery,
    geocoderUrl: config.geocoderUrl ?? undefined,
    visionUrl: config.visionUrl ?? undefined,
    segmentationUrl: config.segmentationUrl ?? undefined,
    allowPrivateNetwork: config.worker.allowPrivateNetwork,
    deliveryRetentionDays: config.worker.deliveryRetentionDays,
  };
}
