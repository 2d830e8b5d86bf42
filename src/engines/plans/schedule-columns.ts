// The plant schedule's vocabulary (docs/plan-reading.md, "Plant schedule"): the titles a schedule
// goes by and the headers its columns go by. Plans are drawn by hand in CAD, so the words vary;
// these are the ones seen on landscape plan sets. A header cell is matched as a whole
// ("BOTANICAL NAME"), case ignored.

export type ColumnKind = 'symbol' | 'code' | 'botanical' | 'common' | 'size' | 'quantity' | 'remarks';

export const SCHEDULE_TITLE = /\bPLANT(?:ING)?\s+(?:SCHEDULE|LIST|LEGEND)\b/i;

const HEADERS: [ColumnKind, RegExp][] = [
  ['quantity', /^(?:QTY\.?|QUANT\.?|QUANTITY|TOTAL|COUNT|NO\.)$/i],
  ['symbol', /^(?:SYM\.?|SYMBOL)$/i],
  ['code', /^(?:KEY|CODE|ABBR\.?|ABBREV\.?|ID|MARK|TAG)$/i],
  ['botanical', /^(?:BOTANICAL|SCIENTIFIC|LATIN)(?:\s+NAME)?$|^(?:PLANT\s+)?NAME$/i],
  ['common', /^COMMON(?:\s+NAME)?$/i],
  ['size', /^(?:SIZE|CONT\.?|CONTAINER|CAL\.?|CALIPER|HEIGHT|HT\.?|SPREAD|ROOT|SIZE\s*\/\s*CONT\.?)$/i],
  ['remarks', /^(?:REMARKS|NOTES|COMMENTS|SPACING|ROOT\s+CONDITION)$/i],
];

export function headerKind(text: string): ColumnKind | null {
  const t = text.trim().replace(/\s+/g, ' ');
  for (const [kind, re] of HEADERS) if (re.test(t)) return kind;
  return null;
}

/** A plant code as schedules print them: letters first, maybe digits, at most 8 characters. */
export const PLANT_CODE = /^[A-Z]{1,5}[0-9]{0,3}(?:-[A-Z0-9]{1,3})?$/i;

/** Cell text that is a size rather than a name (used when a table has no recognised headers). */
export const LOOKS_LIKE_SIZE = /\b(?:GAL|CAL|CONT|B&B|FLAT|PLUG|HT|SPR|POT)\b|^\d+(?:\.\d+)?\s*["']/i;
