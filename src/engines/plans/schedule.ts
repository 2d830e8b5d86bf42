// Reading the plant schedule (docs/plan-reading.md, "Plant schedule"). findSchedule looks on every
// sheet with a text layer for a title (PLANT SCHEDULE, PLANT LIST, PLANT LEGEND) with a header row
// under it, and reads the table below; readScheduleAt reads the table inside a box the user drew
// (the API's PUT …/schedule, for when it was not found). Every row read is either a plant row or
// in rows_ignored with the reason: nothing is dropped silently.
//
// Columns come from the header cells: a word belongs to the column whose header starts left of it
// (boundaries midway between one header's end and the next one's start), except that a word
// close behind the previous one stays in its cell (a long name running past the boundary).
import { centreInside, tidy, union } from './boxes.ts';
import { type Cell, type Row, toCells, toRows } from './rows.ts';
import { type ColumnKind, headerKind, LOOKS_LIKE_SIZE, PLANT_CODE, SCHEDULE_TITLE } from './schedule-columns.ts';
import { allWords } from './sheet-text.ts';
import type { IgnoredRow, PlantSchedule, ScheduleRow, SheetBox, SheetText, Word } from './types.ts';

interface Column {
  kind: ColumnKind;
  header: SheetBox;
  /** Words whose left edge is at or right of this start (and left of the next column's) belong here. */
  start: number;
}

const NOT_FOUND: PlantSchedule = { status: 'not_found', page: null, box: null, rows: [], rows_ignored: [] };

/** The first plant schedule on the sheets (in page order), or not_found. */
export function findSchedule(pages: SheetText[]): PlantSchedule {
  for (const text of pages) {
    if (!text.hasTextLayer) continue;
    for (const line of text.lines) {
      if (!SCHEDULE_TITLE.test(line.text)) continue;
      const found = readBelowTitle(text, line.box);
      if (found) return found;
    }
  }
  return { ...NOT_FOUND };
}

/** The table inside `box` on a sheet: with its header row if it has one, else column by position. */
export function readScheduleAt(text: SheetText, box: SheetBox): PlantSchedule {
  const words = allWords(text).filter((w) => centreInside(w.box, box));
  const rows = toRows(words).filter((r) => !SCHEDULE_TITLE.test(r.words.map((w) => w.text).join(' ')));
  const at = rows.findIndex((r) => headerColumns(r) !== null);
  if (at >= 0) {
    const columns = headerColumns(rows[at]) as Column[];
    return assemble(text.page, union([box]), columns, rows[at], rows.slice(at + 1), box);
  }
  return readByPosition(text.page, box, rows);
}

function readBelowTitle(text: SheetText, title: SheetBox): PlantSchedule | null {
  const words = allWords(text).filter((w) => w.box.y > title.y + title.height / 2);
  const rows = toRows(words).filter((r) => r.cy < title.y + title.height + 8 * title.height);
  for (const row of rows) {
    // The header row: the cells near the title that read as column headers.
    const cells = toCells(row.words, row.h).filter(
      (c) => c.box.x + c.box.width > title.x - 4 * title.height && c.box.x < title.x + title.width * 8,
    );
    const columns = columnsFrom(cells, title);
    if (!columns) continue;
    const left = columns[0].start;
    const right = columns.at(-1)?.header ?? title;
    // The table's span: from its first column to a little past its last header.
    const span: SheetBox = {
      x: left,
      y: row.box.y,
      width: right.x + right.width + 6 * row.h - left,
      height: text.height - row.box.y,
    };
    const below = toRows(
      allWords(text).filter((w) => w.box.y > row.box.y + row.box.height / 2 && centreInside(w.box, span)),
    );
    return assemble(text.page, title, columns, row, below, null);
  }
  return null;
}

/** A header row's columns, or null when it does not read as one (fewer than 3 known headers). */
function headerColumns(row: Row): Column[] | null {
  return columnsFrom(toCells(row.words, row.h), null);
}

function columnsFrom(cells: Cell[], title: SheetBox | null): Column[] | null {
  const known = cells.map((c) => ({ cell: c, kind: headerKind(c.text) }));
  // The run of header cells that starts nearest the title's left edge (or the leftmost).
  let first = known.findIndex((k) => k.kind !== null);
  if (title) {
    let best = Number.POSITIVE_INFINITY;
    known.forEach((k, i) => {
      const d = Math.abs(k.cell.box.x - title.x);
      if (k.kind !== null && d < best) {
        best = d;
        first = i;
      }
    });
    while (first > 0 && known[first - 1].kind !== null) first--;
  }
  if (first < 0) return null;
  const run: { cell: Cell; kind: ColumnKind }[] = [];
  for (let i = first; i < known.length && known[i].kind !== null; i++)
    run.push({ cell: known[i].cell, kind: known[i].kind as ColumnKind });
  const kinds = new Set(run.map((r) => r.kind));
  const names = kinds.has('botanical') || kinds.has('common');
  if (kinds.size < 3 || !names) return null;
  return run.map((r, i) => {
    const prev = run[i - 1]?.cell.box;
    const start = prev ? (prev.x + prev.width + r.cell.box.x) / 2 : r.cell.box.x - 2 * r.cell.box.height;
    return { kind: r.kind, header: r.cell.box, start };
  });
}

interface Cells {
  row: Row;
  byKind: Map<ColumnKind, Word[]>;
}

function split(row: Row, columns: Column[]): Cells {
  const byKind = new Map<ColumnKind, Word[]>();
  let prev: { w: Word; kind: ColumnKind } | null = null;
  for (const w of row.words) {
    let kind = columns[0].kind;
    for (const c of columns) if (w.box.x >= c.start) kind = c.kind;
    // A word right behind the previous one continues its cell.
    if (prev && w.box.x - (prev.w.box.x + prev.w.box.width) < row.h * 0.6) kind = prev.kind;
    byKind.set(kind, [...(byKind.get(kind) ?? []), w]);
    prev = { w, kind };
  }
  return { row, byKind };
}

const textOf = (c: Cells, kind: ColumnKind): string | null => {
  const ws = c.byKind.get(kind);
  return ws && ws.length > 0 ? ws.map((w) => w.text).join(' ') : null;
};

function assemble(
  page: number,
  title: SheetBox,
  columns: Column[],
  header: Row,
  below: Row[],
  limit: SheetBox | null,
): PlantSchedule {
  const rows: ScheduleRow[] = [];
  const ignored: IgnoredRow[] = [];
  const taken: Row[] = [];
  const seen = new Set<string>();
  let last: Row = header;
  let pitch = 0;
  let lastPlant: { row: ScheduleRow; cells: Cells } | null = null;
  for (const row of below) {
    const gap = row.cy - last.cy;
    // The table ends at a wide vertical gap (unless the user drew its box).
    if (!limit && gap > Math.max(8 * header.h, 2.2 * pitch)) break;
    if (SCHEDULE_TITLE.test(row.words.map((w) => w.text).join(' '))) break;
    const cells = split(row, columns);
    const code = textOf(cells, 'code') ?? (columns.some((c) => c.kind === 'code') ? null : textOf(cells, 'symbol'));
    const whole = row.words.map((w) => w.text).join(' ');
    taken.push(row);
    // A name wrapped onto a second line sits close under its row and has no code of its own.
    if (!code && lastPlant && row.box.y - (last.box.y + last.box.height) < 0.6 * row.h) {
      for (const kind of ['botanical', 'common', 'size'] as const) {
        const more = textOf(cells, kind);
        const field = kind === 'botanical' ? 'botanical_name' : kind === 'common' ? 'common_name' : 'size';
        if (more) lastPlant.row[field] = [lastPlant.row[field], more].filter(Boolean).join(' ');
      }
      lastPlant.row.box = tidy(union([lastPlant.row.box, row.box]));
      last = row;
      continue;
    }
    pitch = pitch === 0 ? gap : Math.min(pitch, gap);
    last = row;
    const read = toPlantRow(cells, code, columns);
    if ('reason' in read) {
      ignored.push({ text: whole, reason: read.reason });
      lastPlant = null;
      continue;
    }
    if (seen.has(read.code.toUpperCase())) {
      ignored.push({ text: whole, reason: `code ${read.code} is already in this schedule` });
      continue;
    }
    seen.add(read.code.toUpperCase());
    rows.push(read);
    lastPlant = { row: read, cells };
  }
  symbolCells(rows, taken, columns, header, pitch);
  const box =
    limit ?? union([title, header.box, ...taken.map((r) => r.box), ...rows.map((r) => r.symbol_box ?? r.box)]);
  return { status: 'found', page, box: tidy(box), rows, rows_ignored: ignored };
}

function toPlantRow(cells: Cells, code: string | null, columns: Column[]): ScheduleRow | { reason: string } {
  if (!code) return { reason: 'no plant code in the row' };
  if (!PLANT_CODE.test(code)) return { reason: `"${code}" does not read as a plant code` };
  const botanical = textOf(cells, 'botanical');
  const common = textOf(cells, 'common');
  if (!botanical && !common) return { reason: 'no plant name in the row' };
  const qtyText = textOf(cells, 'quantity');
  const quantity = qtyText && /^\d{1,3}(?:,\d{3})*$/.test(qtyText) ? Number(qtyText.replace(/,/g, '')) : null;
  const hasSymbolColumn = columns.some((c) => c.kind === 'symbol');
  return {
    code: code.toUpperCase(),
    botanical_name: botanical,
    common_name: common,
    size: textOf(cells, 'size'),
    quantity,
    box: tidy(cells.row.box),
    symbol_box: hasSymbolColumn ? { x: 0, y: 0, width: 0, height: 0 } : null,
  };
}

/** Each row's cell in the symbol column: the column's width, half-way to the neighbouring rows. */
function symbolCells(rows: ScheduleRow[], taken: Row[], columns: Column[], header: Row, pitch: number): void {
  const i = columns.findIndex((c) => c.kind === 'symbol');
  if (i < 0) return;
  const x0 = columns[i].start;
  const next = columns[i + 1];
  const x1 = next ? next.start : columns[i].header.x + columns[i].header.width * 2;
  // Every row read (plants and ignored ones) bounds its neighbours' cells.
  const centres = taken.map((r) => r.cy).sort((a, b) => a - b);
  const headerBottom = header.box.y + header.box.height;
  for (const r of rows) {
    const cy = r.box.y + r.box.height / 2;
    const k = centres.findIndex((c) => Math.abs(c - cy) < r.box.height);
    const above = k > 0 ? centres[k - 1] : null;
    const below = k >= 0 && k < centres.length - 1 ? centres[k + 1] : null;
    const top = above === null ? Math.max(headerBottom, cy - pitch / 2) : (above + cy) / 2;
    const bottom = below === null ? cy + pitch / 2 : (cy + below) / 2;
    r.symbol_box = tidy({ x: x0, y: top, width: x1 - x0, height: bottom - top });
  }
}

/** A table without recognised headers, read by position: code, names, size, quantity. */
function readByPosition(page: number, box: SheetBox, rows: Row[]): PlantSchedule {
  const out: ScheduleRow[] = [];
  const ignored: IgnoredRow[] = [];
  for (const row of rows) {
    const cells = toCells(row.words, row.h).map((c) => c.text);
    const whole = cells.join(' ');
    const code = cells.shift() ?? '';
    if (!PLANT_CODE.test(code)) {
      ignored.push({ text: whole, reason: `"${code}" does not read as a plant code (no column headers in the box)` });
      continue;
    }
    const qtyText = cells.at(-1) ?? '';
    const quantity = /^\d{1,3}(?:,\d{3})*$/.test(qtyText) ? Number(qtyText.replace(/,/g, '')) : null;
    // A last cell that is neither a number nor a size, after four others, is a quantity not stated ("TBD").
    if (quantity !== null || (cells.length >= 4 && !LOOKS_LIKE_SIZE.test(qtyText))) cells.pop();
    const size = cells.length > 0 && LOOKS_LIKE_SIZE.test(cells.at(-1) ?? '') ? (cells.pop() as string) : null;
    if (cells.length === 0) {
      ignored.push({ text: whole, reason: 'no plant name in the row' });
      continue;
    }
    out.push({
      code: code.toUpperCase(),
      botanical_name: cells[0] ?? null,
      common_name: cells.slice(1).join(' ') || null,
      size,
      quantity,
      box: tidy(row.box),
      symbol_box: null,
    });
  }
  return { status: out.length > 0 ? 'found' : 'not_found', page, box: tidy(box), rows: out, rows_ignored: ignored };
}
