// Synthetic landscape plans whose truth is known (GUIDE "Engines that look at images, maps and
// plans"; docs/plan-reading.md, "Generated plans"). pdfkit draws a three-sheet plan set in
// tabloid landscape (17 × 11 in):
//   1. a planting plan with the PLANT SCHEDULE (symbol, code, botanical and common name, size,
//      quantity; one row left deliberately unreadable, one with quantity TBD) and plant groups:
//      vector symbols in clusters, each with a callout in one of the five patterns read;
//   2. a planting plan stored portrait with /Rotate 90 (drawn so that it reads upright once
//      rotated, as CAD programs write landscape sheets);
//   3. a scanned enlargement: one embedded raster image, no text layer.
// Distractors sit among them: "10 FT", "NOTE 3", the scale, "(2) EXISTING TREES", a code not in
// the schedule, dashed circles for existing trees. Seeded (Mulberry32): same seed, same bytes.
//
// Truth positions are in sheet pixels (points × 2, rotation applied), the engine's frame.
import PDFDocument from 'pdfkit';
import { loadMupdf } from './mupdf.ts';
import { rng } from '#engines/distress/synthetic-draw.ts';
import { SHEET_SCALE } from './document.ts';
import type { CalloutPattern } from './types.ts';

export type SymbolShape = 'cross' | 'star' | 'x' | 'dot' | 'hex';

export interface SyntheticSpecies {
  code: string;
  botanical: string;
  common: string;
  size: string;
  shape: SymbolShape;
  /** Symbol radius, points. */
  r: number;
  /** Plants per group, per page (page 1, page 2). */
  groups: [number[], number[]];
  /** The quantity cell as printed (a number, or TBD). */
  quantityText: string;
}

export const SPECIES: SyntheticSpecies[] = [
  {
    code: 'AC',
    botanical: "Acer rubrum 'October Glory'",
    common: 'October Glory Red Maple',
    size: '2" CAL.',
    shape: 'cross',
    r: 12,
    groups: [[3], [2, 1]],
    quantityText: '6',
  },
  {
    code: 'QV',
    botanical: 'Quercus virginiana',
    common: 'Southern Live Oak',
    size: '3" CAL.',
    shape: 'star',
    r: 14,
    groups: [[2], [2]],
    quantityText: '4',
  },
  {
    code: 'IV',
    botanical: "Ilex vomitoria 'Nana'",
    common: 'Dwarf Yaupon Holly',
    size: '5 GAL.',
    shape: 'x',
    r: 6,
    groups: [[8, 5], [7]],
    quantityText: '20',
  },
  {
    code: 'LM',
    botanical: "Liriope muscari 'Big Blue'",
    common: 'Big Blue Lilyturf',
    size: '1 GAL.',
    shape: 'dot',
    r: 3.5,
    groups: [[12], [10, 8]],
    quantityText: '30',
  },
  {
    code: 'MC',
    botanical: 'Myrica cerifera',
    common: 'Wax Myrtle',
    size: '15 GAL.',
    shape: 'hex',
    r: 8,
    groups: [[4], [3]],
    quantityText: '7',
  },
  {
    code: 'RX',
    botanical: "Rosa 'Radrazz'",
    common: 'Knock Out Rose',
    size: '3 GAL.',
    shape: 'cross',
    r: 5,
    groups: [[], []],
    quantityText: 'TBD',
  },
];

/** The row printed without a code (a smudged, hand-edited row): read as ignored, with a reason. */
export const UNREADABLE_ROW = { botanical: '(see note 7 - illegible)', common: '', size: '' };

export interface TruthSymbol {
  code: string;
  page: number;
  x: number;
  y: number;
}

export interface TruthCallout {
  code: string;
  count: number;
  page: number;
  x: number;
  y: number;
  text: string;
  pattern: CalloutPattern;
}

export interface PlanTruth {
  pageCount: number;
  schedulePage: number;
  /** The schedule's rows that can be read, in order. */
  rows: { code: string; botanical: string; common: string; size: string; quantity: number | null }[];
  rowsIgnored: number;
  callouts: TruthCallout[];
  /** Vector symbols on the plan sheets (pages 1 and 2), not counting the schedule's samples. */
  symbols: TruthSymbol[];
  /** Symbols in the scanned enlargement (page 3): raster only. */
  scannedSymbols: TruthSymbol[];
  rotatedPage: number;
  scannedPage: number;
  /** Where the rotated sheet's title is printed (centre, sheet pixels), to check the text frame. */
  rotatedTitle: { text: string; x: number; y: number };
  /** Each readable row's symbol cell centre on the schedule page. */
  scheduleSymbols: TruthSymbol[];
}

/** Sheet size as a reader sees it, points. */
export const SHEET_W = 1224;
export const SHEET_H = 792;

const PATTERNS: CalloutPattern[] = [
  'count_code',
  'code_paren_count',
  'code_dash_count',
  'paren_count_code',
  'code_count',
];

export function calloutText(pattern: CalloutPattern, code: string, n: number): string {
  switch (pattern) {
    case 'count_code':
      return `${n} ${code}`;
    case 'code_paren_count':
      return `${code} (${n})`;
    case 'code_dash_count':
      return `${code}-${n}`;
    case 'paren_count_code':
      return `(${n}) ${code}`;
    case 'code_count':
      return `${code} ${n}`;
  }
}

type Doc = PDFKit.PDFDocument;

export function drawSymbol(doc: Doc, shape: SymbolShape, cx: number, cy: number, r: number): void {
  doc.lineWidth(0.8);
  switch (shape) {
    case 'cross':
      doc.circle(cx, cy, r).stroke();
      doc
        .moveTo(cx - r, cy)
        .lineTo(cx + r, cy)
        .moveTo(cx, cy - r)
        .lineTo(cx, cy + r)
        .stroke();
      break;
    case 'x': {
      const d = r * Math.SQRT1_2;
      doc.circle(cx, cy, r).stroke();
      doc
        .moveTo(cx - d, cy - d)
        .lineTo(cx + d, cy + d)
        .moveTo(cx - d, cy + d)
        .lineTo(cx + d, cy - d)
        .stroke();
      break;
    }
    case 'star': {
      doc.circle(cx, cy, r).stroke();
      for (let k = 0; k < 4; k++) {
        const a = (k * Math.PI) / 4;
        const dx = Math.cos(a) * r * 0.8;
        const dy = Math.sin(a) * r * 0.8;
        doc.moveTo(cx - dx, cy - dy).lineTo(cx + dx, cy + dy);
      }
      doc.stroke();
      break;
    }
    case 'dot':
      doc.circle(cx, cy, r).fill('#000');
      break;
    case 'hex': {
      doc.moveTo(cx + r, cy);
      for (let k = 1; k < 6; k++)
        doc.lineTo(cx + r * Math.cos((k * Math.PI) / 3), cy + r * Math.sin((k * Math.PI) / 3));
      doc.closePath().stroke();
      doc.circle(cx, cy, r * 0.25).fill('#000');
      break;
    }
  }
}

interface Group {
  species: SyntheticSpecies;
  n: number;
}

/** Lays groups out in grid cells of the plan area, one callout above each cluster. */
function drawGroups(
  doc: Doc,
  page: number,
  groups: Group[],
  area: { x: number; y: number; w: number; h: number },
  rand: () => number,
  patternAt: { k: number },
  truth: PlanTruth,
  record: boolean,
): void {
  const cellW = 150;
  const cellH = 130;
  const cols = Math.floor(area.w / cellW);
  const rows = Math.floor(area.h / cellH);
  const cells = Array.from({ length: cols * rows }, (_, i) => i);
  for (let i = cells.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [cells[i], cells[j]] = [cells[j], cells[i]];
  }
  if (groups.length > cells.length) throw new Error('more groups than cells');
  groups.forEach((g, gi) => {
    const cell = cells[gi];
    const x0 = area.x + (cell % cols) * cellW + 8;
    const y0 = area.y + Math.floor(cell / cols) * cellH + 6;
    const { r } = g.species;
    if (record) {
      const pattern = PATTERNS[patternAt.k++ % PATTERNS.length];
      const text = calloutText(pattern, g.species.code, g.n);
      doc.font('Helvetica').fontSize(8).fillColor('#000').text(text, x0, y0, { lineBreak: false });
      const w = doc.widthOfString(text);
      truth.callouts.push({
        code: g.species.code,
        count: g.n,
        page,
        x: (x0 + w / 2) * SHEET_SCALE,
        y: (y0 + 4) * SHEET_SCALE,
        text,
        pattern,
      });
    }
    const step = 2 * r + 6;
    const perRow = Math.max(1, Math.floor(126 / step));
    for (let k = 0; k < g.n; k++) {
      const cx = x0 + r + (k % perRow) * step;
      const cy = y0 + 20 + r + Math.floor(k / perRow) * step;
      drawSymbol(doc, g.species.shape, cx, cy, r);
      const t = { code: g.species.code, page, x: cx * SHEET_SCALE, y: cy * SHEET_SCALE };
      if (record) truth.symbols.push(t);
      else truth.scannedSymbols.push(t);
    }
  });
}

function distractors(doc: Doc, x: number, y: number): void {
  doc.font('Helvetica').fontSize(8).fillColor('#000');
  doc.text('10 FT', x, y, { lineBreak: false });
  doc.text('NOTE 3', x + 60, y, { lineBreak: false });
  doc.text('(2) EXISTING TREES TO REMAIN', x + 120, y, { lineBreak: false });
  doc.text('2 ZZ', x + 290, y, { lineBreak: false });
  doc.text('6 FT WALK', x + 340, y, { lineBreak: false });
  doc.lineWidth(0.5).dash(3, { space: 2 });
  doc.circle(x + 430, y + 4, 20).stroke();
  doc.undash();
}

function titleBlock(doc: Doc, sheet: string): { x: number; y: number } {
  doc
    .lineWidth(1)
    .rect(20, 20, SHEET_W - 40, SHEET_H - 40)
    .stroke();
  doc.font('Helvetica-Bold').fontSize(14).text(sheet, 1100, 740, { lineBreak: false });
  const w = doc.widthOfString(sheet);
  doc.font('Helvetica').fontSize(8).text('SCALE: 1" = 20\'', 980, 745, { lineBreak: false });
  return { x: (1100 + w / 2) * SHEET_SCALE, y: (740 + 7) * SHEET_SCALE };
}

const COLS = { sym: 830, code: 868, botanical: 900, common: 1022, size: 1112, qty: 1164 };

function schedule(doc: Doc, truth: PlanTruth): void {
  const top = 50;
  doc.font('Helvetica-Bold').fontSize(12).fillColor('#000').text('PLANT SCHEDULE', COLS.sym, top, { lineBreak: false });
  const headY = top + 24;
  doc.font('Helvetica-Bold').fontSize(7);
  doc.text('SYM', COLS.sym, headY, { lineBreak: false });
  doc.text('CODE', COLS.code, headY, { lineBreak: false });
  doc.text('BOTANICAL NAME', COLS.botanical, headY, { lineBreak: false });
  doc.text('COMMON NAME', COLS.common, headY, { lineBreak: false });
  doc.text('SIZE', COLS.size, headY, { lineBreak: false });
  doc.text('QTY', COLS.qty, headY, { lineBreak: false });
  doc
    .lineWidth(0.5)
    .moveTo(COLS.sym - 4, headY + 11)
    .lineTo(1196, headY + 11)
    .stroke();
  const pitch = 32;
  let y = headY + 14 + pitch / 2;
  const cell = (t: string, x: number, cy: number) => {
    if (t) doc.text(t, x, cy - 3.5, { lineBreak: false });
  };
  const rows: (SyntheticSpecies | null)[] = [...SPECIES.slice(0, 4), null, ...SPECIES.slice(4)];
  for (const s of rows) {
    doc.font('Helvetica').fontSize(7);
    if (s === null) {
      cell(UNREADABLE_ROW.botanical, COLS.botanical, y);
    } else {
      drawSymbol(doc, s.shape, COLS.sym + 14, y, s.r);
      truth.scheduleSymbols.push({ code: s.code, page: 1, x: (COLS.sym + 14) * SHEET_SCALE, y: y * SHEET_SCALE });
      cell(s.code, COLS.code, y);
      cell(s.botanical, COLS.botanical, y);
      cell(s.common, COLS.common, y);
      cell(s.size, COLS.size, y);
      cell(s.quantityText, COLS.qty, y);
      const q = Number(s.quantityText);
      truth.rows.push({
        code: s.code,
        botanical: s.botanical,
        common: s.common,
        size: s.size,
        quantity: Number.isInteger(q) ? q : null,
      });
    }
    y += pitch;
  }
  truth.rowsIgnored = 1;
  doc
    .lineWidth(0.5)
    .rect(COLS.sym - 4, top - 6, 1196 - COLS.sym + 4, y - pitch / 2 - top + 10)
    .stroke();
}

function groupsFor(page: 0 | 1): Group[] {
  return SPECIES.flatMap((species) => species.groups[page].map((n) => ({ species, n })));
}

function collect(doc: Doc): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

const FIXED_DATE = new Date(Date.UTC(2026, 0, 1));

/** The scanned enlargement's picture: symbol clusters drawn, rendered at 144 dpi, with noise. */
async function scannedPicture(seed: number, truth: PlanTruth): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, info: { CreationDate: FIXED_DATE } });
  const out = collect(doc);
  doc.addPage({ size: [SHEET_W, SHEET_H], margin: 0 });
  titleBlock(doc, 'L-3');
  doc.font('Helvetica').fontSize(8).text('ENLARGEMENT - ENTRY PLANTING', 40, 40, { lineBreak: false });
  const [ac, , iv] = SPECIES;
  const groups: Group[] = [
    { species: ac, n: 3 },
    { species: iv, n: 6 },
    { species: iv, n: 4 },
    { species: ac, n: 2 },
  ];
  drawGroups(doc, 3, groups, { x: 40, y: 60, w: 1140, h: 660 }, rng(seed + 7), { k: 0 }, truth, false);
  doc.end();
  const mupdf = await loadMupdf();
  const pdf = mupdf.Document.openDocument(await out, 'application/pdf');
  const page = pdf.loadPage(0);
  const pix = page.toPixmap(mupdf.Matrix.scale(SHEET_SCALE, SHEET_SCALE), mupdf.ColorSpace.DeviceGray, false, true);
  // Scanner noise: ±10 grey levels, seeded.
  const px = pix.getPixels();
  const rand = rng(seed + 11);
  for (let i = 0; i < px.length; i++) px[i] = Math.max(0, Math.min(255, px[i] + Math.round((rand() - 0.5) * 20)));
  // JPEG, as scanners write them (and far quicker to encode than noise in a PNG).
  const jpeg = Buffer.from(pix.asJPEG(80));
  pix.destroy();
  page.destroy();
  pdf.destroy();
  return jpeg;
}

export interface SyntheticPlan {
  bytes: Buffer;
  truth: PlanTruth;
}

/** The three-sheet plan set for `seed` (cluster placement varies with the seed; counts do not). */
/**
 * The schedule's layout: 'schedule' (PLANT SCHEDULE: SYM, CODE, BOTANICAL NAME, COMMON NAME, SIZE,
 * QTY, with symbols) or 'list' (Plant List: KEY, QTY right-aligned, BOTANICAL NAME wrapped onto a
 * second line for long names, COMMON NAME, CONT.; no symbol column).
 */
export type ScheduleLayout = 'schedule' | 'list';

/** A plant list in the other common layout; its truth rows are the same as the schedule's. */
function plantList(doc: Doc, truth: PlanTruth): void {
  const x = { key: 840, qty: 880, botanical: 920, common: 1030, cont: 1130 };
  const top = 50;
  doc.font('Helvetica-Bold').fontSize(11).fillColor('#000').text('Plant List', x.key, top, { lineBreak: false });
  const headY = top + 22;
  doc.font('Helvetica-Bold').fontSize(7);
  doc.text('KEY', x.key, headY, { lineBreak: false });
  doc.text('QTY', x.qty, headY, { lineBreak: false });
  const qtyRight = x.qty + doc.widthOfString('QTY');
  doc.text('BOTANICAL NAME', x.botanical, headY, { lineBreak: false });
  doc.text('COMMON NAME', x.common, headY, { lineBreak: false });
  doc.text('CONT.', x.cont, headY, { lineBreak: false });
  let y = headY + 20;
  const rows: (SyntheticSpecies | null)[] = [...SPECIES.slice(0, 2), null, ...SPECIES.slice(2)];
  for (const sp of rows) {
    doc.font('Helvetica').fontSize(7);
    if (sp === null) {
      doc.text(UNREADABLE_ROW.botanical, x.botanical, y, { lineBreak: false });
      y += 20;
      continue;
    }
    doc.text(sp.code, x.key, y, { lineBreak: false });
    doc.text(sp.quantityText, qtyRight - doc.widthOfString(sp.quantityText), y, { lineBreak: false });
    // Names with a cultivar wrap: the cultivar goes on the line under.
    const cut = sp.botanical.indexOf(" '");
    if (cut > 0) {
      doc.text(sp.botanical.slice(0, cut), x.botanical, y, { lineBreak: false });
      doc.text(sp.botanical.slice(cut + 1), x.botanical, y + 8, { lineBreak: false });
    } else doc.text(sp.botanical, x.botanical, y, { lineBreak: false });
    doc.text(sp.common, x.common, y, { lineBreak: false });
    doc.text(sp.size, x.cont, y, { lineBreak: false });
    const q = Number(sp.quantityText);
    truth.rows.push({
      code: sp.code,
      botanical: sp.botanical,
      common: sp.common,
      size: sp.size,
      quantity: Number.isInteger(q) ? q : null,
    });
    y += 20;
  }
  truth.rowsIgnored = 1;
}

export async function syntheticPlan(seed = 1, layout: ScheduleLayout = 'schedule'): Promise<SyntheticPlan> {
  const truth: PlanTruth = {
    pageCount: 3,
    schedulePage: 1,
    rows: [],
    rowsIgnored: 0,
    callouts: [],
    symbols: [],
    scannedSymbols: [],
    rotatedPage: 2,
    scannedPage: 3,
    rotatedTitle: { text: 'L-2', x: 0, y: 0 },
    scheduleSymbols: [],
  };
  const rand = rng(seed);
  const patternAt = { k: 0 };
  const picture = await scannedPicture(seed, truth);
  const doc = new PDFDocument({ autoFirstPage: false, info: { CreationDate: FIXED_DATE } });
  const out = collect(doc);

  doc.addPage({ size: [SHEET_W, SHEET_H], margin: 0 });
  titleBlock(doc, 'L-1');
  if (layout === 'schedule') schedule(doc, truth);
  else plantList(doc, truth);
  distractors(doc, 40, 40);
  drawGroups(doc, 1, groupsFor(0), { x: 40, y: 60, w: 760, h: 660 }, rand, patternAt, truth, true);

  // Stored portrait, shown landscape: the content is drawn in the reader's frame and turned
  // so that /Rotate 90 brings it upright.
  doc.addPage({ size: [SHEET_H, SHEET_W], margin: 0 });
  (doc.page as unknown as { dictionary: { data: Record<string, unknown> } }).dictionary.data.Rotate = 90;
  doc.save();
  doc.transform(0, -1, 1, 0, 0, SHEET_W);
  truth.rotatedTitle = { text: 'L-2', ...titleBlock(doc, 'L-2') };
  distractors(doc, 40, 40);
  drawGroups(doc, 2, groupsFor(1), { x: 40, y: 60, w: 1140, h: 660 }, rand, patternAt, truth, true);
  doc.restore();

  doc.addPage({ size: [SHEET_W, SHEET_H], margin: 0 });
  doc.image(picture, 0, 0, { width: SHEET_W, height: SHEET_H });
  doc.end();
  return { bytes: await out, truth };
}

/**
 * A one-page PDF that needs a password to open; with `openable`, encrypted with an owner password
 * only (restricting printing and copying), which every reader opens without asking.
 */
export async function encryptedPlan(openable = false): Promise<Buffer> {
  const doc = new PDFDocument({
    autoFirstPage: false,
    ...(openable ? {} : { userPassword: 'secret' }),
    ownerPassword: 'owner',
    permissions: { printing: 'lowResolution', copying: false },
    pdfVersion: '1.7',
    info: { CreationDate: FIXED_DATE },
  });
  const out = collect(doc);
  doc.addPage({ size: [SHEET_W, SHEET_H], margin: 0 });
  doc.font('Helvetica').fontSize(12).text('PLANT SCHEDULE', 100, 100);
  doc.end();
  return out;
}
