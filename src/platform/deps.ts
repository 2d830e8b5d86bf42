// The one dependency bag: every outside service and setting a service may need, built once by
// whoever starts the process (buildApp, the worker, the CLI) and handed to services on their
// context. Tests swap an adapter here (a local geocoder, a manual clock) instead of reaching
// into a module. Mail, storage, imagery and payments join it as they arrive.
import { systemClock, type Clock } from './clock.ts';
import { geocoderFor, type Geocoder } from './geocoding.ts';

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
}

export interface DepsOptions {
  geocoder?: Geocoder;
  geocoderUrl?: string;
  clock?: Clock;
  dataDir?: string;
  allowPrivateNetwork?: boolean;
}

/** The bag with the embedded defaults for whatever is not given. */
export function buildDeps(options: DepsOptions = {}): Deps {
  return {
    geocoder: options.geocoder ?? geocoderFor(options.geocoderUrl),
    clock: options.clock ?? systemClock,
    dataDir: options.dataDir ?? 'data',
    outbound: { allowPrivateNetwork: options.allowPrivateNetwork ?? false },
  };
}
