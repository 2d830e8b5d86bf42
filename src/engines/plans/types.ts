// What the plan-reading engine answers with (docs/plan-reading.md). Every position is in SHEET
// PIXELS: the page as a reader sees it (its /Rotate applied), at 144 dpi, origin top left, y down;
// the same frame as renderSheet's image and as the API's plan dots (x, y at 144 dpi). Pages are
// numbered from 1, as a reader counts them.

/** An axis-aligned box in sheet pixels. */
export interface SheetBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface SheetPoint {
  x: number;
  y: number;
}

export interface Word {
  text: string;
  box: SheetBox;
}

/** A line as the PDF's text layer runs it: words on one baseline that sit close together. */
export interface TextLine {
  text: string;
  box: SheetBox;
  words: Word[];
}

export interface SheetText {
  page: number;
  /** The sheet's size in pixels at 144 dpi (rotation applied). */
  width: number;
  height: number;
  /** False when the page shows no text at all (a scan): nothing on it can be read as text. */
  hasTextLayer: boolean;
  /** Whether the page paints raster images (a scan is one image and no text). */
  images: number;
  lines: TextLine[];
}

export interface ScheduleRow {
  code: string;
  botanical_name: string | null;
  common_name: string | null;
  size: string | null;
  /** Null when the quantity cell is empty or not a whole number ("TBD", "AS REQ'D"). */
  quantity: number | null;
  /** The row's box on the schedule's page. */
  box: SheetBox;
  /** The row's cell in the symbol column when the table has one (a sample for findPlants). */
  symbol_box: SheetBox | null;
}

export interface IgnoredRow {
  text: string;
  reason: string;
}

export interface PlantSchedule {
  status: 'found' | 'not_found';
  page: number | null;
  box: SheetBox | null;
  rows: ScheduleRow[];
  rows_ignored: IgnoredRow[];
}

/** The callout patterns read (docs/plan-reading.md, "Callouts"). */
export type CalloutPattern = 'count_code' | 'code_paren_count' | 'code_dash_count' | 'paren_count_code' | 'code_count';

export interface Callout {
  code: string;
  count: number;
  page: number;
  /** The callout text's centre. */
  x: number;
  y: number;
  box: SheetBox;
  text: string;
  pattern: CalloutPattern;
}
