// Automatic driving time for trucking hauls (document 3, Cost line: automatic_driving_time,
// route). The engine never geocodes, and neither does a write's transaction (GUIDE: outside calls
// never run under the workspace lock; on SQLite the lock is the whole database, and a geocoder may
// take seconds). Inside the transaction a haul asking for automatic time takes its hours from the
// addresses already looked up for this request (`Places`). When it needs one that is not there,
// the write stops and rolls back (NeedsGeocoding); `withPlaces` looks the addresses up with no
// transaction open and runs the write again on fresh rows, so a change made meanwhile (a job's
// new address) is seen and looked up too. The hours are stored on the cost line, so reads and
// later writes price with the same number until a route changes or the estimate is recalculated.
import type { Executor } from '#db/dialect.ts';
import { setTextById } from '#db/set-by-id.ts';
import type { EstimateCostLine } from '#db/tables.ts';
import { estimateDriveHours, greatCircleKm } from '#platform/drive-time.ts';
import { ApiError, conflict, unprocessable } from '#platform/errors.ts';
import { GeocoderUnavailable, type GeoPoint, type Geocoder } from '#platform/geocoding.ts';
import type { Settings } from '#platform/workspace.ts';
import { linesInBid, type StoredHaul } from './calculation.ts';
import type { EstimateTree } from './repo.ts';

/** Addresses looked up for one request: the point, or null when the geocoder could not place it. */
export type Places = Map<string, GeoPoint | null>;

/** Where an error about a lookup points: the cost line (or, for one the write adds, its place in the body). */
export interface LookupSite {
  cost_line_id: number | null;
  field?: string;
}

/** Thrown inside a write's transaction (rolling it back) when hauls need addresses not looked up yet. */
export class NeedsGeocoding extends Error {
  readonly wanted: Map<string, LookupSite>;
  constructor(wanted: Map<string, LookupSite>) {
    super(`${wanted.size} address(es) to look up outside the transaction`);
    this.name = 'NeedsGeocoding';
    this.wanted = wanted;
  }
}

interface RouteContext {
  places: Places;
  geocoderConfigured: boolean;
  settings: Settings;
  jobAddress: string | null;
}

const addressNotFound = (address: string, costLineId: number) =>
  unprocessable('Address not found', { code: 'address_not_found', address, cost_line_id: costLineId });

function required(value: string | null | undefined, field: string, costLineId: number): string {
  if (value && value.trim() !== '') return value;
  throw unprocessable(`Automatic driving time needs ${field}`, {
    code: 'route_address_missing',
    field,
    cost_line_id: costLineId,
  });
}

/** One-way hours and km between two addresses, or null while either is still to be looked up. */
function leg(rc: RouteContext, from: string, to: string, costLineId: number, wanted: Map<string, LookupSite>) {
  const points: (GeoPoint | undefined)[] = [];
  for (const address of [from, to]) {
    const point = rc.places.get(address);
    if (point === null) throw addressNotFound(address, costLineId);
    if (point === undefined && !wanted.has(address)) wanted.set(address, { cost_line_id: costLineId });
    points.push(point);
  }
  const [a, b] = points;
  if (!a || !b) return null;
  return { hours: estimateDriveHours(a, b), km: Math.round(greatCircleKm(a, b) * 100) / 100 };
}

/** The haul with its looked-up hours, or null while an address is still to be looked up. */
function resolve(
  rc: RouteContext,
  cl: EstimateCostLine,
  haul: StoredHaul,
  wanted: Map<string, LookupSite>,
): StoredHaul | null {
  const route = haul.route ?? null;
  const kind = route?.kind ?? 'plant_round_trip';
  const plant = () =>
    required(
      route?.plant_address ?? rc.settings.plant_address,
      'a plant address (route.plant_address or the workspace plant_address)',
      cl.id,
    );
  const job = () =>
    required(route?.job_address ?? rc.jobAddress, "a job address (route.job_address or the job's address)", cl.id);
  const dump = () => required(route?.dump_address, 'route.dump_address', cl.id);
  const stops =
    kind === 'three_leg'
      ? [plant(), job(), dump(), plant()]
      : kind === 'dump_round_trip'
        ? [job(), dump()]
        : [plant(), job()];
  if (!rc.geocoderConfigured) {
    throw unprocessable('Automatic driving time needs a geocoder', {
      code: 'drive_time_unavailable',
      cost_line_id: cl.id,
      message: 'This server has no geocoder (GROUNDWORK_GEOCODER_URL); type haul.drive_hr instead',
    });
  }
  const legs = stops.slice(1).map((to, i) => leg(rc, stops[i]!, to, cl.id, wanted));
  if (legs.some((l) => l === null)) return null;
  const found = legs as { hours: number; km: number }[];
  const routeKm = round1(found.reduce((sum, l) => sum + l.km, 0));
  if (kind === 'three_leg') {
    return {
      ...haul,
      drive_hr: null,
      drive_hr_source: 'automatic',
      route_km: routeKm,
      route: { ...route!, legs_hr: found.map((l) => l.hours) },
    };
  }
  return { ...haul, drive_hr: found[0]!.hours, drive_hr_source: 'automatic', route_km: routeKm };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** True when an automatic haul still needs its hours (new, or its route changed). */
function unresolved(h: StoredHaul): boolean {
  if (h.route?.kind === 'three_leg') return !Array.isArray(h.route.legs_hr) || h.route.legs_hr.length !== 3;
  return h.drive_hr === null;
}

/**
 * Gives the hauls of lines in the bid that ask for automatic driving time and have no hours yet
 * (all of them when `force`, as on recalculate) their hours from `rc.places`, storing them on the
 * cost lines and in the tree. Throws NeedsGeocoding naming every address still to look up.
 */
export async function resolveDriveTimes(
  trx: Executor,
  tree: EstimateTree,
  rc: RouteContext,
  force: boolean,
): Promise<void> {
  const wanted = new Map<string, LookupSite>();
  const changed: { id: number; value: string }[] = [];
  for (const line of linesInBid(tree)) {
    if (line.estimating_mode !== 'detailed') continue;
    for (const cl of tree.costLines.get(line.id) ?? []) {
      if (cl.haul === null) continue;
      const haul = JSON.parse(cl.haul) as StoredHaul;
      if (!haul.automatic_driving_time || (!force && !unresolved(haul))) continue;
      const resolved = resolve(rc, cl, haul, wanted);
      if (resolved === null) continue;
      cl.haul = JSON.stringify(resolved);
      changed.push({ id: cl.id, value: cl.haul });
    }
  }
  if (wanted.size > 0) throw new NeedsGeocoding(wanted);
  // The hauls whose times were found, in one statement (the transaction rolls back with the write).
  await setTextById(trx, 'estimate_cost_lines', 'haul', changed);
}

/** Looks the addresses up (at once; the geocoder shares concurrent lookups of one address). */
async function lookUp(geocoder: Geocoder, wanted: Map<string, LookupSite>, places: Places): Promise<void> {
  await Promise.all(
    [...wanted].map(async ([address, site]) => {
      try {
        places.set(address, await geocoder.geocode(address));
      } catch (e) {
        if (!(e instanceof GeocoderUnavailable)) throw e;
        throw new ApiError(502, 'geocode_failed', {
          code: 'geocode_failed',
          retryable: true,
          ...site,
          message: e.message,
        });
      }
    }),
  );
}

/** A write that keeps needing new addresses is racing edits of them; past this many rounds it gives up. */
const MAX_ROUNDS = 3;

/**
 * Runs `write` (one transaction) with the addresses looked up so far; when it stops for more, looks
 * them up outside any transaction and runs it again.
 */
export async function withPlaces<T>(geocoder: Geocoder, write: (places: Places) => Promise<T>): Promise<T> {
  const places: Places = new Map();
  for (let round = 1; ; round++) {
    try {
      return await write(places);
    } catch (e) {
      if (!(e instanceof NeedsGeocoding)) throw e;
      if (round === MAX_ROUNDS) {
        throw conflict('Addresses changed while they were looked up', {
          code: 'concurrent_change',
          retryable: true,
          message:
            "Another change kept moving this estimate's haul addresses during the drive-time lookup; send the request again",
        });
      }
      await lookUp(geocoder, e.wanted, places);
    }
  }
}
