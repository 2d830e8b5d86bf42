// A synthetic irrigation sheet whose truth is known (docs/plan-reading.md, "Irrigation"): an
// IRRIGATION LEGEND (spray head, rotor, remote control valve, controller; mainline, lateral and
// sleeve line samples), the scale 1" = 20', and four zones, each a valve with its callout (three
// stacked, one on a line), a lateral trunk with branches and heads on them; the mainline from the
// point of connection to every valve; two dashed sleeves. Distractors: a bare tag (B-2), 10 FT.
// Seeded: branch and head counts vary with the seed.
import PDFDocument from 'pdfkit';
import { rng } from '#engines/distress/synthetic-draw.ts';
import { SHEET_SCALE } from './document.ts';
import { SHEET_H, SHEET_W } from './synthetic-plan.ts';

export interface IrrigationTruth {
  sprays: number;
  rotors: number;
  valves: number;
  /** Feet at 1" = 20' (points / 72 × 20). */
  mainlineFt: number;
  lateralFt: number;
  sleeveFt: number;
  zones: { zone: string; valve_size: string; gpm: number; heads: number; lateral_lf: number; x: number; y: number }[];
}

const FT_PER_PT = 20 / 72;
type Doc = PDFKit.PDFDocument;

function spray(doc: Doc, x: number, y: number): void {
  doc.circle(x, y, 3).fill('#000');
}
function rotor(doc: Doc, x: number, y: number): void {
  doc
    .lineWidth(0.6)
    .moveTo(x, y - 5)
    .lineTo(x + 5, y + 4)
    .lineTo(x - 5, y + 4)
    .closePath()
    .stroke();
}
function valve(doc: Doc, x: number, y: number): void {
  doc
    .lineWidth(0.6)
    .rect(x - 5, y - 5, 10, 10)
    .stroke();
  doc
    .moveTo(x - 5, y - 5)
    .lineTo(x + 5, y + 5)
    .moveTo(x - 5, y + 5)
    .lineTo(x + 5, y - 5)
    .stroke();
}
function controller(doc: Doc, x: number, y: number): void {
  doc
    .lineWidth(0.6)
    .rect(x - 8, y - 5, 16, 10)
    .stroke();
}
const MAIN = (doc: Doc) => doc.undash().lineWidth(2);
const LATERAL = (doc: Doc) => doc.undash().lineWidth(0.8);
const SLEEVE = (doc: Doc) => doc.lineWidth(1.2).dash(4, { space: 2 });

export async function syntheticIrrigation(seed = 1): Promise<{ bytes: Buffer; truth: IrrigationTruth }> {
  const rand = rng(seed);
  const doc = new PDFDocument({ autoFirstPage: false, info: { CreationDate: new Date(Date.UTC(2026, 0, 1)) } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.addPage({ size: [SHEET_W, SHEET_H], margin: 0 });
  doc
    .lineWidth(1)
    .rect(20, 20, SHEET_W - 40, SHEET_H - 40)
    .stroke();
  doc.font('Helvetica').fontSize(8).text('SCALE: 1" = 20\'', 980, 745, { lineBreak: false });
  doc.font('Helvetica-Bold').fontSize(14).text('IR-1', 1100, 740, { lineBreak: false });
  doc
    .font('Helvetica')
    .fontSize(8)
    .text('10 FT', 900, 700, { lineBreak: false })
    .text('B-2', 900, 720, { lineBreak: false });

  const truth: IrrigationTruth = {
    sprays: 0,
    rotors: 0,
    valves: 0,
    mainlineFt: 0,
    lateralFt: 0,
    sleeveFt: 0,
    zones: [],
  };
  const line = (style: (d: Doc) => Doc, pts: [number, number][]) => {
    style(doc).moveTo(pts[0][0], pts[0][1]);
    for (const p of pts.slice(1)) doc.lineTo(p[0], p[1]);
    doc.stroke();
    doc.undash();
    let n = 0;
    for (let i = 1; i < pts.length; i++) n += Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]);
    return n * FT_PER_PT;
  };

  // Zones: valve, callout, lateral trunk to the right, branches down with heads along them.
  const regions = [
    { x0: 90, y0: 90, zone: 'A-1', size: '1"', gpm: 12, head: 'spray' as const, stacked: true },
    { x0: 470, y0: 110, zone: 'A-2', size: '1"', gpm: 14, head: 'spray' as const, stacked: true },
    { x0: 90, y0: 420, zone: 'A-3', size: '1-1/2"', gpm: 22, head: 'rotor' as const, stacked: true },
    { x0: 470, y0: 440, zone: 'A-4', size: '1-1/2"', gpm: 25, head: 'rotor' as const, stacked: false },
  ];
  const valves: [number, number][] = [];
  for (const r of regions) {
    const vx = r.x0 + 20;
    const vy = r.y0 + 50;
    valves.push([vx, vy]);
    const branches = 3 + Math.floor(rand() * 3);
    const perBranch = 1 + Math.floor(rand() * 3);
    const step = 60;
    let lateral = line(LATERAL, [
      [vx, vy],
      [vx + step * branches, vy],
    ]);
    let heads = 0;
    for (let b = 1; b <= branches; b++) {
      const bx = vx + step * b;
      const len = 60 * perBranch;
      lateral += line(LATERAL, [
        [bx, vy],
        [bx, vy + len],
      ]);
      for (let k = 1; k <= perBranch; k++) {
        if (r.head === 'spray') spray(doc, bx, vy + 60 * k);
        else rotor(doc, bx, vy + 60 * k);
        heads++;
      }
    }
    valve(doc, vx, vy);
    truth.valves++;
    if (r.head === 'spray') truth.sprays += heads;
    else truth.rotors += heads;
    truth.lateralFt += lateral;
    doc.font('Helvetica').fontSize(7).fillColor('#000');
    if (r.stacked) {
      doc.text(r.zone, vx - 12, vy - 40, { lineBreak: false });
      doc.text(r.size, vx - 12, vy - 31, { lineBreak: false });
      doc.text(`${r.gpm} GPM`, vx - 12, vy - 22, { lineBreak: false });
    } else doc.text(`${r.zone} ${r.size} ${r.gpm} GPM`, vx - 12, vy - 22, { lineBreak: false });
    truth.zones.push({
      zone: r.zone,
      valve_size: r.size,
      gpm: r.gpm,
      heads,
      lateral_lf: Math.round(lateral * 10) / 10,
      x: vx * SHEET_SCALE,
      y: vy * SHEET_SCALE,
    });
  }
  // Mainline: a riser along the left, a run to each valve (arriving from the left).
  truth.mainlineFt += line(MAIN, [
    [50, 740],
    [50, Math.min(...valves.map((v) => v[1]))],
  ]);
  for (const [vx, vy] of valves)
    truth.mainlineFt += line(MAIN, [
      [50, vy],
      [vx - 5, vy],
    ]);
  truth.sleeveFt += line(SLEEVE, [
    [300, 380],
    [300, 410],
  ]);
  truth.sleeveFt += line(SLEEVE, [
    [700, 390],
    [760, 390],
  ]);

  // The legend.
  const lx = 860;
  let y = 60;
  doc.font('Helvetica-Bold').fontSize(12).fillColor('#000').text('IRRIGATION LEGEND', lx, y, { lineBreak: false });
  y += 24;
  doc.fontSize(7).text('SYMBOL', lx, y, { lineBreak: false });
  doc.text('DESCRIPTION', lx + 50, y, { lineBreak: false });
  doc.text('QTY', lx + 290, y, { lineBreak: false });
  y += 12;
  const rows: [string, number | null, (cy: number) => void][] = [
    ['RAIN BIRD 1804 PRS SPRAY HEAD', truth.sprays, (cy) => spray(doc, lx + 15, cy)],
    ['HUNTER PGP-ADJ ROTOR', truth.rotors, (cy) => rotor(doc, lx + 15, cy)],
    ['RAIN BIRD PEB REMOTE CONTROL VALVE', truth.valves, (cy) => valve(doc, lx + 15, cy)],
    ['RAIN BIRD ESP-LXME CONTROLLER', 1, (cy) => controller(doc, lx + 15, cy)],
    [
      '1-1/2" SCH 40 PVC MAINLINE',
      null,
      (cy) =>
        line(MAIN, [
          [lx + 2, cy],
          [lx + 32, cy],
        ]),
    ],
    [
      '3/4" CL 200 PVC LATERAL',
      null,
      (cy) =>
        line(LATERAL, [
          [lx + 2, cy],
          [lx + 32, cy],
        ]),
    ],
    [
      '4" SCH 40 PVC SLEEVE',
      null,
      (cy) =>
        line(SLEEVE, [
          [lx + 2, cy],
          [lx + 32, cy],
        ]),
    ],
  ];
  for (const [name, qty, draw] of rows) {
    y += 22;
    draw(y);
    doc.font('Helvetica').fontSize(7).fillColor('#000');
    doc.text(name, lx + 50, y - 3.5, { lineBreak: false });
    if (qty !== null) doc.text(String(qty), lx + 290, y - 3.5, { lineBreak: false });
  }
  doc.end();
  const round = (n: number) => Math.round(n * 10) / 10;
  truth.mainlineFt = round(truth.mainlineFt);
  truth.lateralFt = round(truth.lateralFt);
  truth.sleeveFt = round(truth.sleeveFt);
  return { bytes: await done, truth };
}
