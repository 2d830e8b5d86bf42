// The PDF's typeface, and the rule for text it cannot show.
//
// Why an embedded font: pdfkit's built-in Helvetica only encodes WinAnsi (Western European), and
// proposals carry what people typed: customer names in Polish, Greek, Cyrillic, Hebrew, Arabic,
// Vietnamese… Printing those as "?" on a document a customer signs is not acceptable, so the PDF
// embeds DejaVu Sans (the `dejavu-fonts-ttf` package: free licence, Latin with every diacritic,
// Greek, Cyrillic, Armenian, Georgian, Hebrew, Arabic, common symbols). pdfkit subsets it, so a
// PDF carries only the glyphs it uses (tens of kilobytes), and writes a ToUnicode map, so the
// text stays searchable and copyable.
//
// What DejaVu Sans lacks (Chinese, Japanese, Korean, Thai, Devanagari, emoji: fonts for those are
// tens of megabytes) is printed as U+FFFD "�", one per character: visibly a character we could not
// print, never a silently shortened name. Control characters are dropped (a tab becomes a space).
// pdfkit does no bidirectional reordering: a right-to-left name alone on its line reads correctly
// (fontkit shapes and orders the run); mixed with left-to-right text, its words keep typed order.
import fs from 'node:fs';
import { createRequire } from 'node:module';

export type Face = 'regular' | 'bold' | 'italic' | 'boldItalic';

const FILES: Record<Face, string> = {
  regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
  italic: 'dejavu-fonts-ttf/ttf/DejaVuSans-Oblique.ttf',
  boldItalic: 'dejavu-fonts-ttf/ttf/DejaVuSans-BoldOblique.ttf',
};

const REPLACEMENT = '\ufffd';
const INVISIBLE = /^[\p{Cf}\p{M}]$/u;

let files: Promise<Record<Face, Buffer>> | null = null;

/** The font files, read once per process. */
function fontFiles(): Promise<Record<Face, Buffer>> {
  if (files === null) {
    const resolve = createRequire(import.meta.url).resolve;
    files = Promise.all(
      (Object.keys(FILES) as Face[]).map(
        async (face) => [face, await fs.promises.readFile(resolve(FILES[face]))] as const,
      ),
    ).then((pairs) => Object.fromEntries(pairs) as Record<Face, Buffer>);
    files.catch(() => {
      files = null; // a failed read is retried by the next render
    });
  }
  return files;
}

/** The parts of pdfkit's current font object this file reads (fontkit's font under pdfkit's). */
interface CurrentFont {
  font?: { hasGlyphForCodePoint(cp: number): boolean };
}

/** Whether each face has a glyph for a code point: the same files in every document, so kept per process. */
const coverage: Record<Face, Map<number, boolean>> = {
  regular: new Map(),
  bold: new Map(),
  italic: new Map(),
  boldItalic: new Map(),
};

export interface Fonts {
  /** Selects `face` at `size` and returns `text` with what the face cannot show replaced. */
  use(face: Face, size: number, text: string): string;
}

/** Registers the faces on `doc` and returns the way to write text with them. */
export async function installFonts(doc: PDFKit.PDFDocument): Promise<Fonts> {
  const buffers = await fontFiles();
  for (const face of Object.keys(FILES) as Face[]) doc.registerFont(face, buffers[face]);
  const fontkitOf = (): CurrentFont['font'] =>
    // pdfkit exposes no glyph lookup; its current embedded font keeps the fontkit font it parsed.
    (doc as unknown as { _font?: CurrentFont })._font?.font;
  return {
    use(face, size, text) {
      doc.font(face).fontSize(size);
      const font = fontkitOf();
      const known = coverage[face];
      let out = '';
      for (const ch of text) {
        const cp = ch.codePointAt(0)!;
        if (ch === '\n') out += ch;
        else if (cp === 0x09) out += ' ';
        else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || (cp >= 0xd800 && cp <= 0xdfff)) continue;
        else {
          let has = known.get(cp);
          if (has === undefined) {
            has = font ? font.hasGlyphForCodePoint(cp) : true;
            known.set(cp, has);
          }
          // An invisible format character or a combining mark the face lacks is dropped (the
          // letter it belongs to still shows); any other missing character shows as U+FFFD.
          if (has) out += ch;
          else if (!INVISIBLE.test(ch)) out += REPLACEMENT;
        }
      }
      return out;
    },
  };
}
