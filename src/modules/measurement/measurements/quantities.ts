// What an estimate area linked to a measurement can take (src/area.ts, takeoffQuantities): the
// measurement's totals by key, as the key's user sees it (null when they cannot).
import type { TakeoffQuantities, TakeoffQuantity } from '#src/area.ts';
import { quantityKeys, type Totals } from '../shapes/totals.ts';
import { findMeasurement } from './repo.ts';

export const takeoffQuantities: TakeoffQuantities = async (db, firmId, user, id) => {
  const m = await findMeasurement(db, firmId, id, user);
  if (!m) return null;
  return quantityKeys(JSON.parse(m.totals) as Totals) as Map<string, TakeoffQuantity>;
};
