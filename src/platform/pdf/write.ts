// Making one of our PDFs: a pdfkit document on US Letter with the layout's margins, every page
// kept until the end (bufferPages) so the footer's "Page n of m" is written once every page exists,
// the fonts installed, and the bytes collected. A draw that throws ends the document and throws on.
// pdfkit is loaded with the first PDF, not when the server starts (docs/performance.md, "Server
// memory").
import { installFonts } from './fonts.ts';
import { FOOTER_Y, Layout, MARGIN, MUTED } from './layout.ts';

export interface PdfInfo {
  title: string;
  author: string;
  subject: string;
  /** Fixed by the caller (the epoch, or a signing time) so the same input renders the same bytes. */
  creationDate: Date;
  accent: string;
  /** The footer's left part on every page ("Workspace · Title"). */
  footer: string;
}

export async function writePdf(info: PdfInfo, draw: (l: Layout) => void | Promise<void>): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'LETTER',
    margins: MARGIN,
    bufferPages: true,
    info: { Title: info.title, Author: info.author, Subject: info.subject, CreationDate: info.creationDate },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  try {
    const l = new Layout(doc, await installFonts(doc), info.accent);
    await draw(l);
    footers(l, info.footer);
  } catch (err) {
    doc.end();
    await done.catch(() => {});
    throw err;
  }
  doc.end();
  return done;
}

function footers(l: Layout, label: string): void {
  const range = l.doc.bufferedPageRange();
  for (let i = 0; i < range.count; i++) {
    l.doc.switchToPage(range.start + i);
    // The footer sits in the bottom margin: lift the margin while writing it, or pdfkit would
    // take the text as overflowing and open a page.
    const margin = l.doc.page.margins.bottom;
    l.doc.page.margins.bottom = 0;
    const text = l.fonts.use('regular', 8, label);
    l.doc
      .fillColor(MUTED)
      .text(text, l.left, FOOTER_Y, { width: l.width - 110, height: 10, ellipsis: true, lineBreak: false });
    l.fonts.use('regular', 8, '');
    l.doc.text(`Page ${i + 1} of ${range.count}`, l.left + l.width - 100, FOOTER_Y, {
      width: 100,
      align: 'right',
      lineBreak: false,
    });
    l.doc.page.margins.bottom = margin;
  }
}
