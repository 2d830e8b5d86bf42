// The synthetic pavement generator: seeded, and its truth adds up.
import { describe, expect, it } from 'vitest';
import { measureAccuracy } from '#engines/distress/accuracy.ts';
import { crackSeverity, generateScene, SCENE_CATEGORIES } from '#engines/distress/synthetic.ts';

describe('synthetic pavement', () => {
  it('is deterministic per category and seed, and differs between seeds', () => {
    const a = generateScene('cracks', 5);
    const b = generateScene('cracks', 5);
    const c = generateScene('cracks', 6);
    expect(Buffer.from(a.pixels.data).equals(Buffer.from(b.pixels.data))).toBe(true);
    expect(a.truth).toEqual(b.truth);
    expect(Buffer.from(a.pixels.data).equals(Buffer.from(c.pixels.data))).toBe(false);
  });

  it('draws every category at the asked size with a truth in range', () => {
    for (const category of SCENE_CATEGORIES) {
      const s = generateScene(category, 1, { size: 128 });
      expect(s.pixels.data.length).toBe(128 * 128 * 3);
      expect(s.truth.pavement_pct).toBeGreaterThanOrEqual(0);
      expect(s.truth.pavement_pct).toBeLessThanOrEqual(100);
      for (const d of Object.values(s.truth.distresses)) expect(d.density_pct).toBeGreaterThan(0);
    }
    expect(generateScene('grass', 1, { size: 64 }).truth.pavement_pct).toBe(0);
  });

  it("a crack's linear density is its length over the area, in feet per 100 sq ft", () => {
    // 320 px at 5 mm = 1.6 m square = 27.56 sq ft; density × area / 100 = length in feet ≤ what fits.
    const s = generateScene('cracks', 3);
    const ft = ((s.truth.distresses.longitudinal_transverse_cracking?.density_pct ?? 0) * 27.556) / 100;
    expect(ft).toBeGreaterThan(0.5);
    expect(ft).toBeLessThan(3 * 1.6 * 1.2 * 3.28084);
  });

  it('grades widths as ASTM D6433 does', () => {
    expect(crackSeverity(6)).toBe('low');
    expect(crackSeverity(10)).toBe('medium');
    expect(crackSeverity(76)).toBe('medium');
    expect(crackSeverity(80)).toBe('high');
  });
});

describe('accuracy measurement', () => {
  it('counts every image once and every drawn distress as found or missed', async () => {
    const report = await measureAccuracy({ perCategory: 1, categories: ['clean', 'potholes', 'grass'], seed: 1 });
    expect(report.images).toBe(3);
    const potholes = report.byType.find((t) => t.type === 'potholes');
    expect((potholes?.truePositives ?? 0) + (potholes?.falseNegatives ?? 0)).toBe(1);
    expect(report.byCategory.map((c) => c.pavementRight)).toEqual([1, 1, 1]);
  });
});
