// PCI (src/engines/condition/pci.ts): the standard's asphalt worked example, the corrected-deduct
// procedure on hand-worked deducts, and how the digitized curves are read (docs/condition.md).
import { describe, expect, it } from 'vitest';
import { ASPHALT_DEDUCT_CURVES } from '#src/engines/condition/asphalt-deduct-curves.ts';
import { ASPHALT_CDV_CURVES, CONCRETE_CDV_CURVES } from '#src/engines/condition/corrected-deduct-curves.ts';
import { allowedDeducts, correctDeducts, round1 } from '#src/engines/condition/corrected-deduct.ts';
import { monotoneEnvelope, readCorrectedDeduct, readDeductCurve } from '#src/engines/condition/curves.ts';
import { ConditionInputError, deductValue, ratePci } from '#src/engines/condition/index.ts';

// ASTM D6433's asphalt example: one 2,500 sq ft sample unit.
const EXAMPLE = {
  sample_area_sqft: 2500,
  distresses: [
    { type: 'alligator_cracking', severity: 'low' as const, quantity: 13 },
    { type: 'alligator_cracking', severity: 'high' as const, quantity: 14 },
    { type: 'edge_cracking', severity: 'low' as const, quantity: 130 },
    { type: 'joint_reflection_cracking', severity: 'medium' as const, quantity: 143 },
    { type: 'patching', severity: 'high' as const, quantity: 22 },
    { type: 'potholes', severity: 'low' as const, quantity: 1 },
    { type: 'rutting', severity: 'low' as const, quantity: 21 },
    { type: 'weathering_raveling', severity: 'low' as const, quantity: 250 },
  ],
};

describe("the standard's asphalt example", () => {
  const result = ratePci(EXAMPLE);

  it('reads each density as quantity ÷ sample area × 100', () => {
    const density = Object.fromEntries(result.deducts.map((d) => [`${d.distress}/${d.severity}`, d.density_pct]));
    expect(density).toEqual({
      'alligator_cracking/low': 0.52,
      'alligator_cracking/high': 0.56,
      'edge_cracking/low': 5.2,
      'joint_reflection_cracking/medium': 5.72,
      'patching/high': 0.88,
      'potholes/low': 0.04,
      'rutting/low': 0.84,
      'weathering_raveling/low': 10,
    });
  });

  it("gives the standard's deducts, largest first, each within 2 points", () => {
    // The standard lists 25.1, 23.4, 17.9, 11.2, 7.9, 7.5, 6.9 and 5.3, read by eye off its charts.
    const standard = [25.1, 23.4, 17.9, 11.2, 7.9, 7.5, 6.9, 5.3];
    const ours = result.deducts.map((d) => d.deduct_value);
    expect(ours).toHaveLength(8);
    for (const [i, v] of ours.entries()) expect(Math.abs(v - standard[i]!)).toBeLessThanOrEqual(2);
  });

  it('keeps m of them, the last one fractional, and iterates down to q = 1', () => {
    const m = result.allowed_deducts!;
    expect(m).toBeCloseTo(1 + (9 / 98) * (100 - result.highest_deduct), 10);
    expect(m).toBeGreaterThan(7);
    expect(m).toBeLessThan(8);
    const first = result.iterations[0]!;
    const eighth = result.deducts[7]!.deduct_value;
    expect(first.deducts[7]).toBe(round1(eighth * (m - 7)));
    expect(first.q).toBe(8);
    expect(result.iterations.map((r) => r.q)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    for (const row of result.iterations) expect(row.total_deduct).toBe(round1(row.deducts.reduce((a, b) => a + b, 0)));
  });

  it('max CDV ≈ 51, PCI 49 ± 3, Poor', () => {
    expect(Math.abs(result.max_corrected_deduct - 51)).toBeLessThanOrEqual(3);
    expect(result.max_corrected_deduct).toBe(Math.max(...result.iterations.map((r) => r.corrected_deduct)));
    expect(result.score).toBe(round1(100 - result.max_corrected_deduct));
    expect(Math.abs(result.score - 49)).toBeLessThanOrEqual(3);
    expect(result.label).toBe('Poor');
    expect(result.color).toBe('#fc2e1f');
    expect(result.method).toBe('astm_d6433');
  });

  it('gives the same answer from densities (what the detector reports) as from quantities', () => {
    const byDensity = ratePci({
      distresses: result.deducts.map((d) => ({ type: d.distress, severity: d.severity, density_pct: d.density_pct })),
    });
    expect(byDensity.score).toBe(result.score);
    expect(byDensity.deducts).toEqual(result.deducts);
  });
});

describe('a single deduct', () => {
  it('of 7.9 gives PCI 92.1: with at most one deduct over 2 the CDV is the total', () => {
    // Patching, low severity, at 4% is a digitized point of its curve: 7.9.
    const r = ratePci({ sample_area_sqft: 2500, distresses: [{ type: 'patching', severity: 'low', quantity: 100 }] });
    expect(r.deducts).toEqual([{ distress: 'patching', severity: 'low', density_pct: 4, deduct_value: 7.9 }]);
    expect(r.allowed_deducts).toBeNull();
    expect(r.max_corrected_deduct).toBe(7.9);
    expect(r.score).toBe(92.1);
    expect(r.label).toBe('Good');
  });

  it('small deducts beside it are added, not corrected', () => {
    const r = correctDeducts([1.5, 7.9, 1], () => {
      throw new Error('no curve is read when at most one deduct is over 2');
    });
    expect(r.max_corrected_deduct).toBe(10.4);
    expect(r.allowed_deducts).toBeNull();
  });

  it('no distress at all rates 100', () => {
    const r = ratePci({ distresses: [] });
    expect(r.score).toBe(100);
    expect(r.label).toBe('Good');
    expect(r.iterations).toEqual([]);
  });
});

describe('the corrected-deduct procedure on hand-worked deducts', () => {
  // A made-up curve family, CDV = TDV ÷ q, so every row can be worked by hand.
  const byQ = (q: number, tdv: number) => tdv / q;

  it('uses every deduct when there are fewer than m', () => {
    // HDV 40: m = 1 + 9/98 × 60 = 6.51, more than the 5 deducts.
    const r = correctDeducts([5, 40, 1.5, 10, 20], byQ);
    expect(r.highest_deduct).toBe(40);
    expect(r.allowed_deducts).toBeCloseTo(6.5102, 4);
    expect(r.rows).toEqual([
      { deducts: [40, 20, 10, 5, 1.5], total_deduct: 76.5, q: 4, corrected_deduct: 19.1 },
      { deducts: [40, 20, 10, 2, 1.5], total_deduct: 73.5, q: 3, corrected_deduct: 24.5 },
      { deducts: [40, 20, 2, 2, 1.5], total_deduct: 65.5, q: 2, corrected_deduct: 32.8 },
      { deducts: [40, 2, 2, 2, 1.5], total_deduct: 47.5, q: 1, corrected_deduct: 47.5 },
    ]);
    expect(r.max_corrected_deduct).toBe(47.5);
  });

  it('keeps the m largest, the last one times m’s fractional part', () => {
    // HDV 70: m = 1 + 9/98 × 30 = 3.755; keep 70, 30, 25 and 20 × 0.755 = 15.1; 10 is dropped.
    const r = correctDeducts([10, 20, 25, 30, 70], byQ);
    expect(r.allowed_deducts).toBeCloseTo(3.7551, 4);
    expect(r.rows).toEqual([
      { deducts: [70, 30, 25, 15.1], total_deduct: 140.1, q: 4, corrected_deduct: 35 },
      { deducts: [70, 30, 25, 2], total_deduct: 127, q: 3, corrected_deduct: 42.3 },
      { deducts: [70, 30, 2, 2], total_deduct: 104, q: 2, corrected_deduct: 52 },
      { deducts: [70, 2, 2, 2], total_deduct: 76, q: 1, corrected_deduct: 76 },
    ]);
    expect(r.max_corrected_deduct).toBe(76);
  });

  it('counts q over 2.0 only: a fractional deduct that falls to 2 or under is not counted', () => {
    // HDV 90: m = 1.918; keep 90 and 2.2 × 0.918 = 2.0.
    const r = correctDeducts([90, 2.2, 2.1], byQ);
    expect(r.rows[0]).toEqual({ deducts: [90, 2], total_deduct: 92, q: 1, corrected_deduct: 92 });
    expect(r.rows).toHaveLength(1);
  });

  it('m is 1 + (9/98)(100 − HDV), never over 10', () => {
    expect(allowedDeducts(100)).toBe(1);
    expect(allowedDeducts(2)).toBeCloseTo(10, 12);
    expect(allowedDeducts(0)).toBe(10);
  });
});

describe('reading the curves', () => {
  const alligator = ASPHALT_DEDUCT_CURVES.alligator_cracking!;

  it('gives the digitized value at a digitized density', () => {
    expect(readDeductCurve(alligator, 'log', 'low', 1)).toBeCloseTo(10.7, 10);
    expect(readDeductCurve(alligator, 'log', 'high', 10)).toBeCloseTo(61.1, 10);
  });

  it('interpolates on the logarithmic axis', () => {
    // √(1 × 2) is halfway between 1 and 2 on a log axis: halfway between 10.7 and 16.9.
    expect(readDeductCurve(alligator, 'log', 'low', Math.SQRT2)).toBeCloseTo(13.8, 10);
  });

  it('falls in proportion to density below the first point, and holds past the last', () => {
    expect(readDeductCurve(alligator, 'log', 'low', 0.05)).toBeCloseTo(3.7 / 2, 10);
    expect(readDeductCurve(alligator, 'log', 'low', 0)).toBe(0);
    expect(readDeductCurve(alligator, 'log', 'low', 250)).toBeCloseTo(61.7, 10);
  });

  it('clamps to 100 where the digitized chart runs past it', () => {
    expect(deductValue('asphalt', 'potholes', 'medium', 2)).toBe(100);
  });

  it('reads through the running maximum where digitizing noise dips', () => {
    expect(monotoneEnvelope([0.6, 0.1, 0.1, 0.7, 0.6, 1.4])).toEqual([0.6, 0.6, 0.6, 0.7, 0.7, 1.4]);
    expect(deductValue('asphalt', 'bleeding', 'low', 0.4)).toBe(0.6);
  });

  it('reads asphalt q over 7 on the q = 7 curve, and a missing concrete q between its neighbours', () => {
    expect(readCorrectedDeduct(ASPHALT_CDV_CURVES, 8, 100)).toBe(readCorrectedDeduct(ASPHALT_CDV_CURVES, 7, 100));
    expect(readCorrectedDeduct(CONCRETE_CDV_CURVES, 5, 100)).toBeCloseTo((56.9 + 51.3) / 2, 10);
    expect(readCorrectedDeduct(CONCRETE_CDV_CURVES, 12, 100)).toBeCloseTo(44.1, 10);
  });

  it('extends the corrected-deduct curves past their span and clamps to 0–100', () => {
    expect(readCorrectedDeduct(ASPHALT_CDV_CURVES, 1, 150)).toBe(100);
    // q = 7 at TDV 30 is 6.1, rising 0.7 a point: 0 below about 21.
    expect(readCorrectedDeduct(ASPHALT_CDV_CURVES, 7, 25)).toBeCloseTo(6.1 - 0.7 * 5, 10);
    expect(readCorrectedDeduct(ASPHALT_CDV_CURVES, 7, 10)).toBe(0);
  });
});

describe('concrete', () => {
  it('is a visual estimate over slab densities', () => {
    const r = ratePci({
      pavement_type: 'concrete',
      sample_slabs: 20,
      distresses: [
        { type: 'linear_cracking', severity: 'medium', quantity: 4 },
        { type: 'spalling_joint', severity: 'low', quantity: 2 },
        { type: 'joint_seal_damage', severity: 'medium', quantity: 20 },
      ],
    });
    expect(r.method).toBe('visual_estimate');
    // Linear cracking M at 20% of slabs is a digitized point: 14.8; joint seal damage M is 4;
    // spalling (joint) L at 10% is 2.4.
    expect(r.deducts.map((d) => [d.distress, d.density_pct, d.deduct_value])).toEqual([
      ['linear_cracking', 20, 14.8],
      ['joint_seal_damage', 100, 4],
      ['spalling_joint', 10, 2.4],
    ]);
    expect(r.score).toBe(round1(100 - r.max_corrected_deduct));
    expect(r.score).toBeGreaterThan(70);
  });
});

describe('input', () => {
  const bad = (input: unknown) => {
    try {
      ratePci(input as Parameters<typeof ratePci>[0]);
    } catch (e) {
      expect(e).toBeInstanceOf(ConditionInputError);
      return (e as ConditionInputError).code;
    }
    throw new Error('accepted');
  };

  it('refuses what it cannot rate, naming the place', () => {
    expect(bad({ distresses: [{ type: 'cracks', severity: 'low', density_pct: 1 }] })).toBe('unknown_distress');
    expect(bad({ distresses: [{ type: 'rutting', severity: 'severe', density_pct: 1 }] })).toBe('invalid_severity');
    expect(bad({ distresses: [{ type: 'rutting', severity: 'low' }] })).toBe('quantity_or_density');
    expect(bad({ distresses: [{ type: 'rutting', severity: 'low', quantity: 5, density_pct: 1 }] })).toBe(
      'quantity_or_density',
    );
    expect(bad({ distresses: [{ type: 'rutting', severity: 'low', quantity: 5 }] })).toBe('missing_sample');
    expect(bad({ distresses: [{ type: 'rutting', severity: 'low', density_pct: -1 }] })).toBe('invalid_density');
    expect(bad({ distresses: [{ type: 'potholes', severity: 'low', density_pct: 1, density_unit: 'area' }] })).toBe(
      'density_unit_mismatch',
    );
    expect(bad({ pavement_type: 'concrete', distresses: [{ type: 'rutting', severity: 'low', density_pct: 1 }] })).toBe(
      'unknown_distress',
    );
    expect(bad({ sample_area_sqft: 0, distresses: [] })).toBe('invalid_sample');
  });

  it('adds up entries of one type and severity, as the standard groups a sample unit', () => {
    const r = ratePci({
      sample_area_sqft: 2500,
      distresses: [
        { type: 'alligator_cracking', severity: 'low', quantity: 5 },
        { type: 'alligator_cracking', severity: 'low', quantity: 4 },
        { type: 'alligator_cracking', severity: 'low', quantity: 4 },
      ],
    });
    expect(r.deducts).toHaveLength(1);
    expect(r.deducts[0]!.density_pct).toBe(0.52);
  });
});
