// Reading a PDF back as a reader sees it (pdfjs-dist): each page's text as lines (text items grouped
// by baseline, joined left to right), its text items with their baselines, and how many images it
// paints. For tests of the PDFs the server makes (proposals).
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface ReadPage {
  /** Text lines, top to bottom; items on one baseline joined left to right. */
  lines: string[];
  /** Every text item with its baseline, in points from the page's bottom edge. */
  items: { str: string; y: number }[];
  images: number;
}

export async function readPdf(pdf: Buffer): Promise<{ pages: ReadPage[]; text: string; flat: string }> {
  const doc = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false }).promise;
  const pages: ReadPage[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    const items = content.items
      .filter((i) => 'str' in i && i.str !== '')
      .map((i) => {
        const t = i as { str: string; transform: number[]; width: number };
        return { str: t.str, x: t.transform[4], y: t.transform[5], width: t.width };
      });
    const byLine = new Map<number, { str: string; x: number; width: number }[]>();
    for (const i of items) {
      const key = [...byLine.keys()].find((y) => Math.abs(y - i.y) < 1) ?? i.y;
      byLine.set(key, [...(byLine.get(key) ?? []), i]);
    }
    const lines = [...byLine.entries()]
      .sort((a, b) => b[0] - a[0])
      .map(([, parts]) => {
        // Pieces of one run of text touch; a gap between them is a space or another column.
        let out = '';
        let end = Number.NEGATIVE_INFINITY;
        for (const p of parts.sort((a, b) => a.x - b.x)) {
          out += (p.x - end > 1.5 ? ' ' : '') + p.str;
          end = p.x + p.width;
        }
        return out.replace(/\s+/g, ' ').trim();
      });
    const ops = await page.getOperatorList();
    const images = ops.fnArray.filter((f) => f === OPS.paintImageXObject || f === OPS.paintInlineImageXObject).length;
    pages.push({ lines, items: items.map(({ str, y }) => ({ str, y })), images });
  }
  await doc.destroy();
  const text = pages.flatMap((p) => p.lines).join('\n');
  /** The text with line breaks as spaces: wrapped text reads as one. */
  return { pages, text, flat: text.replace(/\s+/g, ' ') };
}
