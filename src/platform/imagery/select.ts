// Which imagery a process uses: XYZ tile servers named by GROUNDWORK_IMAGERY_URL (standard) and
// GROUNDWORK_PREMIUM_IMAGERY_URL (premium), each with its tile cache under the data directory; with
// neither, the embedded default (none: imagery_unavailable). Built once per process into the
// dependency bag (deps.ts), never per request; building touches no network and no disk.
import path from 'node:path';
import { noImagery, type Imagery, type ImagerySource } from './imagery.ts';
import { tileImagery } from './mosaic.ts';
import { assertPublicHost } from '../outbound.ts';
import { DEFAULT_TILE_MAX_AGE_MS, diskTileCache, noTileCache } from './tile-cache.ts';
import { xyzTileServer, type TileServer } from './xyz-tiles.ts';

export interface ImagerySettings {
  /** GROUNDWORK_IMAGERY_URL: the standard source's tile URL template; null = none. */
  standardUrl: string | null;
  /** GROUNDWORK_PREMIUM_IMAGERY_URL: the premium source's; null = none. */
  premiumUrl: string | null;
  /** GROUNDWORK_IMAGERY_CACHE_MB: the tile cache's bound per source; 0 keeps no tiles. */
  cacheMb: number;
}

export const NO_IMAGERY_SETTINGS: ImagerySettings = { standardUrl: null, premiumUrl: null, cacheMb: 0 };

/**
 * Tiles go through platform/outbound-fetch.ts like every outside fetch: https to public addresses.
 * A template whose host is itself a loopback or private address (a tile server on the operator's
 * own network) says the operator means it, so that server is reached, by http too; so is any when
 * GROUNDWORK_ALLOW_PRIVATE_NETWORK is on. A public name that resolves to a private address, or a
 * redirect to one, is still refused.
 */
function namesPrivateHost(template: string): boolean {
  try {
    assertPublicHost(new URL(template.replace(/\{[xyz]\}/g, '0')), false);
    return false;
  } catch {
    return true;
  }
}

export function imageryFor(settings: ImagerySettings, dataDir: string, allowPrivateNetwork: boolean): Imagery {
  if (!settings.standardUrl && !settings.premiumUrl) return noImagery;
  const serverFor = (source: ImagerySource, template: string | null): TileServer | null => {
    if (!template) return null;
    const cache =
      settings.cacheMb > 0
        ? diskTileCache({
            dir: path.join(dataDir, 'imagery-tiles'),
            source,
            template,
            maxBytes: settings.cacheMb * 1024 * 1024,
            maxAgeMs: DEFAULT_TILE_MAX_AGE_MS,
          })
        : noTileCache;
    return xyzTileServer(template, { allowPrivate: allowPrivateNetwork || namesPrivateHost(template), cache });
  };
  return tileImagery({
    standard: serverFor('standard', settings.standardUrl),
    premium: serverFor('premium', settings.premiumUrl),
  });
}
