// Words gathered into rows (by their vertical centres) and rows into cells (by the horizontal gaps
// between words): how tables are read from a text layer that has no notion of a table.
import { union } from './boxes.ts';
import type { SheetBox, Word } from './types.ts';

export interface Row {
  words: Word[];
  box: SheetBox;
  /** The row's vertical centre. */
  cy: number;
  /** The median word height (the text size, in sheet pixels). */
  h: number;
}

export interface Cell {
  text: string;
  box: SheetBox;
  words: Word[];
}

const cy = (w: Word) => w.box.y + w.box.height / 2;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.floor(s.length / 2)];
}

/** Rows top to bottom: a word joins a row when its centre is within half a text height of it. */
export function toRows(words: Word[]): Row[] {
  const rows: Row[] = [];
  for (const w of [...words].sort((a, b) => cy(a) - cy(b))) {
    const last = rows.at(-1);
    if (last && Math.abs(cy(w) - last.cy) <= Math.max(last.h, w.box.height) / 2) {
      last.words.push(w);
      last.cy = median(last.words.map(cy));
      last.h = median(last.words.map((x) => x.box.height));
    } else rows.push({ words: [w], box: w.box, cy: cy(w), h: w.box.height });
  }
  for (const r of rows) {
    r.words.sort((a, b) => a.box.x - b.box.x);
    r.box = union(r.words.map((w) => w.box));
  }
  return rows;
}

/** A row's words split into cells where the gap between two words is wider than `gap` pixels. */
export function toCells(words: Word[], gap: number): Cell[] {
  const cells: Cell[] = [];
  let cur: Word[] = [];
  const flush = () => {
    if (cur.length > 0)
      cells.push({ text: cur.map((w) => w.text).join(' '), box: union(cur.map((w) => w.box)), words: cur });
    cur = [];
  };
  for (const w of [...words].sort((a, b) => a.box.x - b.box.x)) {
    const prev = cur.at(-1);
    if (prev && w.box.x - (prev.box.x + prev.box.width) > gap) flush();
    cur.push(w);
  }
  flush();
  return cells;
}
