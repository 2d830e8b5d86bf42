// Reading plant callouts from the sheets' text (docs/plan-reading.md, "Callouts"): a plant code
// with a count, in the five ways plans write them. Only codes in the schedule count, so "10 FT",
// "NOTE 3" or "(2) EXISTING" are not plants. Within one text line, tokens are read left to right:
//   count_code        3 AC       (a count, then a code)
//   code_paren_count  AC (3)     also AC(3)
//   code_dash_count   AC-3
//   paren_count_code  (3) AC     also (3)AC
//   code_count        AC 3       only when the line is exactly these two words: in "2 AC 3 QV"
//                              the 3 belongs to QV, and a bare "AC 3" inside a sentence is
//                              too often something else (a detail, a note number)
// A count is a whole number from 1 to 999. Text inside an excluded box (the schedule) is skipped.
import { centre, centreInside, tidy, union } from './boxes.ts';
import type { Callout, CalloutPattern, SheetBox, SheetText, Word } from './types.ts';

export interface CalloutOptions {
  /** Boxes whose text is not read (the schedule's box, a title block). */
  exclude?: { page: number; box: SheetBox }[];
}

const COUNT = '([1-9][0-9]{0,2})';

export function readCallouts(pages: SheetText[], codes: string[], options: CalloutOptions = {}): Callout[] {
  const known = new Set(codes.map((c) => c.toUpperCase()));
  const out: Callout[] = [];
  for (const text of pages) {
    const skip = (options.exclude ?? []).filter((e) => e.page === text.page).map((e) => e.box);
    for (const line of text.lines) {
      const words = line.words.filter((w) => !skip.some((b) => centreInside(w.box, b)));
      out.push(...readLine(words, known, text.page));
    }
  }
  return out;
}

const isCode = (t: string, known: Set<string>) => known.has(t.toUpperCase());
const count = (t: string) => (new RegExp(`^${COUNT}$`).test(t) ? Number(t) : null);
const parenCount = (t: string) => {
  const m = new RegExp(`^\\(${COUNT}\\)$`).exec(t);
  return m ? Number(m[1]) : null;
};

function readLine(words: Word[], known: Set<string>, page: number): Callout[] {
  const found: Callout[] = [];
  const emit = (code: string, n: number, used: Word[], pattern: CalloutPattern) => {
    const box = tidy(union(used.map((w) => w.box)));
    const c = centre(box);
    found.push({
      code: code.toUpperCase(),
      count: n,
      page,
      x: Math.round(c.x * 10) / 10,
      y: Math.round(c.y * 10) / 10,
      box,
      text: used.map((w) => w.text).join(' '),
      pattern,
    });
  };
  for (let i = 0; i < words.length; i++) {
    const t = words[i].text;
    const next = words[i + 1]?.text;
    // One word: AC-3, AC(3), (3)AC.
    let m = new RegExp(`^([A-Za-z][A-Za-z0-9]*)-${COUNT}$`).exec(t);
    if (m && isCode(m[1], known)) {
      emit(m[1], Number(m[2]), [words[i]], 'code_dash_count');
      continue;
    }
    m = new RegExp(`^([A-Za-z][A-Za-z0-9]*)\\(${COUNT}\\)$`).exec(t);
    if (m && isCode(m[1], known)) {
      emit(m[1], Number(m[2]), [words[i]], 'code_paren_count');
      continue;
    }
    m = new RegExp(`^\\(${COUNT}\\)([A-Za-z][A-Za-z0-9]*)$`).exec(t);
    if (m && isCode(m[2], known)) {
      emit(m[2], Number(m[1]), [words[i]], 'paren_count_code');
      continue;
    }
    if (next === undefined) continue;
    // Two words.
    if (count(t) !== null && isCode(next, known)) {
      emit(next, count(t) as number, [words[i], words[i + 1]], 'count_code');
      i++;
    } else if (parenCount(t) !== null && isCode(next, known)) {
      emit(next, parenCount(t) as number, [words[i], words[i + 1]], 'paren_count_code');
      i++;
    } else if (isCode(t, known) && parenCount(next) !== null) {
      emit(t, parenCount(next) as number, [words[i], words[i + 1]], 'code_paren_count');
      i++;
    } else if (words.length === 2 && isCode(t, known) && count(next) !== null) {
      emit(t, count(next) as number, [words[i], words[i + 1]], 'code_count');
      i++;
    }
  }
  return found;
}

/** Callout counts added up per code (the quantity a plant's callouts state). */
export function calloutTotals(callouts: Callout[]): Map<string, number> {
  const totals = new Map<string, number>();
  for (const c of callouts) totals.set(c.code, (totals.get(c.code) ?? 0) + c.count);
  return totals;
}
