// The detector's measured accuracy on generated images (docs/condition.md, "The built-in distress detector"): per distress
// type, precision and recall of "present in the image" and the mean relative error of the density
// where both truth and detection have it. Pure: no printing, no files; bench/ prints the table.
import { detectDistresses } from './detect.ts';
import { generateScene, SCENE_CATEGORIES, type SceneCategory, type SyntheticScene } from './synthetic.ts';
import { DISTRESS_TYPES, type DetectionResult, type DistressType, type Severity } from './types.ts';

export interface TypeAccuracy {
  type: DistressType;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  precision: number | null;
  recall: number | null;
  /** Mean |detected − true| / true over true positives. */
  meanDensityError: number | null;
  /** Share of true positives whose dominant severity matches the truth. */
  severityAgreement: number | null;
}
export interface CategoryAccuracy {
  category: SceneCategory;
  images: number;
  /** Images where the detector's answer on presence matched the truth for every type. */
  exact: number;
  /** Images where pavementFound matched the truth (pavement_pct ≥ 15). */
  pavementRight: number;
  /** Every false-positive type seen, with its count. */
  falsePositives: Partial<Record<DistressType, number>>;
}
export interface AccuracyReport {
  images: number;
  byType: TypeAccuracy[];
  byCategory: CategoryAccuracy[];
}

/** Per type: summed density and the severity of its largest entry. */
export function densities(
  result: DetectionResult,
): Partial<Record<DistressType, { density: number; severity: Severity }>> {
  const out: Partial<Record<DistressType, { density: number; severity: Severity; top: number }>> = {};
  for (const d of result.distresses) {
    const cur = out[d.type] ?? { density: 0, severity: d.severity, top: 0 };
    cur.density += d.density_pct;
    if (d.density_pct > cur.top) {
      cur.top = d.density_pct;
      cur.severity = d.severity;
    }
    out[d.type] = cur;
  }
  return out;
}

export interface AccuracyOptions {
  perCategory: number;
  categories?: SceneCategory[];
  /** Image side in pixels (default 320). */
  size?: number;
  /** Ground size of a pixel (default 5 mm). */
  metersPerPixel?: number;
  /** First seed (default 1000; the tests use 1–8). */
  seed?: number;
}

export async function measureAccuracy(options: AccuracyOptions): Promise<AccuracyReport> {
  // Every category the generator draws, nuisances included (they measure false positives).
  const categories = options.categories ?? SCENE_CATEGORIES;
  const tally = new Map<DistressType, { tp: number; fp: number; fn: number; err: number; sev: number }>();
  for (const t of DISTRESS_TYPES) tally.set(t, { tp: 0, fp: 0, fn: 0, err: 0, sev: 0 });
  const byCategory: CategoryAccuracy[] = [];
  let images = 0;
  for (const category of categories) {
    const cat: CategoryAccuracy = { category, images: 0, exact: 0, pavementRight: 0, falsePositives: {} };
    for (let k = 0; k < options.perCategory; k++) {
      const scene: SyntheticScene = generateScene(category, (options.seed ?? 1000) + k, {
        size: options.size ?? 320,
        metersPerPixel: options.metersPerPixel ?? 0.005,
      });
      const result = await detectDistresses(scene.pixels, { metersPerPixel: scene.metersPerPixel });
      images++;
      cat.images++;
      if (result.pavementFound === scene.truth.pavement_pct >= 15) cat.pavementRight++;
      const found = densities(result);
      let exact = true;
      for (const t of DISTRESS_TYPES) {
        const truth = scene.truth.distresses[t];
        const got = found[t];
        const row = tally.get(t) as { tp: number; fp: number; fn: number; err: number; sev: number };
        if (truth && got) {
          row.tp++;
          row.err += Math.abs(got.density - truth.density_pct) / truth.density_pct;
          if (got.severity === truth.severity) row.sev++;
        } else if (got) {
          row.fp++;
          exact = false;
          cat.falsePositives[t] = (cat.falsePositives[t] ?? 0) + 1;
        } else if (truth) {
          row.fn++;
          exact = false;
        }
      }
      if (exact) cat.exact++;
    }
    byCategory.push(cat);
  }
  const byType = DISTRESS_TYPES.map((type): TypeAccuracy => {
    const r = tally.get(type) as { tp: number; fp: number; fn: number; err: number; sev: number };
    return {
      type,
      truePositives: r.tp,
      falsePositives: r.fp,
      falseNegatives: r.fn,
      precision: r.tp + r.fp > 0 ? r.tp / (r.tp + r.fp) : null,
      recall: r.tp + r.fn > 0 ? r.tp / (r.tp + r.fn) : null,
      meanDensityError: r.tp > 0 ? r.err / r.tp : null,
      severityAgreement: r.tp > 0 ? r.sev / r.tp : null,
    };
  });
  return { images, byType, byCategory };
}
