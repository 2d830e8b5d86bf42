// The condition rating result (document 3, "Condition rating result") from what was seen in the
// image, by the engines: the paser or pci block, the distresses with their labels, the summary a
// user reads first, and the limitations that say what a rating from one image cannot know.
// Pure: findings and the image's facts in, the answer out.
import {
  type DensityUnit,
  distressKind,
  type PaserResult,
  type PciResult,
  ratePaser,
  ratePci,
} from '#engines/condition/index.ts';
import { asEngineInput, engineDistresses, type Findings, type FoundDistress } from './findings.ts';

export type RatingType = 'paser' | 'pci';

export interface ImageFacts {
  source: 'standard' | 'premium' | 'upload' | 'url';
  /** Premium imagery's survey date; undefined for the workspace's own images (absent from the answer). */
  capture_date?: string | null;
  survey_id: string | null;
  lat: number | null;
  lng: number | null;
  zoom: number | null;
  width: number;
  height: number;
  meters_per_pixel: number | null;
  outlined: boolean;
}

const DENSITY_WORDS: Record<string, string> = {
  area: '% of the pavement',
  linear: ' ft per 100 sq ft',
  pothole_area: ' potholes per 100 sq ft',
  slabs: '% of slabs',
};

const SCREENING =
  'Screening-level AI estimate from one image, not a field survey: confirm on site before bidding structural work.';

function describedDistress(f: Findings, d: FoundDistress) {
  const kind = distressKind(f.pavement_type, d.type);
  return {
    type: d.type,
    label: kind?.label ?? d.type,
    severity: d.severity,
    density_pct: Math.round(d.density_pct * 100) / 100,
    density_unit: (kind?.density_unit ?? 'area') as DensityUnit,
    where: d.where,
  };
}

function amount(d: { density_pct: number; density_unit: string }) {
  return `${d.density_pct}${DENSITY_WORDS[d.density_unit] ?? '%'}`;
}

function pciSummary(r: PciResult, count: number, shown: ReturnType<typeof describedDistress>[]): string {
  const head = `PCI ${r.score} (${r.label})`;
  if (count === 0) return `${head}: no distress found. ${r.recommended_treatment}`;
  const worst = r.deducts
    .slice(0, 2)
    .map((x) => {
      const d = shown.find((s) => s.type === x.distress && s.severity === x.severity);
      return `${x.severity} ${(d?.label ?? x.distress).toLowerCase()}${d ? ` (${amount(d)})` : ''}`;
    })
    .join(' and ');
  return `${head}: ${count} ${count === 1 ? 'distress' : 'distresses'} found, the largest deducts from ${worst}. ${r.recommended_treatment}`;
}

function paserSummary(r: PaserResult, shown: ReturnType<typeof describedDistress>[]): string {
  const head = `PASER ${r.rating} (${r.label})`;
  const limit = [...r.limited_by].sort((a, b) => a.max_rating - b.max_rating)[0];
  if (!limit) return `${head}: no distress found. ${r.recommended_treatment}`;
  const d = shown.find((s) => s.type === limit.distress);
  const what = (d?.label ?? limit.distress).toLowerCase();
  return `${head}: limited by ${limit.severity}-or-worse ${what} at ${amount({ density_pct: limit.density_pct, density_unit: d?.density_unit ?? 'area' })}. ${r.recommended_treatment}`;
}

export interface Composed {
  rating_type: RatingType;
  rubric_version: string;
  paser?: PaserResult;
  pci?: Omit<PciResult, 'rubric_version' | 'pavement_type'>;
  pavement_type: 'asphalt' | 'concrete';
  confidence: number;
  summary: string;
  distresses: ReturnType<typeof describedDistress>[];
  limitations: string[];
  image: ImageFacts & { view: Findings['view']; quality: Findings['quality']; visible_pavement_pct: number };
  /** The score kept with the rating (PCI score or PASER rating) and its label. */
  score: number;
  label: string;
}

/** Rates `f`; null for a PASER rating of concrete (PASER's asphalt rubric does not apply). */
export function compose(type: RatingType, f: Findings, image: ImageFacts): Composed | null {
  if (type === 'paser' && f.pavement_type !== 'asphalt') return null;
  // The built-in detector says what it is itself; the vision endpoint may not.
  const limitations = f.limitations.some((l) => l.startsWith('Screening-level'))
    ? [...f.limitations]
    : [SCREENING, ...f.limitations];
  const known = engineDistresses(f).filter((d) => {
    if (distressKind(f.pavement_type, d.type)) return true;
    limitations.push(`A ${d.type} finding was left out: it is no ${f.pavement_type} distress type the rating knows.`);
    return false;
  });
  const shown = known.map((d) => describedDistress(f, d));
  const input = { pavement_type: f.pavement_type, distresses: known.map(asEngineInput) };
  if (
    image.meters_per_pixel === null &&
    f.distresses.some((d) => d.density_unit === 'linear') &&
    !limitations.some((l) => /scale/i.test(l))
  )
    limitations.push('The image has no known scale, so crack lengths per 100 sq ft assume a typical photo distance.');
  const facts = {
    ...image,
    view: f.view,
    quality: f.quality,
    visible_pavement_pct: Math.round(f.visible_pavement_pct),
  };
  const base = {
    pavement_type: f.pavement_type,
    confidence: Math.round(f.confidence * 100) / 100,
    distresses: shown,
    limitations,
    image: facts,
  };
  if (type === 'paser') {
    const paser = ratePaser(input);
    return {
      rating_type: 'paser',
      rubric_version: paser.rubric_version,
      paser,
      summary: paserSummary(paser, shown),
      score: paser.rating,
      label: paser.label,
      ...base,
    };
  }
  const { rubric_version, pavement_type: _rated, ...pci } = ratePci(input);
  if (pci.method === 'visual_estimate')
    limitations.push('Concrete is rated as a visual estimate from the slabs the image shows, not by ASTM D6433.');
  return {
    rating_type: 'pci',
    rubric_version,
    pci,
    summary: pciSummary({ ...pci, rubric_version, pavement_type: f.pavement_type }, shown.length, shown),
    score: pci.score,
    label: pci.label,
    ...base,
  };
}
