// Opening a plan PDF once and reading its sheets (docs/plan-reading.md, "Opening and rendering").
// MuPDF (the `mupdf` package, its WebAssembly build) does the PDF work. A PlanDocument keeps the
// parsed document and the pages already loaded, so a 20-page plan is parsed once and each sheet is
// loaded once whether it is rendered, its text read or its drawing walked.
//
// MuPDF's page space is already the sheet as a reader sees it (the page's /Rotate and the PDF's
// upward y are undone by the page's own transform), in points; sheet pixels are that times 2
// (144 dpi). So one scale matrix serves the image, the text and the vector drawing alike.
import type * as Mupdf from 'mupdf';
import { mupdf } from './mupdf.ts';
import { NotReadablePdf } from './errors.ts';

/** Sheet pixels are points at this resolution. */
export const SHEET_DPI = 144;
export const SHEET_SCALE = SHEET_DPI / 72;

export class PlanDocument {
  readonly pageCount: number;
  private readonly pages = new Map<number, Mupdf.Page>();
  private closed = false;

  constructor(readonly doc: Mupdf.Document) {
    this.pageCount = doc.countPages();
  }

  /** A page by its number from 1, loaded once. */
  page(n: number): Mupdf.Page {
    if (this.closed) throw new Error('The plan document is closed');
    if (!Number.isInteger(n) || n < 1 || n > this.pageCount)
      throw new RangeError(`Page ${n} is not in this plan (1–${this.pageCount})`);
    let p = this.pages.get(n);
    if (!p) {
      p = this.doc.loadPage(n - 1);
      this.pages.set(n, p);
    }
    return p;
  }

  /** The sheet's size in sheet pixels. */
  sheetSize(n: number): { width: number; height: number } {
    const [x0, y0, x1, y1] = this.page(n).getBounds();
    return { width: Math.round((x1 - x0) * SHEET_SCALE), height: Math.round((y1 - y0) * SHEET_SCALE) };
  }

  /** Frees the WebAssembly memory now rather than when the garbage collector gets to it. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const p of this.pages.values()) p.destroy();
    this.pages.clear();
    this.doc.destroy();
  }
}

const PDF_MAGIC = Buffer.from('%PDF-');

/**
 * Opens plan bytes; throws NotReadablePdf for anything that is not a PDF we can read: no PDF
 * header, a file MuPDF cannot parse (or whose pages cannot be found, as when it is cut short), a
 * password-protected one, or one without pages.
 */
export function openPlan(bytes: Uint8Array): PlanDocument {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The header may follow a little junk (PDF 1.7 §7.5.2 readers accept up to 1024 bytes of it).
  if (buf.subarray(0, 1024).indexOf(PDF_MAGIC) < 0) throw new NotReadablePdf('not_pdf', 'no %PDF- header');
  // Outside the try: MuPDF not loaded is the caller's mistake, not a damaged PDF.
  const { Document } = mupdf();
  let doc: Mupdf.Document;
  try {
    doc = Document.openDocument(buf, 'application/pdf');
  } catch (err) {
    throw new NotReadablePdf('damaged', (err as Error).message);
  }
  if (doc.needsPassword()) {
    doc.destroy();
    throw new NotReadablePdf('encrypted', 'the PDF needs a password to open');
  }
  const plan = new PlanDocument(doc);
  try {
    if (plan.pageCount < 1) throw new NotReadablePdf('no_pages', 'the PDF has no pages');
    // Loading every page (cheap: no drawing) finds a damaged page tree now, not half-way through.
    for (let n = 1; n <= plan.pageCount; n++) plan.page(n).getBounds();
  } catch (err) {
    plan.close();
    if (err instanceof NotReadablePdf) throw err;
    throw new NotReadablePdf('damaged', (err as Error).message);
  }
  return plan;
}

/** Runs `use` on an opened plan: the caller's own, or bytes opened (and closed) for the call. */
export function withPlan<T>(source: Uint8Array | PlanDocument, use: (plan: PlanDocument) => T): T {
  if (source instanceof PlanDocument) return use(source);
  const plan = openPlan(source);
  try {
    return use(plan);
  } finally {
    plan.close();
  }
}

export interface RenderedSheet {
  png: Buffer;
  width: number;
  height: number;
}

/** The sheet as a reader sees it (rotation applied), as a PNG at `dpi` (default 144). */
export function renderSheet(source: Uint8Array | PlanDocument, page: number, dpi = SHEET_DPI): RenderedSheet {
  if (!(dpi > 0 && dpi <= 600)) throw new RangeError('dpi must be between 1 and 600');
  return withPlan(source, (plan) => {
    const s = dpi / 72;
    const pix = plan.page(page).toPixmap(mupdf().Matrix.scale(s, s), mupdf().ColorSpace.DeviceRGB, false, true);
    try {
      return { png: Buffer.from(pix.asPNG()), width: pix.getWidth(), height: pix.getHeight() };
    } finally {
      pix.destroy();
    }
  });
}

/** The sheet at 144 dpi as grey levels (one byte a pixel, row by row), for raster matching. */
export function sheetGrey(plan: PlanDocument, page: number): { data: Uint8Array; width: number; height: number } {
  const pix = plan
    .page(page)
    .toPixmap(mupdf().Matrix.scale(SHEET_SCALE, SHEET_SCALE), mupdf().ColorSpace.DeviceGray, false, true);
  try {
    const w = pix.getWidth();
    const h = pix.getHeight();
    const stride = pix.getStride();
    const src = pix.getPixels();
    const data = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) data.set(src.subarray(y * stride, y * stride + w), y * w);
    return { data, width: w, height: h };
  } finally {
    pix.destroy();
  }
}
