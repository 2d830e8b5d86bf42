// PCI bands (src/engines/condition/bands.ts): exactly document 3's, fractional scores by the
// nearest whole number.
import { describe, expect, it } from 'vitest';
import { PCI_BANDS, pciBand } from '#src/engines/condition/index.ts';

describe('PCI bands', () => {
  it("are document 3's seven bands, covering 0–100 without gaps", () => {
    expect(PCI_BANDS.map((b) => `${b.label} ${b.min}-${b.max}`)).toEqual([
      'Good 86-100',
      'Satisfactory 71-85',
      'Fair 56-70',
      'Poor 41-55',
      'Very poor 26-40',
      'Serious 11-25',
      'Failed 0-10',
    ]);
    for (let s = 0; s <= 100; s++) expect(PCI_BANDS.filter((b) => s >= b.min && s <= b.max)).toHaveLength(1);
  });

  it('each has a strategy, a hex color and a treatment', () => {
    for (const b of PCI_BANDS) {
      expect(b.color).toMatch(/^#[0-9a-f]{6}$/);
      expect(b.strategy.length).toBeGreaterThan(0);
      expect(b.recommended_treatment.length).toBeGreaterThan(20);
    }
    expect(new Set(PCI_BANDS.map((b) => b.color)).size).toBe(7);
  });

  it('bands a fractional score by its nearest whole number, halves up', () => {
    expect(pciBand(85.6).label).toBe('Good');
    expect(pciBand(85.5).label).toBe('Good');
    expect(pciBand(85.4).label).toBe('Satisfactory');
    expect(pciBand(10.5).label).toBe('Serious');
    expect(pciBand(10.4).label).toBe('Failed');
    expect(pciBand(100).label).toBe('Good');
    expect(pciBand(0).label).toBe('Failed');
  });

  it('refuses a score outside 0–100', () => {
    expect(() => pciBand(-0.1)).toThrow(RangeError);
    expect(() => pciBand(100.1)).toThrow(RangeError);
    expect(() => pciBand(Number.NaN)).toThrow(RangeError);
  });
});
