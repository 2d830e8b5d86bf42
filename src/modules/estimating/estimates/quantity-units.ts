// Measured quantities into a line's unit: what the quantity sources that feed estimate lines
// (assessment pins, takeoffs) measure in (EA, SF, LF, CY) and the catalog unit spellings each
// converts to. A pair missing here does not convert, and the quantity is left out rather than
// guessed. Sums are kept in hundredths and converted once, rounded half up.

export type MeasuredUnit = 'EA' | 'SF' | 'LF' | 'CY';

/** Catalog unit spellings read as one of the units measured quantities convert to. */
const UNIT_ALIASES: Record<string, string> = {
  SF: 'SF',
  SQFT: 'SF',
  FT2: 'SF',
  SY: 'SY',
  SQYD: 'SY',
  YD2: 'SY',
  LF: 'LF',
  FT: 'LF',
  LINFT: 'LF',
  EA: 'EA',
  EACH: 'EA',
  CY: 'CY',
  CUYD: 'CY',
  YD3: 'CY',
  CF: 'CF',
  CUFT: 'CF',
  FT3: 'CF',
};

/** [multiply, divide] from a measured unit to a catalog unit. */
const FACTORS: Record<MeasuredUnit, Record<string, [number, number]>> = {
  EA: { EA: [1, 1] },
  SF: { SF: [1, 1], SY: [1, 9] },
  LF: { LF: [1, 1] },
  CY: { CY: [1, 1], CF: [27, 1] },
};

function catalogUnit(unit: string): string | null {
  return UNIT_ALIASES[unit.toUpperCase().replace(/[\s.]/g, '')] ?? null;
}

/** True when a quantity measured in `from` converts to the catalog unit `unit`. */
export function convertsTo(from: MeasuredUnit, unit: string): boolean {
  const target = catalogUnit(unit);
  return target !== null && FACTORS[from][target] !== undefined;
}

/**
 * A quantity in a catalog unit, in hundredths: each measured unit's hundredths converted once and
 * rounded half up. Values in a unit that does not convert are left out.
 */
export function quantityInUnit(sums: ReadonlyMap<MeasuredUnit, number>, unit: string): number {
  const target = catalogUnit(unit);
  let total = 0;
  for (const [from, hundredths] of sums) {
    const factor = target === null ? undefined : FACTORS[from][target];
    if (!factor) continue;
    total += Math.round((hundredths * factor[0]) / factor[1]);
  }
  return total;
}
