// The page layout under our PDFs (the proposal's, estimating/proposals/pdf.ts; the invoice's,
// billing/invoices/pdf.ts): US Letter pages with margins, text through the embedded fonts
// (fonts.ts), cleaned HTML's blocks (html-blocks.ts), and tables. Every page
// break is decided here rather than left to chance: a heading keeps its first lines with it, a
// table row never straddles the bottom margin (the header row is repeated on the next page, and
// a row taller than a page is split between pages, never cut), and text placed at a position is
// clipped to the bottom margin so nothing is ever drawn in the footer's place.
import type { Face, Fonts } from './fonts.ts';
import type { Block, Run } from './html-blocks.ts';

// US Letter, in points; the bottom margin leaves room for the footer line.
export const PAGE = { width: 612, height: 792 };
export const MARGIN = { top: 54, bottom: 66, left: 54, right: 54 };
export const FOOTER_Y = PAGE.height - 44;
export const LINE_GAP = 2;
export const INK = '#1a1a1a';
export const MUTED = '#5f6368';
export const RULE = '#d5d9de';
export const CELL_PAD = 5;

export type Fill = string;
export type Align = 'left' | 'right' | 'center';

export interface Part {
  text: string;
  face: Face;
  size: number;
  color: Fill;
}
export interface Cell {
  parts: Part[];
  align: Align;
}
export interface Row {
  /** A heading row spanning every column (a pricing group). */
  band: boolean;
  cells: Cell[];
}

export const faceOf = (r: { bold: boolean; italic: boolean }): Face =>
  r.bold ? (r.italic ? 'boldItalic' : 'bold') : r.italic ? 'italic' : 'regular';

/** The pages being written: position, page breaks and text through the embedded fonts. */
export class Layout {
  readonly left = MARGIN.left;
  readonly width = PAGE.width - MARGIN.left - MARGIN.right;
  readonly top = MARGIN.top;
  readonly bottom = PAGE.height - MARGIN.bottom;
  readonly body = this.bottom - this.top;

  constructor(
    readonly doc: PDFKit.PDFDocument,
    readonly fonts: Fonts,
    readonly accent: string,
  ) {}

  get y(): number {
    return this.doc.y;
  }
  set y(v: number) {
    this.doc.y = v;
  }

  newPage(): void {
    this.doc.addPage();
    this.doc.x = this.left;
    this.y = this.top;
  }

  /** Starts a new page unless `h` points fit below the current position. */
  need(h: number): void {
    if (this.y + Math.min(h, this.body) > this.bottom) this.newPage();
  }

  /** Space before the next block; at the top of a page there is none. */
  gap(h: number): void {
    if (this.y > this.top) this.y = Math.min(this.y + h, this.bottom);
  }

  measure(p: Part, width: number): number {
    const text = this.fonts.use(p.face, p.size, p.text);
    return text === '' ? 0 : this.doc.heightOfString(text, { width, lineGap: LINE_GAP });
  }

  /** Text that flows on, across page breaks (pdfkit continues it on a new page at the same x). */
  flow(p: Part, opts: { x?: number; width?: number; align?: Align } = {}): void {
    const text = this.fonts.use(p.face, p.size, p.text);
    if (text === '') return;
    const x = opts.x ?? this.left;
    this.doc.fillColor(p.color).text(text, x, this.y, {
      width: opts.width ?? this.left + this.width - x,
      align: opts.align ?? 'left',
      lineGap: LINE_GAP,
    });
    this.doc.x = this.left;
  }

  /** Text placed at (x, y), clipped to the page's bottom margin; returns its height. */
  place(p: Part, x: number, y: number, width: number, align: Align = 'left'): number {
    const text = this.fonts.use(p.face, p.size, p.text);
    if (text === '') return 0;
    const h = this.doc.heightOfString(text, { width, lineGap: LINE_GAP });
    this.doc.fillColor(p.color).text(text, x, y, {
      width,
      align,
      lineGap: LINE_GAP,
      height: Math.max(this.bottom - y, 1) + 0.5,
    });
    this.doc.x = this.left;
    return h;
  }

  /** Styled runs as one paragraph that wraps and flows across pages. */
  runs(runs: Run[], size: number, color: Fill, x: number): void {
    const width = this.left + this.width - x;
    const parts = runs
      .map((r) => ({ face: faceOf(r), underline: r.underline, text: this.fonts.use(faceOf(r), size, r.text) }))
      .filter((r) => r.text !== '');
    parts.forEach((r, i) => {
      this.doc.font(r.face).fontSize(size).fillColor(color);
      const opts = { width, lineGap: LINE_GAP, continued: i < parts.length - 1, underline: r.underline };
      if (i === 0) this.doc.text(r.text, x, this.y, opts);
      else this.doc.text(r.text, opts);
    });
    this.doc.x = this.left;
  }

  /** Label and value rows (the label in a narrow column), each kept whole on a page. */
  facts(rows: readonly { label: string; value: string }[], labelWidth = 120): void {
    for (const f of rows) {
      const value: Part = { text: f.value, face: 'regular', size: 10, color: INK };
      const h = Math.max(this.measure(value, this.width - labelWidth), 12);
      this.need(h);
      const y = this.y;
      this.place({ text: f.label, face: 'bold', size: 9, color: MUTED }, this.left, y + 1, labelWidth - 8);
      this.y = y;
      this.flow(value, { x: this.left + labelWidth });
      this.y += 5;
    }
  }

  rule(color: Fill = RULE, weight = 0.75): void {
    this.doc
      .moveTo(this.left, this.y)
      .lineTo(this.left + this.width, this.y)
      .lineWidth(weight)
      .strokeColor(color)
      .stroke();
  }

  /** A section's title, kept on a page with the first `keep` points of its section. */
  sectionTitle(title: string, keep: number): void {
    this.gap(18);
    this.need(this.measure({ text: title, face: 'bold', size: 15, color: INK }, this.width) + 12 + keep);
    this.flow({ text: title, face: 'bold', size: 15, color: this.accent });
    this.y += 3;
    this.rule(this.accent, 1);
    this.y += 9;
  }

  /** The cleaned HTML's blocks. */
  blocks(blocks: Block[], size = 10): void {
    for (const b of blocks) {
      switch (b.kind) {
        case 'heading': {
          const hs = b.level === 2 ? size + 3 : b.level === 3 ? size + 2 : size + 1;
          this.gap(8);
          this.need(hs * 1.4 + 36);
          this.runs(
            b.runs.map((r) => ({ ...r, bold: true })),
            hs,
            INK,
            this.left,
          );
          this.y += 3;
          break;
        }
        case 'paragraph':
          this.need(size * 1.5);
          this.runs(b.runs, size, INK, this.left + b.indent * 18);
          this.y += 6;
          break;
        case 'item': {
          const x = this.left + (b.depth - 1) * 16 + 14;
          this.need(size * 1.5);
          if (b.marker !== '') {
            const y = this.y;
            this.place({ text: b.marker, face: 'regular', size, color: INK }, x - 16, y, 15, 'right');
            this.y = y;
          }
          this.runs(b.runs, size, INK, x + 2);
          this.y += 3;
          break;
        }
        case 'rule':
          this.need(12);
          this.y += 4;
          this.rule();
          this.y += 8;
          break;
        case 'table': {
          const n = Math.max(...b.rows.map((r) => r.cells.length), 1);
          const columns = Array.from({ length: n }, () => ({ width: this.width / n, align: 'left' as Align }));
          const [first, ...rest] = b.rows;
          const header = first.header ? first.cells : null;
          const rows = (header ? rest : b.rows).map((r) => ({
            band: false,
            cells: columns.map((_, i) => ({
              parts: [{ text: r.cells[i] ?? '', face: 'regular' as Face, size: size - 1, color: INK }],
              align: 'left' as Align,
            })),
          }));
          this.table(columns, header, rows);
          this.y += 8;
          break;
        }
      }
    }
  }

  /** Bulleted plain-text items (terms, custom sections). */
  bullets(items: string[], size = 10): void {
    for (const text of items) {
      this.need(size * 1.5);
      const y = this.y;
      this.place({ text: '•', face: 'regular', size, color: this.accent }, this.left + 2, y, 12);
      this.y = y;
      this.flow({ text, face: 'regular', size, color: INK }, { x: this.left + 16 });
      this.y += 3;
    }
  }

  // ---- tables ----

  private cellWidth(columns: { width: number }[], row: Row, i: number): number {
    return (row.band ? this.width : columns[i].width) - 2 * CELL_PAD;
  }

  private cellHeight(cell: Cell, width: number): number {
    return cell.parts.reduce((h, p, i) => h + this.measure(p, width) + (i > 0 && p.text !== '' ? 1 : 0), 0);
  }

  private rowHeight(columns: { width: number }[], row: Row): number {
    const inner = Math.max(...row.cells.map((c, i) => this.cellHeight(c, this.cellWidth(columns, row, i))), 0);
    return inner + 2 * CELL_PAD;
  }

  /** The longest start of `p` (cut at a space when there is one) that fits in `height`. */
  private fitPrefix(p: Part, width: number, height: number): [string, string] {
    const chars = Array.from(p.text);
    let lo = 0;
    let hi = chars.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (this.measure({ ...p, text: chars.slice(0, mid).join('') }, width) <= height) lo = mid;
      else hi = mid - 1;
    }
    let cut = lo;
    const space = chars.slice(0, lo).lastIndexOf(' ');
    if (lo < chars.length && space > lo / 2) cut = space + 1;
    return [chars.slice(0, cut).join('').trimEnd(), chars.slice(cut).join('').trimStart()];
  }

  /** `row` cut so its first part fills `height`: what fits now, and what follows on the next page. */
  private splitRow(columns: { width: number }[], row: Row, height: number): [Row, Row] {
    const inner = height - 2 * CELL_PAD;
    const head: Cell[] = [];
    const tail: Cell[] = [];
    row.cells.forEach((cell, i) => {
      const width = this.cellWidth(columns, row, i);
      const now: Part[] = [];
      const later: Part[] = [];
      let used = 0;
      for (const p of cell.parts) {
        if (later.length > 0) {
          later.push(p);
          continue;
        }
        const h = this.measure(p, width) + (now.length > 0 ? 1 : 0);
        if (used + h <= inner) {
          now.push(p);
          used += h;
          continue;
        }
        const [fits, rest] = this.fitPrefix(p, width, inner - used - (now.length > 0 ? 1 : 0));
        if (fits !== '') now.push({ ...p, text: fits });
        later.push({ ...p, text: rest });
        used = inner;
      }
      head.push({ ...cell, parts: now });
      tail.push({ ...cell, parts: later });
    });
    return [
      { band: row.band, cells: head },
      { band: row.band, cells: tail },
    ];
  }

  private drawRow(columns: { width: number }[], row: Row, header: boolean): void {
    const y = this.y;
    const h = this.rowHeight(columns, row);
    if (header || row.band) {
      this.doc.save();
      if (row.band) this.doc.fillOpacity(0.1);
      this.doc.rect(this.left, y, this.width, h).fill(this.accent).restore();
    }
    let x = this.left;
    row.cells.forEach((cell, i) => {
      const width = this.cellWidth(columns, row, i);
      let cy = y + CELL_PAD;
      for (const p of cell.parts) {
        if (p.text === '') continue;
        cy += this.place(p, x + CELL_PAD, cy, width, cell.align) + 1;
      }
      x += row.band ? this.width : columns[i].width;
    });
    this.y = y + h;
    if (!header) this.rule();
  }

  /**
   * A table that breaks across pages: the header row is drawn again on every page, a group
   * heading row keeps the row after it, and a row taller than the space left is split between pages.
   */
  table(columns: { width: number; align: Align }[], headings: string[] | null, rows: Row[]): void {
    const header: Row | null = headings
      ? {
          band: false,
          cells: columns.map((c, i) => ({
            parts: [{ text: headings[i] ?? '', face: 'bold' as Face, size: 9, color: '#ffffff' }],
            align: c.align,
          })),
        }
      : null;
    const headerH = header ? this.rowHeight(columns, header) : 0;
    const drawHeader = () => {
      if (header) this.drawRow(columns, header, true);
    };
    const MIN_SPLIT = 40;
    rows.forEach((original, index) => {
      let row = original;
      let h = this.rowHeight(columns, row);
      const next = rows[index + 1];
      const keep = row.band && next ? Math.min(this.rowHeight(columns, next), this.body / 3) : 0;
      if (index === 0) {
        this.need(headerH + Math.min(h + keep, this.body - headerH));
        drawHeader();
      } else if (this.y + h + keep > this.bottom && h + keep <= this.body - headerH) {
        this.newPage();
        drawHeader();
      }
      while (this.y + h > this.bottom) {
        const room = this.bottom - this.y;
        if (room < MIN_SPLIT) {
          this.newPage();
          drawHeader();
          continue;
        }
        const [now, later] = this.splitRow(columns, row, room);
        this.drawRow(columns, now, false);
        this.newPage();
        drawHeader();
        row = later;
        h = this.rowHeight(columns, row);
      }
      this.drawRow(columns, row, false);
    });
    if (rows.length === 0 && header) {
      this.need(headerH);
      drawHeader();
    }
  }
}
