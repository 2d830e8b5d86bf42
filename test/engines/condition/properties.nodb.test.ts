// Properties of the condition engines for any distresses: PCI within 0–100 with the band of its
// score, PASER within 1–10, and more or worse distress never raising a rating. PASER never rises,
// for any input. PCI follows ASTM D6433 exactly, and the standard's procedure itself can rise in
// two cases, pinned below with their numbers (docs/condition.md, "Where PCI can rise"): a higher
// highest deduct lowers m and cuts other deducts, and moving quantity to a worse severity splits
// one curve's reading across two. Outside those two cases PCI never rises, which is tested here.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ASPHALT_CDV_CURVES } from '#src/engines/condition/corrected-deduct-curves.ts';
import { correctDeducts } from '#src/engines/condition/corrected-deduct.ts';
import { readCorrectedDeduct } from '#src/engines/condition/curves.ts';
import {
  ASPHALT_DISTRESSES,
  CONCRETE_DISTRESSES,
  deductValue,
  type DistressInput,
  type PavementType,
  type PciResult,
  pciBand,
  ratePaser,
  ratePci,
  SEVERITIES,
  type Severity,
} from '#src/engines/condition/index.ts';

const RUNS = 400;

// Densities spread evenly on the charts' log axis, 0.005% to 150%, and now and then exactly 0.
const density = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.double({ min: Math.log10(0.005), max: Math.log10(150), noNaN: true }).map((x) => 10 ** x),
  },
  { weight: 1, arbitrary: fc.constant(0) },
);
const distressOf = (pavement: PavementType) =>
  fc.record({
    type: fc.constantFrom(...(pavement === 'asphalt' ? ASPHALT_DISTRESSES : CONCRETE_DISTRESSES).map((d) => d.type)),
    severity: fc.constantFrom(...SEVERITIES),
    density_pct: density,
  }) as fc.Arbitrary<DistressInput & { density_pct: number }>;
const asphaltList = fc.array(distressOf('asphalt'), { maxLength: 12 });
const concreteList = fc.array(distressOf('concrete'), { maxLength: 12 });

const pci = (distresses: DistressInput[], pavement_type: PavementType = 'asphalt') =>
  ratePci({ pavement_type, distresses }).score;
const paser = (distresses: DistressInput[]) => ratePaser({ distresses }).rating;

const worse = (s: Severity): Severity => SEVERITIES[Math.min(2, SEVERITIES.indexOf(s) + 1)]!;

const nonEmpty = asphaltList.filter((ds) => ds.length > 0);
const factor = fc.double({ min: 1, max: 20, noNaN: true });
const withDensity = <T extends { density_pct: number }>(ds: T[], i: number, f: number): T[] =>
  ds.map((d, j) => (j === i ? { ...d, density_pct: (d.density_pct || 0.01) * f } : d));
const withWorseSeverity = <T extends DistressInput>(ds: T[], i: number): T[] =>
  ds.map((d, j) => (j === i ? { ...d, severity: worse(d.severity) } : d));

describe('ranges and bands', () => {
  it('PCI is within 0–100 and carries the band of its score', () => {
    fc.assert(
      fc.property(fc.boolean(), asphaltList, concreteList, (isAsphalt, a, c) => {
        const r = isAsphalt ? ratePci({ distresses: a }) : ratePci({ pavement_type: 'concrete', distresses: c });
        expect(r.score).toBeGreaterThanOrEqual(0);
        expect(r.score).toBeLessThanOrEqual(100);
        const band = pciBand(r.score);
        expect([r.label, r.color, r.strategy]).toEqual([band.label, band.color, band.strategy]);
        const whole = Math.floor(r.score + 0.5);
        expect(whole).toBeGreaterThanOrEqual(band.min);
        expect(whole).toBeLessThanOrEqual(band.max);
      }),
      { numRuns: RUNS },
    );
  });

  it('PASER is a whole number within 1–10, the lowest max_rating it reports', () => {
    fc.assert(
      fc.property(asphaltList, (ds) => {
        const r = ratePaser({ distresses: ds });
        expect(Number.isInteger(r.rating)).toBe(true);
        expect(r.rating).toBeGreaterThanOrEqual(1);
        expect(r.rating).toBeLessThanOrEqual(10);
        expect(r.rating).toBe(Math.min(10, ...r.limited_by.map((l) => l.max_rating)));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('PASER: more or worse distress never raises the rating', () => {
  it('adding a distress', () => {
    fc.assert(
      fc.property(asphaltList, distressOf('asphalt'), (ds, extra) => {
        expect(paser([...ds, extra])).toBeLessThanOrEqual(paser(ds));
      }),
      { numRuns: RUNS },
    );
  });

  it('raising a density or a severity', () => {
    fc.assert(
      fc.property(nonEmpty, fc.nat(), factor, (ds, at, f) => {
        const i = at % ds.length;
        expect(paser(withDensity(ds, i, f))).toBeLessThanOrEqual(paser(ds));
        expect(paser(withWorseSeverity(ds, i))).toBeLessThanOrEqual(paser(ds));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('deduct values never fall with more or worse distress', () => {
  it('on every asphalt and concrete curve', () => {
    const kinds = [
      ...ASPHALT_DISTRESSES.map((d) => ['asphalt', d.type] as const),
      ...CONCRETE_DISTRESSES.map((d) => ['concrete', d.type] as const),
    ];
    fc.assert(
      fc.property(fc.constantFrom(...kinds), fc.constantFrom(...SEVERITIES), density, density, ([p, t], s, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(deductValue(p, t, s, lo)).toBeLessThanOrEqual(deductValue(p, t, s, hi));
        expect(deductValue(p, t, s, hi)).toBeLessThanOrEqual(deductValue(p, t, worse(s), hi));
      }),
      { numRuns: RUNS * 5 },
    );
  });
});

describe('the corrected-deduct procedure never lowers the maximum CDV when m cuts no deduct', () => {
  const deducts = fc.array(
    fc.double({ min: 0, max: 100, noNaN: true }).map((v) => Math.round(v * 10) / 10),
    {
      maxLength: 9,
    },
  );
  const asphaltCdv = (q: number, tdv: number) => readCorrectedDeduct(ASPHALT_CDV_CURVES, q, tdv);
  const uncut = (ds: number[]) => {
    const r = correctDeducts(ds, asphaltCdv);
    return r.allowed_deducts === null || ds.filter((d) => d > 0).length <= Math.floor(r.allowed_deducts);
  };

  it('adding a deduct or raising one', () => {
    fc.assert(
      fc.property(deducts, fc.double({ min: 0, max: 100, noNaN: true }), fc.nat(), (ds, v, at) => {
        const extra = Math.round(v * 10) / 10;
        const added = [...ds, extra];
        fc.pre(uncut(added));
        const before = correctDeducts(ds, asphaltCdv).max_corrected_deduct;
        expect(correctDeducts(added, asphaltCdv).max_corrected_deduct).toBeGreaterThanOrEqual(before);
        if (ds.length === 0) return;
        const i = at % ds.length;
        const raised = ds.map((d, j) => (j === i ? Math.max(d, extra) : d));
        fc.pre(uncut(raised));
        expect(correctDeducts(raised, asphaltCdv).max_corrected_deduct).toBeGreaterThanOrEqual(before);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('PCI: more or worse distress never raises the score, outside the standard’s two exceptions', () => {
  const small = fc.array(distressOf('asphalt'), { minLength: 1, maxLength: 6 });
  /** m keeps every non-zero deduct whole. */
  const uncut = (r: PciResult) =>
    r.allowed_deducts === null || r.deducts.filter((d) => d.deduct_value > 0).length <= Math.floor(r.allowed_deducts);

  it('adding a distress', () => {
    fc.assert(
      fc.property(small, distressOf('asphalt'), (ds, extra) => {
        const after = ratePci({ distresses: [...ds, extra] });
        fc.pre(uncut(after));
        expect(after.score).toBeLessThanOrEqual(pci(ds));
      }),
      { numRuns: RUNS },
    );
  });

  it('adding a distress, concrete', () => {
    const smallConcrete = fc.array(distressOf('concrete'), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(smallConcrete, distressOf('concrete'), (ds, extra) => {
        const after = ratePci({ pavement_type: 'concrete', distresses: [...ds, extra] });
        fc.pre(uncut(after));
        expect(after.score).toBeLessThanOrEqual(pci(ds, 'concrete'));
      }),
      { numRuns: RUNS },
    );
  });

  it('raising a density', () => {
    fc.assert(
      fc.property(small, fc.nat(), factor, (ds, at, f) => {
        const after = ratePci({ distresses: withDensity(ds, at % ds.length, f) });
        fc.pre(uncut(after));
        expect(after.score).toBeLessThanOrEqual(pci(ds));
      }),
      { numRuns: RUNS },
    );
  });

  it('raising the severity of a distress that is the only one of its type', () => {
    fc.assert(
      fc.property(small, fc.nat(), (ds, at) => {
        const i = at % ds.length;
        fc.pre(ds.filter((d) => d.type === ds[i]!.type).length === 1);
        const after = ratePci({ distresses: withWorseSeverity(ds, i) });
        fc.pre(uncut(after));
        expect(after.score).toBeLessThanOrEqual(pci(ds));
      }),
      { numRuns: RUNS },
    );
  });

  it('exception 1, pinned: a higher highest deduct lowers m and cuts the others', () => {
    // Potholes from 4.7 to 6.1 per 100 sq ft: their deduct rises 86.8 → 91.4, m falls 2.21 → 1.79,
    // so rutting's 78.1 is kept only as 78.1 × 0.79 = 61.7 and the maximum CDV falls 100 → 95.
    const base = [
      { type: 'rutting', severity: 'medium' as const, density_pct: 4.9 },
      { type: 'bumps_and_sags', severity: 'medium' as const, density_pct: 12.7 },
    ];
    const before = ratePci({ distresses: [...base, { type: 'potholes', severity: 'low', density_pct: 4.7 }] });
    const after = ratePci({ distresses: [...base, { type: 'potholes', severity: 'low', density_pct: 6.1 }] });
    expect(before.deducts.map((d) => d.deduct_value)).toEqual([86.8, 78.1, 34.4]);
    expect(after.deducts.map((d) => d.deduct_value)).toEqual([91.4, 78.1, 34.4]);
    expect(after.iterations[0]!.deducts).toEqual([91.4, 61.7]);
    expect([before.score, after.score]).toEqual([0, 5]);
  });

  it('exception 2, pinned: moving quantity to a worse severity reads one curve where two were read', () => {
    // Alligator cracking 10% medium + 10% high (deducts 45.8 and 61.1, CDV 73.7) against 20% high
    // (one deduct, 70.0): the worse pavement scores higher.
    const split = ratePci({
      distresses: [
        { type: 'alligator_cracking', severity: 'medium', density_pct: 10 },
        { type: 'alligator_cracking', severity: 'high', density_pct: 10 },
      ],
    });
    const merged = ratePci({ distresses: [{ type: 'alligator_cracking', severity: 'high', density_pct: 20 }] });
    expect([split.max_corrected_deduct, merged.max_corrected_deduct]).toEqual([73.7, 70]);
    expect([split.score, merged.score]).toEqual([26.3, 30]);
  });
});
