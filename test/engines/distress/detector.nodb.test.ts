// The built-in distress detector held to stated tolerances on generated images whose truth is
// known (docs/condition.md, "Tolerances"). Seeds 1–8 here; the bench measures 1000 on.
import { describe, expect, it } from 'vitest';
import { densities } from '#engines/distress/accuracy.ts';
import {
  DENSITY_UNIT,
  type DetectionResult,
  type DistressType,
  detectDistresses,
  loadCv,
} from '#engines/distress/index.ts';
import { generateScene, type SceneCategory, type SyntheticScene } from '#engines/distress/synthetic.ts';

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];
/** Process-wide handlers before OpenCV loads: it adds its own, and loadCv takes them off again. */
const HANDLERS = () => [process.listeners('uncaughtException').length, process.listeners('unhandledRejection').length];
const handlersBefore = HANDLERS();

async function run(category: SceneCategory, seed: number): Promise<{ scene: SyntheticScene; result: DetectionResult }> {
  const scene = generateScene(category, seed);
  const result = await detectDistresses(scene.pixels, { metersPerPixel: scene.metersPerPixel });
  return { scene, result };
}

/** Relative density error per seed for one type (null when the detector missed it). */
async function errors(category: SceneCategory, type: DistressType): Promise<(number | null)[]> {
  const out: (number | null)[] = [];
  for (const seed of SEEDS) {
    const { scene, result } = await run(category, seed);
    const truth = scene.truth.distresses[type];
    expect(truth, `${category} #${seed} has ${type}`).toBeDefined();
    const got = densities(result)[type];
    out.push(got && truth ? Math.abs(got.density - truth.density_pct) / truth.density_pct : null);
  }
  return out;
}

function within(errs: (number | null)[], tolerance: number): number {
  return errs.filter((e) => e !== null && e <= tolerance).length;
}

describe('distress detector: densities within the stated tolerances', () => {
  // [category, type, relative tolerance, images of 8 that must be within it]
  const cases: [SceneCategory, DistressType, number, number][] = [
    ['cracks', 'longitudinal_transverse_cracking', 0.25, 7],
    ['alligator', 'alligator_cracking', 0.25, 8],
    ['block', 'block_cracking', 0.1, 8],
    ['potholes', 'potholes', 0.3, 7],
    ['patches', 'patching', 0.35, 7],
    ['raveling', 'weathering_raveling', 0.15, 8],
  ];
  for (const [category, type, tolerance, needed] of cases) {
    it(`${category}: ${type} within ±${tolerance * 100}% on at least ${needed} of 8`, async () => {
      const errs = await errors(category, type);
      expect(
        within(errs, tolerance),
        `errors ${errs.map((e) => (e === null ? 'missed' : e.toFixed(2))).join(' ')}`,
      ).toBeGreaterThanOrEqual(needed);
    });
  }

  it('reports only the distress drawn, in its own unit', async () => {
    for (const category of ['cracks', 'alligator', 'block', 'potholes', 'patches', 'raveling'] as const) {
      for (const seed of SEEDS.slice(0, 4)) {
        const { scene, result } = await run(category, seed);
        for (const d of result.distresses) {
          expect(scene.truth.distresses[d.type], `${category} #${seed} reported ${d.type}`).toBeDefined();
          expect(d.density_unit).toBe(DENSITY_UNIT[d.type]);
          expect(d.density_pct).toBeGreaterThan(0);
          expect(d.where.length).toBeGreaterThan(0);
        }
      }
    }
  });

  it('grades crack severity by width (ASTM D6433: < 10 mm low, 10–76 mm medium, > 76 mm high)', async () => {
    let agree = 0;
    for (const seed of SEEDS) {
      const { scene, result } = await run('cracks', seed);
      const truth = scene.truth.distresses.longitudinal_transverse_cracking;
      if (densities(result).longitudinal_transverse_cracking?.severity === truth?.severity) agree++;
    }
    expect(agree).toBeGreaterThanOrEqual(7);
  });
});

describe('distress detector: what must not be found', () => {
  it('clean pavement reports nothing at all', async () => {
    for (const seed of SEEDS) {
      const { result } = await run('clean', seed);
      expect(result.pavementFound).toBe(true);
      expect(result.visible_pavement_pct).toBeGreaterThan(99);
      expect(result.distresses, `clean #${seed}`).toEqual([]);
    }
  });

  it('a photo of grass: pavement not found, so the caller answers 422 no_pavement_visible', async () => {
    for (const seed of SEEDS.slice(0, 3)) {
      const { result } = await run('grass', seed);
      expect(result.pavementFound).toBe(false);
      expect(result.visible_pavement_pct).toBeLessThan(15);
      expect(result.view).toBe('other');
      expect(result.distresses).toEqual([]);
    }
  });

  it('paint lines alone: no cracks, no patches, nothing', async () => {
    for (const seed of SEEDS) {
      const { result } = await run('paint_lines', seed);
      expect(result.distresses, `paint_lines #${seed}`).toEqual([]);
      expect(result.limitations.some((l) => l.includes('Paint markings'))).toBe(true);
    }
  });

  it('shadows: no patch, pothole or raveling (soft edges), and a limitation says so', async () => {
    for (const seed of SEEDS) {
      const { result } = await run('shadows', seed);
      expect(result.distresses, `shadows #${seed}`).toEqual([]);
      expect(result.limitations.some((l) => l.includes('Shadows or stains'))).toBe(true);
    }
  });

  it('oil stains: a potholes or patching false alarm on at most 1 image of 8 (overlapping stains can look like one)', async () => {
    let fooled = 0;
    for (const seed of SEEDS) {
      const { result } = await run('oil_stains', seed);
      if (result.distresses.some((d) => d.type === 'potholes' || d.type === 'patching')) fooled++;
    }
    expect(fooled).toBeLessThanOrEqual(1);
  });

  it('grass at the edge: visible pavement within 2 points of the truth, nothing reported', async () => {
    for (const seed of SEEDS.slice(0, 4)) {
      const { scene, result } = await run('grass_edge', seed);
      expect(Math.abs(result.visible_pavement_pct - scene.truth.pavement_pct)).toBeLessThan(2);
      expect(result.distresses).toEqual([]);
    }
  });
});

describe('distress detector: what fools it, measured', () => {
  // Oil stains above; shadows are handled (soft edges); the rest is in docs/condition.md, "The built-in distress detector".
  it('sealed cracks count as cracks of the right length and never as potholes, but their severity reads medium (sealant is wide)', async () => {
    const errs = await errors('sealed_cracks', 'longitudinal_transverse_cracking');
    expect(within(errs, 0.25)).toBeGreaterThanOrEqual(7);
    for (const seed of SEEDS) {
      const { result } = await run('sealed_cracks', seed);
      expect(result.distresses.map((d) => d.type)).not.toContain('potholes');
    }
    const { result } = await run('sealed_cracks', 1);
    expect(densities(result).longitudinal_transverse_cracking?.severity).toBe('medium');
  });
});

describe('distress detector: input and answer', () => {
  it('loads OpenCV once per process, leaving the process its own error handlers', async () => {
    const a = await loadCv();
    const b = await loadCv();
    expect(a.cv).toBe(b.cv);
    expect(HANDLERS()).toEqual(handlersBefore);
  });

  it('RGBA input gives the same answer as RGB', async () => {
    const scene = generateScene('cracks', 2);
    const { width, height, data } = scene.pixels;
    const rgba = new Uint8Array(width * height * 4);
    for (let i = 0; i < width * height; i++) {
      rgba.set(data.subarray(i * 3, i * 3 + 3), i * 4);
      rgba[i * 4 + 3] = 255;
    }
    const a = await detectDistresses(scene.pixels, { metersPerPixel: scene.metersPerPixel });
    const b = await detectDistresses(
      { width, height, channels: 4, data: rgba },
      { metersPerPixel: scene.metersPerPixel },
    );
    expect(b).toEqual(a);
  });

  it('a mask polygon restricts the rated area', async () => {
    const scene = generateScene('grass_edge', 1);
    const whole = await detectDistresses(scene.pixels, { metersPerPixel: scene.metersPerPixel });
    // The left half has no grass (the strip is on the east side, under 30% wide).
    const left = await detectDistresses(scene.pixels, {
      metersPerPixel: scene.metersPerPixel,
      mask: [
        [0, 0],
        [150, 0],
        [150, 320],
        [0, 320],
      ],
    });
    expect(whole.visible_pavement_pct).toBeLessThan(95);
    expect(left.visible_pavement_pct).toBeGreaterThan(99);
  });

  it('without a scale: the assumed one is stated, and the answer carries it', async () => {
    const scene = generateScene('cracks', 3);
    const result = await detectDistresses(scene.pixels);
    expect(result.scale_assumed).toBe(true);
    expect(result.meters_per_pixel).toBeCloseTo(3 / 320, 6);
    expect(result.limitations.some((l) => l.startsWith('No scale was given'))).toBe(true);
    expect(result.view).toBe('ground');
    expect(result.confidence).toBeGreaterThan(0);
    expect(result.confidence).toBeLessThanOrEqual(1);
  });

  it('imagery scale reads as an aerial view, where texture (raveling) is not judged and says so', async () => {
    const scene = generateScene('clean', 1);
    const result = await detectDistresses(scene.pixels, { metersPerPixel: 0.075 });
    expect(result.view).toBe('aerial');
    expect(result.pavement_type).toBe('asphalt');
    const raveled = generateScene('raveling', 1);
    const aerial = await detectDistresses(raveled.pixels, { metersPerPixel: 0.075 });
    expect(aerial.distresses.map((d) => d.type)).not.toContain('weathering_raveling');
    expect(aerial.limitations.some((l) => l.includes('weathering and raveling are not judged'))).toBe(true);
  });

  it('concrete is told apart from asphalt by tone, and says what it cannot see', async () => {
    const scene = generateScene('clean', 1, { surface: 'concrete' });
    const result = await detectDistresses(scene.pixels, { metersPerPixel: scene.metersPerPixel });
    expect(result.pavement_type).toBe('concrete');
    expect(result.limitations.some((l) => l.startsWith('Concrete'))).toBe(true);
    const forced = await detectDistresses(scene.pixels, {
      metersPerPixel: scene.metersPerPixel,
      pavementType: 'asphalt',
    });
    expect(forced.pavement_type).toBe('asphalt');
  });

  it('a rated area too small to rate: pavement not found, and says why', async () => {
    const scene = generateScene('clean', 1);
    const result = await detectDistresses(scene.pixels, {
      metersPerPixel: scene.metersPerPixel,
      mask: [
        [10, 10],
        [30, 10],
        [10, 30],
      ],
    });
    expect(result.pavementFound).toBe(false);
    expect(result.limitations.some((l) => l.startsWith('The rated area is too small'))).toBe(true);
  });

  it('rejects pixels that do not match their size', async () => {
    await expect(detectDistresses({ width: 10, height: 10, channels: 3, data: new Uint8Array(10) })).rejects.toThrow(
      RangeError,
    );
  });
});
