// A sheet's stated drawing scale, read from its text (docs/plan-reading.md, "Irrigation"): how many
// feet on the ground one inch of paper stands for. Engineering scales (SCALE: 1" = 20') and
// architectural ones (1/8" = 1'-0") are read; "NTS" / "NOT TO SCALE" and anything else are null.
import type { SheetText } from './types.ts';

export interface SheetScale {
  text: string;
  /** Ground feet per paper inch. */
  feetPerInch: number;
}

const ENGINEERING = /\b1\s*(?:"|''|IN\.?)\s*=\s*(\d+(?:\.\d+)?)\s*(?:'|FT\.?|FEET)(?:\s*-\s*0\s*")?/i;
const ARCHITECTURAL = /(\d+)\s*\/\s*(\d+)\s*"\s*=\s*1\s*'\s*(?:-\s*0\s*")?/i;

export function parseScale(text: string): SheetScale | null {
  if (/\b(?:NTS|N\.T\.S\.|NOT TO SCALE)\b/i.test(text)) return null;
  const e = ENGINEERING.exec(text);
  if (e && Number(e[1]) > 0) return { text: e[0].trim(), feetPerInch: Number(e[1]) };
  const a = ARCHITECTURAL.exec(text);
  if (a && Number(a[1]) > 0 && Number(a[2]) > 0) return { text: a[0].trim(), feetPerInch: Number(a[2]) / Number(a[1]) };
  return null;
}

/** The scale printed on a sheet: the first line that states one. */
export function sheetScale(text: SheetText): SheetScale | null {
  for (const l of text.lines) {
    const s = parseScale(l.text);
    if (s) return s;
  }
  return null;
}
