// PASER (src/engines/condition/paser.ts and paser-rules.ts): ratings from distresses by the rules
// written down in docs/condition.md, each firing rule reported.
import { describe, expect, it } from 'vitest';
import {
  ASPHALT_DISTRESSES,
  ConditionInputError,
  PASER_RATINGS,
  PASER_RULES,
  ratePaser,
} from '#src/engines/condition/index.ts';
import type { DistressInput } from '#src/engines/condition/index.ts';

const rate = (...distresses: DistressInput[]) => ratePaser({ distresses });
const d = (type: string, severity: DistressInput['severity'], density_pct: number): DistressInput => ({
  type,
  severity,
  density_pct,
});

describe('PASER ratings', () => {
  it('rates clean pavement 10, limited by nothing', () => {
    const r = rate();
    expect(r).toMatchObject({ rating: 10, label: 'Excellent', limited_by: [] });
    expect(r.recommended_treatment).toMatch(/No maintenance/);
  });

  it('has a label, description and treatment for every rating 1–10, by the manual’s treatment groups', () => {
    expect(PASER_RATINGS.map((r) => r.rating)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    const treatment = (n: number) => PASER_RATINGS.find((r) => r.rating === n)!.recommended_treatment;
    for (const n of [10, 9]) expect(treatment(n)).toMatch(/No maintenance/);
    for (const n of [8, 7]) expect(treatment(n)).toMatch(/seal the cracks/);
    for (const n of [6, 5]) expect(treatment(n)).toMatch(/sealcoat or a thin/);
    for (const n of [4, 3]) expect(treatment(n)).toMatch(/mill and overlay/);
    for (const n of [2, 1]) expect(treatment(n)).toMatch(/Reconstruction/);
    for (const r of PASER_RATINGS) {
      expect(r.label.length).toBeGreaterThan(0);
      expect(r.description.length).toBeGreaterThan(20);
    }
  });

  it('reads transverse-crack spacing: 100 ÷ spacing in ft is feet per 100 sq ft', () => {
    // Tight cracks across a 12 ft lane every 50, 20 and 8 ft.
    expect(rate(d('longitudinal_transverse_cracking', 'low', 100 / 50)).rating).toBe(8);
    expect(rate(d('longitudinal_transverse_cracking', 'low', 100 / 20)).rating).toBe(7);
    expect(rate(d('longitudinal_transverse_cracking', 'low', 100 / 8)).rating).toBe(6);
    // Open (medium) cracks every 20 ft: 5; raveled (high) cracks every 8 ft: 3.
    expect(rate(d('longitudinal_transverse_cracking', 'medium', 5)).rating).toBe(5);
    expect(rate(d('longitudinal_transverse_cracking', 'high', 12.5)).rating).toBe(3);
  });

  it('follows the manual on alligator cracking: some is 3, over a quarter of the surface 2', () => {
    expect(rate(d('alligator_cracking', 'low', 5)).rating).toBe(4);
    expect(rate(d('alligator_cracking', 'medium', 5)).rating).toBe(3);
    expect(rate(d('alligator_cracking', 'medium', 30)).rating).toBe(2);
    expect(rate(d('alligator_cracking', 'high', 60)).rating).toBe(1);
  });

  it('counts a density at a severity or worse: medium and high block cracking add up', () => {
    // 30% medium and 25% high is over half the surface block-cracked at medium or worse.
    const r = rate(d('block_cracking', 'medium', 30), d('block_cracking', 'high', 25));
    expect(r.limited_by).toContainEqual({
      distress: 'block_cracking',
      severity: 'low',
      density_pct: 55,
      max_rating: 4,
      rule: 'block_cracking.over_half',
    });
    expect(r.rating).toBe(3); // high-severity block cracking on 10% or more: severe block cracking
  });

  it('reports every firing rule, the binding ones first', () => {
    const r = rate(d('weathering_raveling', 'low', 12), d('potholes', 'low', 0.04));
    expect(r.rating).toBe(3);
    expect(r.label).toBe('Poor');
    expect(r.limited_by).toEqual([
      { distress: 'potholes', severity: 'low', density_pct: 0.04, max_rating: 3, rule: 'potholes.occasional' },
      {
        distress: 'weathering_raveling',
        severity: 'low',
        density_pct: 12,
        max_rating: 6,
        rule: 'weathering_raveling.slight',
      },
      {
        distress: 'weathering_raveling',
        severity: 'low',
        density_pct: 12,
        max_rating: 7,
        rule: 'weathering_raveling.very_slight',
      },
    ]);
  });

  it("rates the standard's PCI example Poor (3), limited by alligator cracking, a poor patch and a pothole", () => {
    const r = ratePaser({
      sample_area_sqft: 2500,
      distresses: [
        { type: 'alligator_cracking', severity: 'low', quantity: 13 },
        { type: 'alligator_cracking', severity: 'high', quantity: 14 },
        { type: 'edge_cracking', severity: 'low', quantity: 130 },
        { type: 'joint_reflection_cracking', severity: 'medium', quantity: 143 },
        { type: 'patching', severity: 'high', quantity: 22 },
        { type: 'potholes', severity: 'low', quantity: 1 },
        { type: 'rutting', severity: 'low', quantity: 21 },
        { type: 'weathering_raveling', severity: 'low', quantity: 250 },
      ],
    });
    expect(r.rating).toBe(3);
    expect(r.limited_by.filter((l) => l.max_rating === 3).map((l) => l.rule)).toEqual([
      'alligator_cracking.some',
      'patching.poor',
      'potholes.occasional',
    ]);
  });

  it('leaves a railroad crossing unrated', () => {
    expect(rate(d('railroad_crossing', 'high', 20)).rating).toBe(10);
  });

  it('has stable, unique rule ids, every one naming an asphalt distress', () => {
    const ids = PASER_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of PASER_RULES) {
      expect(rule.id.startsWith(`${rule.distress}.`)).toBe(true);
      expect(rule.max_rating).toBeGreaterThanOrEqual(1);
      expect(rule.max_rating).toBeLessThanOrEqual(8);
    }
  });

  it('rates asphalt only', () => {
    expect(() => ratePaser({ pavement_type: 'concrete', distresses: [] })).toThrow(ConditionInputError);
  });
});

describe('coverage of the catalogue', () => {
  it('every asphalt distress but railroad crossings has a PASER rule at low severity and any density', () => {
    const anyAmount = new Set(
      PASER_RULES.filter((r) => r.severity === 'low' && r.min_density === 0).map((r) => r.distress),
    );
    expect(ASPHALT_DISTRESSES.map((d) => d.type).filter((t) => !anyAmount.has(t))).toEqual(['railroad_crossing']);
    for (const t of anyAmount) expect(rate(d(t, 'low', 0.001)).rating).toBeLessThanOrEqual(8);
  });
});
