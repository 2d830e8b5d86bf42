// Opening plans and reading their sheets (docs/plan-reading.md, "Opening and rendering", "Text"):
// page count, unreadable bytes as NotReadablePdf, the rotated sheet in the reader's frame (image and
// text alike), and the scanned sheet without a text layer.
import sharp from 'sharp';
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { NotReadablePdf, openPlan, type PlanDocument, planText, renderSheet, sheetText } from '#engines/plans/index.ts';
import { encryptedPlan, SHEET_H, SHEET_W, type SyntheticPlan, syntheticPlan } from '#engines/plans/synthetic-plan.ts';

let made: SyntheticPlan;
let plan: PlanDocument;

beforeAll(async () => {
  made = await syntheticPlan(1);
  plan = openPlan(made.bytes);
});
afterAll(() => plan.close());

function notReadable(bytes: Uint8Array): NotReadablePdf {
  try {
    openPlan(bytes).close();
  } catch (err) {
    expect(err).toBeInstanceOf(NotReadablePdf);
    return err as NotReadablePdf;
  }
  throw new Error('opened');
}

describe('openPlan', () => {
  it('counts the pages', () => {
    expect(plan.pageCount).toBe(made.truth.pageCount);
  });

  it('garbage, a cut-short file, an empty one and an encrypted one are NotReadablePdf', async () => {
    expect(notReadable(Buffer.from('this is not a pdf at all, just words')).reason).toBe('not_pdf');
    expect(notReadable(new Uint8Array(0)).reason).toBe('not_pdf');
    expect(notReadable(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4000, 7)])).reason).toBe('damaged');
    // Cut short: MuPDF repairs what it can, and a file whose page tree is lost has no pages.
    for (const share of [0.01, 0.6])
      expect(['damaged', 'no_pages']).toContain(notReadable(made.bytes.subarray(0, made.bytes.length * share)).reason);
    expect(notReadable(await encryptedPlan()).reason).toBe('encrypted');
  });

  it('a PDF encrypted with an owner password only opens, and its text reads', async () => {
    const plan = openPlan(await encryptedPlan(true));
    try {
      expect(plan.pageCount).toBe(1);
      expect(sheetText(plan, 1).lines.map((l) => l.text)).toContain('PLANT SCHEDULE');
    } finally {
      plan.close();
    }
  });

  it('a page outside the plan is a RangeError, not a crash', () => {
    expect(() => renderSheet(plan, 0)).toThrow(RangeError);
    expect(() => renderSheet(plan, 4)).toThrow(RangeError);
  });
});

describe('renderSheet and sheetText', () => {
  it('renders every sheet at 144 dpi the way a reader sees it (the rotated one landscape too)', () => {
    for (let p = 1; p <= 3; p++) {
      const r = renderSheet(plan, p);
      expect([r.width, r.height], `page ${p}`).toEqual([SHEET_W * 2, SHEET_H * 2]);
      expect(r.png.subarray(1, 4).toString()).toBe('PNG');
    }
    expect(renderSheet(made.bytes, 1, 72).width).toBe(SHEET_W);
  });

  it('text on the rotated sheet is where the rendered image shows it', async () => {
    const page = made.truth.rotatedPage;
    const text = sheetText(plan, page);
    const title = text.lines.find((l) => l.text === made.truth.rotatedTitle.text);
    expect(title).toBeDefined();
    const box = title?.box ?? { x: 0, y: 0, width: 0, height: 0 };
    expect(box.x + box.width / 2).toBeCloseTo(made.truth.rotatedTitle.x, -1);
    expect(box.y + box.height / 2).toBeCloseTo(made.truth.rotatedTitle.y, -1);
    // Ink in the image inside the word's box, none just above it.
    const { data, info } = await sharp(renderSheet(plan, page).png)
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const dark = (x0: number, y0: number, w: number, h: number) => {
      let n = 0;
      for (let y = Math.round(y0); y < y0 + h; y++)
        for (let x = Math.round(x0); x < x0 + w; x++) if (data[y * info.width + x] < 128) n++;
      return n;
    };
    expect(dark(box.x, box.y, box.width, box.height)).toBeGreaterThan(0.15 * box.width * box.height);
    expect(dark(box.x, box.y - box.height - 4, box.width, box.height)).toBe(0);
  });

  it('the scanned sheet has no text layer and one image', () => {
    const scan = sheetText(plan, made.truth.scannedPage);
    expect(scan.hasTextLayer).toBe(false);
    expect(scan.lines).toEqual([]);
    expect(scan.images).toBe(1);
    expect(planText(plan).map((t) => t.hasTextLayer)).toEqual([true, true, false]);
  });
});
