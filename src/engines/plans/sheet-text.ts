// A sheet's text layer as words and lines with boxes in sheet pixels (docs/plan-reading.md,
// "Text"). MuPDF's structured text gives each character's quad in page space, which is already
// the sheet as a reader sees it; times SHEET_SCALE it is in the rendered image's pixels.
//
// Words are split at spaces and at gaps wider than a third of the font size (PDF writers often
// place words apart without a space character). A scan (an image and no characters) has no text
// layer: hasTextLayer false, and nothing on it is read as text.
import { fromCorners, tidy, union } from './boxes.ts';
import { type PlanDocument, SHEET_SCALE } from './document.ts';
import type { SheetText, TextLine, Word } from './types.ts';

interface Glyph {
  c: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  size: number;
}

export function sheetText(plan: PlanDocument, page: number): SheetText {
  const p = plan.page(page);
  const { width, height } = plan.sheetSize(page);
  const st = p.toStructuredText('preserve-whitespace,preserve-images');
  const lines: TextLine[] = [];
  let images = 0;
  let glyphs: Glyph[] = [];
  try {
    st.walk({
      onImageBlock() {
        images++;
      },
      beginLine() {
        glyphs = [];
      },
      onChar(c, _origin, _font, size, q) {
        const xs = [q[0], q[2], q[4], q[6]];
        const ys = [q[1], q[3], q[5], q[7]];
        glyphs.push({
          c,
          x0: Math.min(...xs) * SHEET_SCALE,
          y0: Math.min(...ys) * SHEET_SCALE,
          x1: Math.max(...xs) * SHEET_SCALE,
          y1: Math.max(...ys) * SHEET_SCALE,
          size: size * SHEET_SCALE,
        });
      },
      endLine() {
        const words = toWords(glyphs);
        if (words.length > 0)
          lines.push({
            text: words.map((w) => w.text).join(' '),
            box: tidy(union(words.map((w) => w.box))),
            words,
          });
      },
    });
  } finally {
    st.destroy();
  }
  return { page, width, height, hasTextLayer: lines.length > 0, images, lines };
}

function toWords(glyphs: Glyph[]): Word[] {
  const words: Word[] = [];
  let cur: Glyph[] = [];
  const flush = () => {
    if (cur.length > 0) {
      const text = cur.map((g) => g.c).join('');
      words.push({ text, box: tidy(union(cur.map((g) => fromCorners(g.x0, g.y0, g.x1, g.y1)))) });
    }
    cur = [];
  };
  for (const g of glyphs) {
    if (/\s/.test(g.c)) {
      flush();
      continue;
    }
    const prev = cur.at(-1);
    if (prev && g.x0 - prev.x1 > g.size / 3) flush();
    cur.push(g);
  }
  flush();
  return words;
}

/** Every word on the sheet, in reading order of its lines. */
export function allWords(text: SheetText): Word[] {
  return text.lines.flatMap((l) => l.words);
}
