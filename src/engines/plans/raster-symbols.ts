// Plant symbols on a scanned sheet (docs/plan-reading.md, "Plant symbols", raster): a scan has no
// paths to match, only pixels. The sample's ink (dark pixels in the sample box, rendered from its
// own sheet) is the template; every connected blob of ink on the scan whose bounding box has the
// template's size (within 12%) is a candidate, kept when its normalised cross-correlation with the
// template (best over shifts of up to 2 px) is at least 0.6. Symbols that touch other ink (a
// leader line, a neighbour, hatching) make a bigger blob and are missed; the answer says so.
import { mupdf } from './mupdf.ts';
import { type PlanDocument, sheetGrey } from './document.ts';
import type { SheetBox, SheetPoint } from './types.ts';

const INK = 160;
const MIN_SCORE = 0.6;
const SIZE_SLACK = 0.12;

export interface Grey {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Whether the sheet paints a raster image (what a scan is). */
export function paintsImage(plan: PlanDocument, page: number): boolean {
  let images = 0;
  const device = new (mupdf().Device)({
    fillImage: () => {
      images++;
    },
  });
  try {
    plan.page(page).run(device, mupdf().Matrix.identity);
  } finally {
    device.close();
    device.destroy();
  }
  return images > 0;
}

export function findRasterSymbols(
  plan: PlanDocument,
  page: number,
  sample: { page: number; box: SheetBox },
  greys?: Map<number, Grey>,
): { dots: SheetPoint[]; note: string; size: { width: number; height: number } | null } | null {
  if (!paintsImage(plan, page)) return null;
  const grey = (n: number) => {
    let g = greys?.get(n);
    if (!g) {
      g = sheetGrey(plan, n);
      greys?.set(n, g);
    }
    return g;
  };
  const note =
    'Scanned sheet: symbols matched from pixels; symbols touching other ink, rotated or drawn at another size are missed.';
  const template = inkTemplate(grey(sample.page), sample.box);
  if (!template) return { dots: [], note: 'No ink inside the sample box to match.', size: null };
  const sheet = grey(page);
  const slackW = Math.max(3, template.width * SIZE_SLACK);
  const slackH = Math.max(3, template.height * SIZE_SLACK);
  const dots: SheetPoint[] = [];
  for (const blob of blobs(sheet)) {
    if (Math.abs(blob.width - template.width) > slackW || Math.abs(blob.height - template.height) > slackH) continue;
    let best = -1;
    let at = { x: blob.x, y: blob.y };
    for (let dy = -2; dy <= 2; dy++)
      for (let dx = -2; dx <= 2; dx++) {
        const s = ncc(template, sheet, blob.x + dx, blob.y + dy);
        if (s > best) {
          best = s;
          at = { x: blob.x + dx, y: blob.y + dy };
        }
      }
    if (best >= MIN_SCORE) dots.push({ x: at.x + template.width / 2, y: at.y + template.height / 2 });
  }
  return { dots, note, size: { width: template.width, height: template.height } };
}

/**
 * The sample's ink: the grey pixels of the tightest box around the blobs of ink that lie wholly in
 * `box` (a table's rules crossing the box touch its edge and are left out).
 */
function inkTemplate(g: Grey, box: SheetBox): Grey | null {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const cw = Math.min(g.width, Math.ceil(box.x + box.width)) - x0;
  const ch = Math.min(g.height, Math.ceil(box.y + box.height)) - y0;
  if (cw <= 2 || ch <= 2) return null;
  const crop = copy(g, x0, y0, cw, ch);
  const inside = blobs(crop).filter((b) => b.x > 0 && b.y > 0 && b.x + b.width < cw && b.y + b.height < ch);
  if (inside.length === 0) return null;
  const ix0 = Math.min(...inside.map((b) => b.x));
  const iy0 = Math.min(...inside.map((b) => b.y));
  const ix1 = Math.max(...inside.map((b) => b.x + b.width));
  const iy1 = Math.max(...inside.map((b) => b.y + b.height));
  return copy(crop, ix0, iy0, ix1 - ix0, iy1 - iy0);
}

function copy(g: Grey, x0: number, y0: number, width: number, height: number): Grey {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    data.set(g.data.subarray((y0 + y) * g.width + x0, (y0 + y) * g.width + x0 + width), y * width);
  return { data, width, height };
}

/** Bounding boxes of 8-connected blobs of ink. */
function blobs(g: Grey): SheetBox[] {
  const { width, height, data } = g;
  const seen = new Uint8Array(width * height);
  const stack: number[] = [];
  const out: SheetBox[] = [];
  for (let start = 0; start < data.length; start++) {
    if (seen[start] || data[start] >= INK) continue;
    seen[start] = 1;
    stack.push(start);
    let x0 = width;
    let y0 = height;
    let x1 = 0;
    let y1 = 0;
    while (stack.length > 0) {
      const i = stack.pop() as number;
      const x = i % width;
      const y = (i - x) / width;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      for (let ny = Math.max(0, y - 1); ny <= Math.min(height - 1, y + 1); ny++)
        for (let nx = Math.max(0, x - 1); nx <= Math.min(width - 1, x + 1); nx++) {
          const j = ny * width + nx;
          if (!seen[j] && data[j] < INK) {
            seen[j] = 1;
            stack.push(j);
          }
        }
    }
    out.push({ x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 });
  }
  return out;
}

/** Normalised cross-correlation of the template with the sheet window at (ox, oy); −1 off-sheet. */
function ncc(t: Grey, g: Grey, ox: number, oy: number): number {
  if (ox < 0 || oy < 0 || ox + t.width > g.width || oy + t.height > g.height) return -1;
  const n = t.width * t.height;
  let st = 0;
  let sg = 0;
  for (let y = 0; y < t.height; y++)
    for (let x = 0; x < t.width; x++) {
      st += t.data[y * t.width + x];
      sg += g.data[(oy + y) * g.width + ox + x];
    }
  const mt = st / n;
  const mg = sg / n;
  let num = 0;
  let vt = 0;
  let vg = 0;
  for (let y = 0; y < t.height; y++)
    for (let x = 0; x < t.width; x++) {
      const a = t.data[y * t.width + x] - mt;
      const b = g.data[(oy + y) * g.width + ox + x] - mg;
      num += a * b;
      vt += a * a;
      vg += b * b;
    }
  return vt === 0 || vg === 0 ? 0 : num / Math.sqrt(vt * vg);
}
