// The irrigation takeoff on generated sheets whose truth is known (docs/plan-reading.md,
// "Irrigation"): heads and valves counted at the legend's symbols, pipe lengths per class at the
// stated scale, and zones from valve callouts with their heads and lateral length.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadMupdf, openPlan, parseScale, planText, readIrrigation } from '#engines/plans/index.ts';
import { syntheticIrrigation } from '#engines/plans/synthetic-irrigation.ts';

// MuPDF loads on first use (engines/plans/mupdf.ts); these tests open plans the generator did not.
beforeAll(() => loadMupdf());

describe('readIrrigation', () => {
  it('counts, lengths and zones equal the drawn truth on seeds 1–3', async () => {
    for (const seed of [1, 2, 3]) {
      const { bytes, truth } = await syntheticIrrigation(seed);
      const plan = openPlan(bytes);
      try {
        const found = readIrrigation(plan, planText(plan));
        expect(found.legend.status).toBe('found');
        expect(found.legend.rows.map((r) => r.kind)).toEqual([
          'head',
          'head',
          'valve',
          'other',
          'pipe',
          'pipe',
          'pipe',
        ]);
        expect(found.heads_and_valves.map((h) => [h.kind, h.dot_count, h.plan_quantity])).toEqual([
          ['head', truth.sprays, truth.sprays],
          ['head', truth.rotors, truth.rotors],
          ['valve', truth.valves, truth.valves],
        ]);
        expect(found.pipes.map((p) => p.linear_feet)).toEqual([truth.mainlineFt, truth.lateralFt, truth.sleeveFt]);
        expect(
          found.zones.map(({ zone, valve_size, gpm, heads, lateral_lf, x, y }) => ({
            zone,
            valve_size,
            gpm,
            heads,
            lateral_lf,
            x,
            y,
          })),
        ).toEqual(truth.zones);
        expect(found.zones.reduce((n, z) => n + z.heads, 0)).toBe(truth.sprays + truth.rotors);
        expect(found.notes).toEqual([]);
      } finally {
        plan.close();
      }
    }
  });

  it('a plan without an irrigation legend says so', async () => {
    const { syntheticPlan } = await import('#engines/plans/synthetic-plan.ts');
    const plan = openPlan((await syntheticPlan(1)).bytes);
    try {
      const found = readIrrigation(plan, planText(plan));
      expect(found.legend.status).toBe('not_found');
      expect(found.notes).toEqual(['No irrigation legend found.']);
    } finally {
      plan.close();
    }
  });
});

describe('parseScale', () => {
  it('engineering and architectural scales; NTS is none', () => {
    expect(parseScale('SCALE: 1" = 20\'')?.feetPerInch).toBe(20);
    expect(parseScale("SCALE 1''=30'-0\"")?.feetPerInch).toBe(30);
    expect(parseScale('1" = 10 FT')?.feetPerInch).toBe(10);
    expect(parseScale('SCALE: 1/8" = 1\'-0"')?.feetPerInch).toBe(8);
    expect(parseScale('1/4"=1\'')?.feetPerInch).toBe(4);
    expect(parseScale('SCALE: NTS')).toBeNull();
    expect(parseScale('NOT TO SCALE 1" = 20\'')).toBeNull();
    expect(parseScale('10 FT')).toBeNull();
  });
});
