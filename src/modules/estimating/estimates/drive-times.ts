// Automatic driving time for trucking hauls (document 3, Cost line: automatic_driving_time,
// route). The engine never geocodes: before pricing, hauls asking for automatic time get their
// hours from the geocoder and the distance between the addresses, and the hours are stored on the
// cost line, so reads and later writes price with the same number until a route changes or the
// estimate is recalculated.
import type { Executor } from '#db/dialect.ts';
import type { EstimateCostLine } from '#db/tables.ts';
import { AddressNotFound, driveHoursBetween } from '#platform/drive-time.ts';
import { ApiError, unprocessable } from '#platform/errors.ts';
import { GeocoderUnavailable, type Geocoder } from '#platform/geocoding.ts';
import type { Settings } from '#platform/workspace.ts';
import { linesInBid, type StoredHaul } from './calculation.ts';
import type { EstimateTree } from './repo.ts';

interface RouteContext { geocoder: Geocoder; settings: Settings; jobAddress: string | null }

async function hours(rc: RouteContext, from: string, to: string, costLineId: number): Promise<{ hours: number; km: number }> {
  try {
    const r = await driveHoursBetween(rc.geocoder, from, to);
    return { hours: r.hours, km: r.km };
  } catch (e) {
    if (e instanceof AddressNotFound) {
      throw unprocessable('Address not found', { code: 'address_not_found', address: e.address, cost_line_id: costLineId });
    }
    if (e instanceof GeocoderUnavailable) {
      if (!rc.geocoder.configured) {
        throw unprocessable('Automatic driving time needs a geocoder', {
          code: 'drive_time_unavailable', cost_line_id: costLineId,
          message: 'This server has no geocoder (GROUNDWORK_GEOCODER_URL); type haul.drive_hr instead',
        });
      }
      throw new ApiError(502, 'geocode_failed', { code: 'geocode_failed', retryable: true, cost_line_id: costLineId, message: e.message });
    }
    throw e;
  }
}

function required(value: string | null | undefined, field: string, costLineId: number): string {
  if (value && value.trim() !== '') return value;
  throw unprocessable(`Automatic driving time needs ${field}`, { code: 'route_address_missing', field, cost_line_id: costLineId });
}

async function resolve(rc: RouteContext, cl: EstimateCostLine, haul: StoredHaul): Promise<StoredHaul> {
  const route = haul.route ?? null;
  const kind = route?.kind ?? 'plant_round_trip';
  const plant = () => required(route?.plant_address ?? rc.settings.plant_address, 'a plant address (route.plant_address or the workspace plant_address)', cl.id);
  const job = () => required(route?.job_address ?? rc.jobAddress, "a job address (route.job_address or the job's address)", cl.id);
  const dump = () => required(route?.dump_address, 'route.dump_address', cl.id);
  if (kind === 'three_leg') {
    const legs = [await hours(rc, plant(), job(), cl.id), await hours(rc, job(), dump(), cl.id), await hours(rc, dump(), plant(), cl.id)];
    return {
      ...haul, drive_hr: null, drive_hr_source: 'automatic', route_km: round1(legs.reduce((a, l) => a + l.km, 0)),
      route: { ...route!, legs_hr: legs.map((l) => l.hours) },
    };
  }
  const leg = kind === 'dump_round_trip' ? await hours(rc, job(), dump(), cl.id) : await hours(rc, plant(), job(), cl.id);
  return { ...haul, drive_hr: leg.hours, drive_hr_source: 'automatic', route_km: round1(leg.km) };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** True when an automatic haul still needs its hours (new, or its route changed). */
function unresolved(h: StoredHaul): boolean {
  if (h.route?.kind === 'three_leg') return !Array.isArray(h.route.legs_hr) || h.route.legs_hr.length !== 3;
  return h.drive_hr === null;
}

/**
 * Looks up the hauls of lines in the bid that ask for automatic driving time and have no hours
 * yet (all of them when `force`, as on recalculate); stores the hours on the cost lines and in the tree.
 */
export async function resolveDriveTimes(trx: Executor, tree: EstimateTree, rc: RouteContext, force: boolean): Promise<void> {
  for (const line of linesInBid(tree)) {
    if (line.estimating_mode !== 'detailed') continue;
    for (const cl of tree.costLines.get(line.id) ?? []) {
      if (cl.haul === null) continue;
      const haul = JSON.parse(cl.haul) as StoredHaul;
      if (!haul.automatic_driving_time || (!force && !unresolved(haul))) continue;
      cl.haul = JSON.stringify(await resolve(rc, cl, haul));
      await trx.updateTable('estimate_cost_lines').set({ haul: cl.haul }).where('id', '=', cl.id).execute();
    }
  }
}
