// Synthetic front yards whose truth is known (GUIDE "Engines that look at images"): a scene in
// local meters (east, north from the origin, the scene's centre) with, from south to north, a
// street, a sidewalk, a lawn beside a paved drive, a planting bed along the house's front wall, the
// house, and a back strip of bare ground with trees. In the lawn: island beds (mulch with shrubs),
// plain mulch patches, a bare soil patch, trees (some touching or overlapping) and lone shrubs.
// Pure and seeded (Mulberry32): the same seed and options give the same scene.
// synthetic-yard-draw.ts rasterizes it.
//
// Truth (docs/landscape-detector.md, "Truth"): the lawn is the drawn lawn polygon minus the beds,
// mulch and soil inside it; canopy over the lawn is NOT taken out (a mower goes under a tree, the
// takeoff's lawn rule). Beds are their drawn polygons, shrubs in them included. Every canopy over
// the lawn lies wholly inside it, clear of beds, mulch and soil, so the rule can be held exactly.
import { blob, inside, type Pt, rng } from '#engines/distress/synthetic-draw.ts';
import type { Meters } from '#engines/paved/lot-geo.ts';
import { polygonArea } from '#engines/paved/synthetic-lot.ts';

export type TreeKind = 'deciduous' | 'evergreen';
export type RoofKind = 'grey' | 'dark' | 'light' | 'brown';
export type MulchKind = 'brown' | 'red' | 'dark';

export interface Crown {
  centre: Meters;
  radiusM: number;
  outline: Meters[];
}

export interface Tree extends Crown {
  kind: TreeKind;
}

export interface Patch {
  outline: Meters[];
  /** 'bed' has shrubs in it; 'mulch' has none; 'soil' is bare ground (not a takeoff class). */
  kind: 'bed' | 'mulch' | 'soil';
}

export interface YardTruth {
  /** Lawn polygon minus the beds, mulch and soil inside it, m² (canopy over the lawn counted as lawn). */
  lawnM2: number;
  /** Planting beds (mulch with shrubs), m², shrubs included. */
  bedM2: number;
  /** Plain mulch (no plants), m². */
  mulchM2: number;
  trees: { centre: Meters; radiusM: number; kind: TreeKind }[];
  shrubs: { centre: Meters; radiusM: number }[];
}

export interface YardScene {
  seed: number;
  /** Everything below is in scene meters; `rotationDeg` is already applied. */
  lawn: Meters[];
  /** Lawn colour (RGB). `dry: true` draws a straw-coloured lawn (a nuisance). */
  lawnColour: [number, number, number];
  /** Mowing stripes: unit vector across the stripes and their width, m. */
  stripe: { across: Meters; widthM: number };
  drive: { outline: Meters[]; surface: 'asphalt' | 'concrete' };
  street: Meters[];
  sidewalk: Meters[];
  house: { outline: Meters[]; roof: RoofKind };
  patches: Patch[];
  mulch: MulchKind;
  trees: Tree[];
  shrubs: Crown[];
  /** Shadows are cast toward the north-west by this offset per meter of crown radius. */
  shadow: Meters;
  /** Everything drawn lies inside this box (west, south, east, north), m. */
  extent: [number, number, number, number];
  truth: YardTruth;
}

export interface YardOptions {
  /** Trees over the lawn (default 2–4) and in the back strip (default 1–3). */
  lawnTrees?: number;
  backTrees?: number;
  /** Draw a touching or overlapping pair among the lawn trees (default 60% of seeds). */
  touchingPair?: boolean;
  roof?: RoofKind;
  mulch?: MulchKind;
  /** A dry, straw-coloured lawn (a nuisance). */
  dry?: boolean;
  /** Rotate the whole yard (degrees counter-clockwise; default −20…20 for half the seeds, else 0). */
  rotationDeg?: number;
}

/** Crown radii: shrubs stay at 1 m or under (2 m across; SHRUB_MAX_DIAMETER_M is 2.5), trees from 1.9 m. */
const SHRUB_R: [number, number] = [0.5, 1.0];
const TREE_R: [number, number] = [1.9, 4.5];
/** A blob's outline (wobble ≤ 0.2) reaches at most this many times its radius. */
const WOBBLE = 1.2;

export function syntheticYard(seed: number, options: YardOptions = {}): YardScene {
  const rand = rng(seed * 2246822519 + 977);
  const between = (a: number, b: number) => a + rand() * (b - a);
  const lawnW = between(18, 30);
  const lawnD = between(14, 21);
  const driveW = between(4, 5.5);
  const bedD = between(1.8, 2.6);
  const houseD = between(9, 12);
  const backD = between(11, 15);
  const side = between(3, 5);
  const streetD = 5;
  const walkD = 1.4;
  const driveWest = rand() < 0.5;
  // Frame: u east, v north, before rotation; the south edge of the street is v = 0.
  const uDrive0 = driveWest ? 0 : side + lawnW;
  const uLawn0 = driveWest ? driveW : side;
  const uLawn1 = uLawn0 + lawnW;
  const totalW = driveW + lawnW + side;
  const vLawn0 = streetD + walkD;
  const vLawn1 = vLawn0 + lawnD;
  const vHouse0 = vLawn1 + bedD;
  const vHouse1 = vHouse0 + houseD;
  const totalH = vHouse1 + backD;
  const cu = totalW / 2;
  const cv = totalH / 2;
  const rotate = options.rotationDeg ?? (rand() < 0.5 ? between(-20, 20) : 0);
  const cos = Math.cos((rotate * Math.PI) / 180);
  const sin = Math.sin((rotate * Math.PI) / 180);
  const toScene = ([u, v]: Pt): Meters => [(u - cu) * cos - (v - cv) * sin, (u - cu) * sin + (v - cv) * cos];
  const rect = (u0: number, v0: number, u1: number, v1: number): Pt[] => [
    [u0, v0],
    [u1, v0],
    [u1, v1],
    [u0, v1],
  ];

  // The lawn: a rectangle with its south corner away from the drive cut off.
  const cut = between(2, 5);
  const lawnLocal: Pt[] = driveWest
    ? [
        [uLawn0, vLawn0],
        [uLawn1 - cut, vLawn0],
        [uLawn1, vLawn0 + cut],
        [uLawn1, vLawn1],
        [uLawn0, vLawn1],
      ]
    : [
        [uLawn0, vLawn0 + cut],
        [uLawn0 + cut, vLawn0],
        [uLawn1, vLawn0],
        [uLawn1, vLawn1],
        [uLawn0, vLawn1],
      ];
  const houseU0 = driveWest ? uDrive0 + between(0, 1) : uLawn0 + between(0, 3);
  const houseU1 = driveWest ? uLawn1 - between(0, 3) : uDrive0 + driveW - between(0, 1);
  const bedLocal = rect(Math.max(houseU0, uLawn0), vLawn1, Math.min(houseU1, uLawn1), vHouse0);
  const inLawn = (p: Pt, margin: number) => inside(lawnLocal, p[0], p[1]) && distanceToRing(lawnLocal, p) >= margin;

  // Things inside the lawn, each a disc (centre, reach) that later ones keep clear of.
  const taken: { c: Pt; r: number }[] = [];
  const clear = (c: Pt, r: number, gap: number) =>
    taken.every((t) => Math.hypot(t.c[0] - c[0], t.c[1] - c[1]) >= t.r + r + gap);
  const place = (r: number, margin: number, gap: number): Pt | null => {
    for (let k = 0; k < 40; k++) {
      const c: Pt = [
        between(uLawn0 + r + margin, uLawn1 - r - margin),
        between(vLawn0 + r + margin, vLawn1 - r - margin),
      ];
      if (inLawn(c, r * WOBBLE + margin) && clear(c, r * WOBBLE, gap)) return c;
    }
    return null;
  };

  const patchesLocal: { outline: Pt[]; kind: Patch['kind'] }[] = [];
  const shrubsLocal: { c: Pt; r: number; outline: Pt[] }[] = [];
  const addShrub = (c: Pt, r: number) =>
    shrubsLocal.push({ c, r, outline: blob(rand, c[0], c[1], r, r * between(0.85, 1), 0.2) });
  // The bed along the house: shrubs spaced along it, each wholly inside with 0.25 m to spare.
  patchesLocal.push({ outline: bedLocal, kind: 'bed' });
  {
    const r0 = Math.min(SHRUB_R[1], bedD / 2 - 0.3);
    const [u0, , u1] = [bedLocal[0][0], 0, bedLocal[1][0]];
    const n = 2 + Math.floor(rand() * 4);
    for (let k = 0; k < n; k++) {
      const r = between(SHRUB_R[0], r0);
      const u = u0 + ((k + 0.5) / n) * (u1 - u0) + between(-0.3, 0.3);
      if (u - r < u0 + 0.3 || u + r > u1 - 0.3) continue;
      addShrub([u, vLawn1 + bedD / 2 + between(-0.1, 0.1)], r);
    }
  }
  // Island beds with shrubs, plain mulch patches, a soil patch.
  const islands = 1 + Math.floor(rand() * 2);
  const plain = Math.floor(rand() * 2);
  const soil = rand() < 0.6 ? 1 : 0;
  const kinds: Patch['kind'][] = [
    ...Array<Patch['kind']>(islands).fill('bed'),
    ...Array<Patch['kind']>(plain).fill('mulch'),
    ...Array<Patch['kind']>(soil).fill('soil'),
  ];
  for (const kind of kinds) {
    const r = kind === 'soil' ? between(1.0, 1.8) : between(1.7, 2.8);
    const c = place(r, 0.8, 1.2);
    if (!c) continue;
    const outline = blob(rand, c[0], c[1], r, r * between(0.75, 1), 0.2);
    // A soil patch keeps out of every shadow (shadowed bare soil is mulch-coloured; see the doc).
    taken.push({ c, r: r * WOBBLE + (kind === 'soil' ? 3 : 0) });
    patchesLocal.push({ outline, kind });
    if (kind === 'bed') {
      const n = 1 + Math.floor(rand() * 3);
      for (let k = 0, tries = 0; k < n && tries < 30; tries++) {
        const sr = between(SHRUB_R[0], Math.min(SHRUB_R[1], r * 0.45));
        const a = rand() * Math.PI * 2;
        const d = rand() * (r * 0.7 - sr);
        const sc: Pt = [c[0] + Math.cos(a) * d, c[1] + Math.sin(a) * d];
        const fits = blobInside(outline, sc, sr * WOBBLE + 0.25);
        const apart = shrubsLocal.every((s) => Math.hypot(s.c[0] - sc[0], s.c[1] - sc[1]) > s.r + sr + 0.3);
        if (fits && apart) {
          addShrub(sc, sr);
          k++;
        }
      }
    }
  }

  // Trees over the lawn (a touching pair among them when asked) and lone shrubs on it.
  const treesLocal: { c: Pt; r: number; kind: TreeKind }[] = [];
  const kindOf = (): TreeKind => (rand() < 0.4 ? 'evergreen' : 'deciduous');
  const lawnTrees = options.lawnTrees ?? 2 + Math.floor(rand() * 3);
  const pair = options.touchingPair ?? rand() < 0.6;
  const treeR = () => between(TREE_R[0], Math.min(TREE_R[1], lawnD / 4));
  let placed = 0;
  if (pair && lawnTrees >= 2)
    // Two crowns overlapping: centres 0.8–0.95 of the radii's sum apart, but each centre outside
    // the other's crown (a first crown is tried again where the second finds no room).
    for (let tries = 0; tries < 30 && placed === 0; tries++) {
      const r = treeR();
      const c = place(r, 0.6, 1.0);
      if (!c) continue;
      taken.push({ c, r: r * WOBBLE });
      for (let t = 0; t < 20; t++) {
        const r2 = treeR();
        const d = Math.max(between(0.8, 0.95) * (r + r2), 1.2 * Math.max(r, r2));
        const a = rand() * Math.PI * 2;
        const c2: Pt = [c[0] + Math.cos(a) * d, c[1] + Math.sin(a) * d];
        taken.pop();
        const ok = inLawn(c2, r2 * WOBBLE + 0.6) && clear(c2, r2 * WOBBLE, 1.0);
        taken.push({ c, r: r * WOBBLE });
        if (!ok) continue;
        treesLocal.push({ c, r, kind: kindOf() }, { c: c2, r: r2, kind: kindOf() });
        taken.push({ c: c2, r: r2 * WOBBLE });
        placed = 2;
        break;
      }
      if (placed === 0) taken.pop();
    }
  for (let tries = 0; placed < lawnTrees && tries < 30; tries++) {
    const r = treeR();
    const c = place(r, 0.6, 1.0);
    if (!c) continue;
    treesLocal.push({ c, r, kind: kindOf() });
    taken.push({ c, r: r * WOBBLE });
    placed++;
  }
  const loneShrubs = Math.floor(rand() * 3);
  for (let k = 0; k < loneShrubs; k++) {
    const r = between(0.6, SHRUB_R[1]);
    const c = place(r, 0.6, 0.8);
    if (!c) continue;
    taken.push({ c, r: r * WOBBLE });
    addShrub(c, r);
  }
  // Trees in the back strip: clear of the house and of each other (one pair may touch).
  const backTrees = options.backTrees ?? 1 + Math.floor(rand() * 3);
  const back: { c: Pt; r: number }[] = [];
  for (let k = 0, tries = 0; k < backTrees && tries < 40; tries++) {
    const r = between(TREE_R[0], TREE_R[1]);
    const c: Pt = [between(r, totalW - r), between(vHouse1 + r + 0.8, totalH - r * 0.5)];
    const ok = back.every((b) => {
      const d = Math.hypot(b.c[0] - c[0], b.c[1] - c[1]);
      return d >= b.r + r + 0.5 || (d >= 0.8 * (b.r + r) && d >= 1.2 * Math.max(b.r, r));
    });
    if (!ok) continue;
    back.push({ c, r });
    treesLocal.push({ c, r, kind: kindOf() });
    k++;
  }

  const scenePatches: Patch[] = patchesLocal.map((p) => ({ outline: p.outline.map(toScene), kind: p.kind }));
  const trees: Tree[] = treesLocal.map((t) => {
    const centre = toScene(t.c);
    return {
      centre,
      radiusM: t.r,
      kind: t.kind,
      outline: blob(rand, centre[0], centre[1], t.r, t.r * between(0.88, 1), 0.18),
    };
  });
  const shrubs: Crown[] = shrubsLocal.map((s) => ({
    centre: toScene(s.c),
    radiusM: s.r,
    outline: s.outline.map(toScene),
  }));
  const lawn = lawnLocal.map(toScene);
  const area = (kind: Patch['kind'], inLawnOnly: boolean) =>
    scenePatches
      .filter((p, i) => p.kind === kind && (!inLawnOnly || i > 0))
      .reduce((a, p) => a + polygonArea(p.outline), 0);
  const holes = area('bed', true) + area('mulch', true) + area('soil', true);
  const stripeAngle = ((rotate + (rand() < 0.5 ? 0 : 90)) * Math.PI) / 180;
  const corners = [toScene([0, 0]), toScene([totalW, 0]), toScene([totalW, totalH]), toScene([0, totalH])];
  const pts = [...corners, ...trees.flatMap((t) => t.outline)];
  const dry = options.dry ?? false;
  const g = between(122, 150);
  return {
    seed,
    lawn,
    lawnColour: dry ? [168, 150, 96] : [g * between(0.6, 0.72), g, g * between(0.36, 0.46)],
    stripe: { across: [Math.cos(stripeAngle), Math.sin(stripeAngle)], widthM: between(0.8, 1.4) },
    drive: {
      outline: rect(uDrive0, streetD, uDrive0 + driveW, vHouse0).map(toScene),
      surface: rand() < 0.5 ? 'asphalt' : 'concrete',
    },
    street: rect(0, 0, totalW, streetD).map(toScene),
    sidewalk: rect(0, streetD, totalW, streetD + walkD).map(toScene),
    house: {
      outline: rect(houseU0, vHouse0, houseU1, vHouse1).map(toScene),
      roof: options.roof ?? (['grey', 'dark', 'light'] as const)[Math.floor(rand() * 3)],
    },
    patches: scenePatches,
    mulch: options.mulch ?? (['brown', 'red', 'dark'] as const)[Math.floor(rand() * 3)],
    trees,
    shrubs,
    shadow: [-0.55, 0.45],
    extent: [
      Math.min(...pts.map((p) => p[0])),
      Math.min(...pts.map((p) => p[1])),
      Math.max(...pts.map((p) => p[0])),
      Math.max(...pts.map((p) => p[1])),
    ],
    truth: {
      lawnM2: polygonArea(lawn) - holes,
      bedM2: area('bed', false),
      mulchM2: area('mulch', false),
      trees: trees.map((t) => ({ centre: t.centre, radiusM: t.radiusM, kind: t.kind })),
      shrubs: shrubs.map((s) => ({ centre: s.centre, radiusM: s.radiusM })),
    },
  };
}

function distanceToRing(ring: Pt[], p: Pt): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [ax, ay] = ring[j];
    const dx = ring[i][0] - ax;
    const dy = ring[i][1] - ay;
    const t = Math.max(0, Math.min(1, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy || 1)));
    best = Math.min(best, Math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy));
  }
  return best;
}

/** Whether a disc of radius r at c lies inside a ring. */
function blobInside(ring: Pt[], c: Pt, r: number): boolean {
  return inside(ring, c[0], c[1]) && distanceToRing(ring, c) >= r;
}
