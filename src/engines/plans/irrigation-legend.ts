// The irrigation legend (docs/plan-reading.md, "Irrigation"): a table titled IRRIGATION LEGEND (or
// SCHEDULE) with a symbol column, a description and a quantity. Each row is a kind of head, a
// valve, a kind of pipe (its symbol a line sample: width and dash tell the pipe classes apart) or
// something else (a controller, a backflow preventer: listed, not counted). Rows are read as the
// plant schedule's are: header cells name the columns, a word belongs to the column whose start is
// left of it, the table ends at a wide gap.
import { centreInside, tidy, union } from './boxes.ts';
import { type Row, toCells, toRows } from './rows.ts';
import { allWords } from './sheet-text.ts';
import type { IgnoredRow, SheetBox, SheetText } from './types.ts';

export type LegendKind = 'head' | 'valve' | 'pipe' | 'other';

export interface LegendRow {
  kind: LegendKind;
  /** The description as printed (manufacturer, model, size). */
  name: string;
  /** The quantity the legend states, null when not a whole number (pipes often have none). */
  plan_quantity: number | null;
  box: SheetBox;
  symbol_box: SheetBox;
}

export interface IrrigationLegend {
  status: 'found' | 'not_found';
  page: number | null;
  box: SheetBox | null;
  rows: LegendRow[];
  rows_ignored: IgnoredRow[];
}

export const LEGEND_TITLE = /\bIRRIGATION\s+(?:LEGEND|SCHEDULE|KEY)\b/i;

type Col = 'symbol' | 'description' | 'quantity';
const HEADERS: [Col, RegExp][] = [
  ['symbol', /^(?:SYM\.?|SYMBOL)$/i],
  ['description', /^(?:DESCRIPTION|DESC\.?|MANUFACTURER|MFR\.?|MODEL|ITEM|TYPE|MANUFACTURER\s*\/\s*MODEL)$/i],
  ['quantity', /^(?:QTY\.?|QUANTITY|COUNT|TOTAL)$/i],
];

/** A legend row's kind from its description. */
export function legendKind(name: string): LegendKind {
  if (/\bVALVE\b/i.test(name) && !/\b(?:BALL|GATE|ISOLATION|QUICK[- ]COUPL)/i.test(name)) return 'valve';
  if (/\b(?:PIPE|MAIN\s*LINE|MAINLINE|LATERAL|SLEEVE|DRIP\s+LINE|DRIPLINE|PVC|POLY)\b/i.test(name)) return 'pipe';
  if (/\b(?:HEAD|SPRAY|ROTOR|BUBBLER|NOZZLE|EMITTER|IMPACT|ROTARY)\b/i.test(name)) return 'head';
  return 'other';
}

export function findIrrigationLegend(pages: SheetText[]): IrrigationLegend {
  for (const text of pages) {
    for (const line of text.lines) {
      if (!LEGEND_TITLE.test(line.text)) continue;
      const legend = readLegend(text, line.box);
      if (legend) return legend;
    }
  }
  return { status: 'not_found', page: null, box: null, rows: [], rows_ignored: [] };
}

function readLegend(text: SheetText, title: SheetBox): IrrigationLegend | null {
  const words = allWords(text).filter((w) => w.box.y > title.y + title.height / 2);
  const rows = toRows(words).filter((r) => r.cy < title.y + 9 * title.height);
  for (const header of rows) {
    const cells = toCells(header.words, header.h)
      .filter((c) => c.box.x + c.box.width > title.x - 4 * title.height && c.box.x < title.x + 10 * title.width)
      .map((c) => ({ cell: c, col: HEADERS.find(([, re]) => re.test(c.text.trim()))?.[0] ?? null }))
      .filter((c) => c.col !== null);
    const cols = new Set(cells.map((c) => c.col));
    if (!cols.has('symbol') || !cols.has('description')) continue;
    const starts = cells.map((c, i) => {
      const prev = cells[i - 1]?.cell.box;
      return {
        col: c.col as Col,
        start: prev ? (prev.x + prev.width + c.cell.box.x) / 2 : c.cell.box.x - 2 * c.cell.box.height,
        header: c.cell.box,
      };
    });
    const last = starts[starts.length - 1].header;
    const span: SheetBox = {
      x: starts[0].start,
      y: header.box.y,
      width: last.x + last.width + 6 * header.h - starts[0].start,
      height: text.height - header.box.y,
    };
    const body = toRows(
      allWords(text).filter((w) => w.box.y > header.box.y + header.box.height && centreInside(w.box, span)),
    );
    return assemble(text.page, title, header, starts, body, span);
  }
  return null;
}

function assemble(
  page: number,
  title: SheetBox,
  header: Row,
  starts: { col: Col; start: number; header: SheetBox }[],
  body: Row[],
  span: SheetBox,
): IrrigationLegend {
  const taken: Row[] = [];
  let prev = header;
  let pitch = 0;
  for (const row of body) {
    const gap = row.cy - prev.cy;
    if (gap > Math.max(8 * header.h, 2.2 * pitch) || LEGEND_TITLE.test(row.words.map((w) => w.text).join(' '))) break;
    pitch = pitch === 0 ? gap : Math.min(pitch, gap);
    taken.push(row);
    prev = row;
  }
  const symbol = starts.find((s) => s.col === 'symbol');
  const after = symbol ? starts[starts.indexOf(symbol) + 1] : undefined;
  const x0 = symbol?.start ?? span.x;
  const x1 = after?.start ?? x0 + 4 * header.h;
  const rows: LegendRow[] = [];
  const ignored: IgnoredRow[] = [];
  taken.forEach((row, k) => {
    const parts: Record<Col, string[]> = { symbol: [], description: [], quantity: [] };
    for (const w of row.words) {
      let col: Col = starts[0].col;
      for (const s of starts) if (w.box.x >= s.start) col = s.col;
      parts[col].push(w.text);
    }
    const name = parts.description.join(' ');
    const whole = row.words.map((w) => w.text).join(' ');
    if (!name) {
      ignored.push({ text: whole, reason: 'no description in the row' });
      return;
    }
    const q = parts.quantity.join(' ');
    const top =
      k === 0 ? Math.max(header.box.y + header.box.height, row.cy - pitch / 2) : (taken[k - 1].cy + row.cy) / 2;
    const bottom = k === taken.length - 1 ? row.cy + pitch / 2 : (row.cy + taken[k + 1].cy) / 2;
    rows.push({
      kind: legendKind(name),
      name,
      plan_quantity: /^\d{1,3}(?:,\d{3})*$/.test(q) ? Number(q.replace(/,/g, '')) : null,
      box: tidy(row.box),
      symbol_box: tidy({ x: x0, y: top, width: x1 - x0, height: bottom - top }),
    });
  });
  const box = tidy(union([title, header.box, ...taken.map((r) => r.box), ...rows.map((r) => r.symbol_box)]));
  return { status: 'found', page, box, rows, rows_ignored: ignored };
}
