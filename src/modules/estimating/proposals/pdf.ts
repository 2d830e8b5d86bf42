// The proposal as a PDF (GET /v1/proposals/{id}/pdf, and the executed copy kept at acceptance):
// the same ProposalDocument the customer page shows (document.ts), section by section, laid out
// on US Letter pages by platform/pdf/layout.ts. Photos move whole to the next page, and the footer's
// "Page n of m" is written once every page exists (bufferPages).
//
// The output is a function of its input: the creation date is the signing time (or the epoch for
// an unsigned copy, whose document carries no date), so the same document renders the same bytes.
import {
  formatMoney,
  type DocumentPhoto,
  type DocumentSection,
  type PricingRow,
  type ProposalDocument,
  unitPriceText,
} from './document.ts';
import type { Face } from '#platform/pdf/fonts.ts';
import { htmlBlocks } from '#platform/pdf/html-blocks.ts';
import {
  CELL_PAD,
  INK,
  type Layout,
  LINE_GAP,
  MUTED,
  PAGE,
  type Align,
  type Cell,
  type Part,
  type Row,
} from '#platform/pdf/layout.ts';
import { writePdf } from '#platform/pdf/write.ts';
import { DEFAULT_ACCENT } from './sections.ts';

export interface SignatureBlock {
  signer_name: string;
  signer_email: string;
  /** ISO, Z. */
  signed_at: string;
  document_sha256: string;
  consent_version: string;
  image_png: Buffer | null;
}

export interface PdfInput {
  document: ProposalDocument;
  /** Photo id -> JPEG or PNG bytes ready to embed (pdf-photos.ts). */
  photos: Map<number, Buffer>;
  signature: SignatureBlock | null;
  /** The workspace's logo (PNG or JPEG) when the document shows it (document.firm.logo). */
  logo?: Buffer | null;
}

/** "2026-11-21T06:20:00Z" as "2026-11-21 06:20:00 UTC" (the stored text when it is not a time). */
function utcTime(iso: string): string {
  const t = new Date(iso);
  return Number.isNaN(t.getTime()) ? iso : `${t.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

// ---- sections ----

/** The logo at the current line, at most `maxW` × `maxH`; answers the height drawn (0 without one). */
function logoAt(l: Layout, logo: Buffer | null | undefined, maxW: number, maxH: number): number {
  const img = opened(l, logo ?? undefined);
  if (img === null) return 0;
  const scale = Math.min(maxW / img.width, maxH / img.height, 1);
  l.doc.image(img.bytes, l.left, l.y, { width: img.width * scale, height: img.height * scale });
  return img.height * scale;
}

function cover(l: Layout, doc: ProposalDocument, html: string | null, logo: Buffer | null | undefined): void {
  l.doc.save().rect(0, 0, PAGE.width, 16).fill(l.accent).restore();
  l.y = 80;
  if (doc.firm.logo) l.y += logoAt(l, logo, 200, 60);
  l.y = Math.max(l.y + 10, 150);
  l.flow({ text: doc.firm.name, face: 'bold', size: 13, color: MUTED });
  l.y += 8;
  l.flow({ text: doc.title, face: 'bold', size: 26, color: INK });
  if (doc.doc_number !== null) {
    l.y += 4;
    l.flow({ text: `Proposal #${doc.doc_number}`, face: 'regular', size: 12, color: MUTED });
  }
  l.y += 14;
  l.rule(l.accent, 1.5);
  l.y += 16;
  const client = [doc.client.name, doc.client.company].filter((v): v is string => !!v);
  const facts: [string, string[]][] = [
    ['Prepared for', [...client, ...(doc.client.email ? [doc.client.email] : [])]],
    ['Project', [doc.job.name, ...(doc.job.address ? [doc.job.address] : [])]],
    ['Valid until', doc.valid_until ? [doc.valid_until] : []],
    [
      'Prepared by',
      doc.prepared_by
        ? [doc.prepared_by.name, doc.prepared_by.email ?? '', doc.prepared_by.phone ?? ''].filter((v) => v !== '')
        : [],
    ],
  ];
  for (const [label, lines] of facts) {
    if (lines.length === 0) continue;
    l.need(30);
    l.flow({ text: label.toUpperCase(), face: 'bold', size: 8, color: MUTED });
    l.y += 2;
    lines.forEach((line, i) => {
      l.flow({ text: line, face: i === 0 ? 'bold' : 'regular', size: i === 0 ? 12 : 10, color: INK });
    });
    l.y += 10;
  }
  const blocks = htmlBlocks(html);
  if (blocks.length > 0) {
    l.y += 8;
    l.blocks(blocks, 11);
  }
  l.newPage();
}

function titleBlock(l: Layout, doc: ProposalDocument, logo: Buffer | null | undefined): void {
  if (doc.firm.logo) {
    const h = logoAt(l, logo, 160, 40);
    if (h > 0) l.y += h + 8;
  }
  l.flow({ text: doc.title, face: 'bold', size: 20, color: INK });
  l.y += 2;
  const sub = [doc.firm.name, doc.doc_number === null ? null : `Proposal #${doc.doc_number}`]
    .filter(Boolean)
    .join(' · ');
  l.flow({ text: sub, face: 'regular', size: 10, color: MUTED });
  l.y += 8;
  l.rule(l.accent, 1.5);
  l.y += 6;
}

function overview(l: Layout, s: Extract<DocumentSection, { id: 'overview' }>): void {
  l.facts(s.facts);
}

function textSection(l: Layout, s: Extract<DocumentSection, { id: 'text' }>): void {
  l.blocks(htmlBlocks(s.html));
  if (s.items.length > 0) {
    l.y += 2;
    l.bullets(s.items);
  }
  if (s.footer) {
    l.y += 6;
    l.need(16);
    l.flow({ text: s.footer, face: 'italic', size: 9, color: MUTED });
  }
}

function serviceInfo(l: Layout, s: Extract<DocumentSection, { id: 'service_info' }>): void {
  for (const e of s.entries) {
    l.gap(6);
    l.need(44);
    l.flow({ text: e.name, face: 'bold', size: 11, color: INK });
    l.y += 3;
    l.blocks(htmlBlocks(e.html));
  }
}

function pricing(l: Layout, s: Extract<DocumentSection, { id: 'pricing' }>): void {
  const cell = (text: string, align: Align, face: Face = 'regular', size = 9.5, color = INK): Cell => ({
    parts: [{ text, face, size, color }],
    align,
  });
  const money = (cents: number | null) => (cents === null ? '' : formatMoney(cents));
  const tableOf = (groups: { name: string | null; rows: PricingRow[] }[]) => {
    const numbered = groups.some((g) => g.rows.some((r) => r.number !== null));
    const fixed: { title: string; width: number; align: Align; of: (r: PricingRow) => Cell }[] = [];
    if (s.columns.quantity)
      fixed.push({ title: 'Quantity', width: 84, align: 'right', of: (r) => cell(r.quantity ?? '', 'right') });
    if (s.columns.unit_price)
      fixed.push({
        title: 'Unit price',
        width: 80,
        align: 'right',
        of: (r) => cell(unitPriceText(r), 'right'),
      });
    if (s.columns.price)
      fixed.push({ title: 'Price', width: 86, align: 'right', of: (r) => cell(money(r.price_cents), 'right') });
    const numberW = numbered ? 36 : 0;
    const itemW = l.width - numberW - fixed.reduce((a, c) => a + c.width, 0);
    const columns = [
      ...(numbered ? [{ width: numberW, align: 'left' as Align }] : []),
      { width: itemW, align: 'left' as Align },
      ...fixed.map((c) => ({ width: c.width, align: c.align })),
    ];
    const headings = [...(numbered ? ['#'] : []), 'Item', ...fixed.map((c) => c.title)];
    const rows: Row[] = [];
    for (const g of groups) {
      if (g.name !== null) rows.push({ band: true, cells: [cell(g.name, 'left', 'bold', 10)] });
      for (const r of g.rows) {
        const item: Cell = {
          parts: [
            { text: r.name, face: 'bold', size: 9.5, color: INK },
            ...(r.description ? [{ text: r.description, face: 'regular' as Face, size: 8.5, color: MUTED }] : []),
          ],
          align: 'left',
        };
        rows.push({
          band: false,
          cells: [...(numbered ? [cell(r.number ?? '', 'left')] : []), item, ...fixed.map((c) => c.of(r))],
        });
      }
    }
    l.table(columns, headings, rows);
  };

  // Lines outside any group that follow a group get their own table (header repeated), so they
  // never read as part of the group above them.
  const tables: (typeof s.groups)[] = [];
  s.groups.forEach((g, i) => {
    if (i === 0 || (g.name === null && s.groups[i - 1].name !== null)) tables.push([g]);
    else tables[tables.length - 1].push(g);
  });
  tables.forEach((groups, i) => {
    if (i > 0) l.y += 10;
    tableOf(groups);
  });

  // Totals, right-aligned under the table.
  const t = s.totals;
  const lines: { label: string; value: string; strong?: boolean }[] = [];
  if (t.tax_included) lines.push({ label: 'Total (tax included)', value: formatMoney(t.total_cents), strong: true });
  else
    lines.push(
      { label: 'Subtotal', value: formatMoney(t.subtotal_cents) },
      { label: 'Tax', value: formatMoney(t.tax_cents) },
      { label: 'Total', value: formatMoney(t.total_cents), strong: true },
    );
  if (s.deposit)
    lines.push({ label: `Deposit due on acceptance (${s.deposit.percent}%)`, value: formatMoney(s.deposit.cents) });
  const boxW = 280;
  const x = l.left + l.width - boxW;
  l.y += 8;
  l.need(lines.length * 17 + 6);
  for (const line of lines) {
    const y = l.y;
    const face: Face = line.strong ? 'bold' : 'regular';
    const size = line.strong ? 11 : 10;
    if (line.strong) {
      l.doc
        .moveTo(x, y - 3)
        .lineTo(x + boxW, y - 3)
        .lineWidth(1)
        .strokeColor(l.accent)
        .stroke();
    }
    const h = l.place({ text: line.label, face, size, color: INK }, x, y, boxW - 100);
    l.place({ text: line.value, face, size, color: INK }, x + boxW - 100, y, 100 - CELL_PAD, 'right');
    l.y = y + Math.max(h, size + LINE_GAP) + 4;
  }

  if (s.optional.length > 0) {
    l.gap(14);
    l.need(70);
    l.flow({ text: 'Optional items (not included in the total)', face: 'bold', size: 12, color: INK });
    l.y += 6;
    tableOf([{ name: null, rows: s.optional }]);
    if (s.columns.price) {
      l.y += 6;
      l.need(16);
      const y = l.y;
      l.place({ text: 'Optional items total', face: 'regular', size: 10, color: MUTED }, x, y, boxW - 100);
      l.place(
        { text: formatMoney(t.optional_total_cents), face: 'regular', size: 10, color: MUTED },
        x + boxW - 100,
        y,
        100 - CELL_PAD,
        'right',
      );
      l.y = y + 16;
    }
  }

  if (s.payment_terms) {
    l.gap(14);
    l.need(40);
    l.flow({ text: 'Payment terms', face: 'bold', size: 11, color: INK });
    l.y += 3;
    l.flow({ text: s.payment_terms, face: 'regular', size: 10, color: INK });
  }
}

/** An image's pixel size, read from its header; null when the bytes are not a JPEG or PNG pdfkit reads. */
function opened(l: Layout, bytes: Buffer | undefined): { bytes: Buffer; width: number; height: number } | null {
  if (!bytes) return null;
  try {
    // openImage is pdfkit's own (parses the header only) but missing from its type definitions.
    const image = (l.doc as unknown as { openImage(src: Buffer): { width: number; height: number } }).openImage(bytes);
    return image.width > 0 && image.height > 0 ? { bytes, width: image.width, height: image.height } : null;
  } catch {
    return null;
  }
}

function captionParts(p: DocumentPhoto, show: { titles: boolean; captions: boolean; dates: boolean }): Part[] {
  const parts: Part[] = [];
  if (show.titles && p.title) parts.push({ text: p.title, face: 'bold', size: 10, color: INK });
  if (show.captions && p.caption) parts.push({ text: p.caption, face: 'regular', size: 9, color: INK });
  if (show.dates && p.taken_on) parts.push({ text: p.taken_on, face: 'regular', size: 8.5, color: MUTED });
  return parts;
}

function photoBox(l: Layout, img: ReturnType<typeof opened>, x: number, y: number, boxW: number, boxH: number): number {
  if (img === null) {
    // A photo whose object could not be read: the reader sees that one is missing.
    const h = Math.min(boxH, boxW * (2 / 3));
    l.doc.save().rect(x, y, boxW, h).fill('#eef0f2').restore();
    l.place({ text: 'Photo unavailable', face: 'italic', size: 9, color: MUTED }, x, y + h / 2 - 6, boxW, 'center');
    return h;
  }
  const scale = Math.min(boxW / img.width, boxH / img.height);
  const w = img.width * scale;
  const h = img.height * scale;
  l.doc.image(img.bytes, x + (boxW - w) / 2, y, { width: w, height: h });
  return h;
}

function drawnHeight(img: ReturnType<typeof opened>, boxW: number, boxH: number): number {
  if (img === null) return Math.min(boxH, boxW * (2 / 3));
  return img.height * Math.min(boxW / img.width, boxH / img.height);
}

function photos(l: Layout, s: Extract<DocumentSection, { id: 'photos' }>, files: Map<number, Buffer>): void {
  const captionsHeight = (parts: Part[], w: number) => parts.reduce((a, p) => a + l.measure(p, w) + 2, 0);
  const detail = (p: DocumentPhoto) => {
    const img = opened(l, files.get(p.id));
    const parts = captionParts(p, s.show);
    const boxH = 380;
    const h = drawnHeight(img, l.width, boxH);
    l.gap(10);
    l.need(h + 8 + captionsHeight(parts, l.width));
    const y = l.y;
    photoBox(l, img, l.left, y, l.width, boxH);
    l.y = y + h + 6;
    for (const part of parts) {
      l.flow(part);
      l.y += 2;
    }
  };
  if (s.layout === 'detail') {
    for (const p of s.photos) detail(p);
    return;
  }
  const gutter = 18;
  const cellW = (l.width - gutter) / 2;
  const boxH = 200;
  for (let i = 0; i < s.photos.length; i += 2) {
    const pair = s.photos.slice(i, i + 2).map((p) => {
      const img = opened(l, files.get(p.id));
      const parts = captionParts(p, s.show);
      return { img, parts, h: drawnHeight(img, cellW, boxH), captionH: captionsHeight(parts, cellW) };
    });
    const rowH = Math.max(...pair.map((c) => c.h)) + 6 + Math.max(...pair.map((c) => c.captionH));
    if (rowH > l.body) {
      // Captions too long to sit under a photo on one page: each photo on its own, flowing.
      for (const p of s.photos.slice(i, i + 2)) detail(p);
      continue;
    }
    l.gap(10);
    l.need(rowH);
    const y = l.y;
    pair.forEach((c, k) => {
      const x = l.left + k * (cellW + gutter);
      photoBox(l, c.img, x, y, cellW, boxH);
      let cy = y + c.h + 6;
      for (const part of c.parts) cy += l.place(part, x, cy, cellW) + 2;
    });
    l.y = y + rowH;
  }
}

const consentPart = (s: Extract<DocumentSection, { id: 'acceptance' }>): Part => ({
  text: s.consent_text,
  face: 'regular',
  size: 8.5,
  color: MUTED,
});

/** The acceptance section's height: its title keeps all of it on one page, consent with signature. */
function acceptanceHeight(
  l: Layout,
  s: Extract<DocumentSection, { id: 'acceptance' }>,
  signature: SignatureBlock | null,
): number {
  const img = signature ? opened(l, signature.image_png ?? undefined) : null;
  const drawn = img ? img.height * Math.min(220 / img.width, 70 / img.height) + 10 : 0;
  return l.measure(consentPart(s), l.width) + 14 + (signature === null ? 3 * 46 : drawn + 70);
}

function acceptance(
  l: Layout,
  s: Extract<DocumentSection, { id: 'acceptance' }>,
  signature: SignatureBlock | null,
): void {
  const img = signature ? opened(l, signature.image_png ?? undefined) : null;
  const scale = img ? Math.min(220 / img.width, 70 / img.height) : 0;
  l.flow(consentPart(s));
  l.y += 14;
  if (signature === null) {
    for (const label of ['Signature', 'Name', 'Date']) {
      l.y += 30;
      l.doc
        .moveTo(l.left, l.y)
        .lineTo(l.left + 300, l.y)
        .lineWidth(0.75)
        .strokeColor(INK)
        .stroke();
      l.y += 3;
      l.flow({ text: label, face: 'regular', size: 8.5, color: MUTED });
    }
    return;
  }
  if (img) {
    const y = l.y;
    l.doc.image(img.bytes, l.left, y, { width: img.width * scale, height: img.height * scale });
    l.y = y + img.height * scale + 4;
    l.doc
      .moveTo(l.left, l.y)
      .lineTo(l.left + 240, l.y)
      .lineWidth(0.75)
      .strokeColor(INK)
      .stroke();
    l.y += 6;
  }
  l.flow({
    text: `Signed by ${signature.signer_name} <${signature.signer_email}>`,
    face: 'bold',
    size: 10,
    color: INK,
  });
  l.y += 2;
  const facts = [
    `Signed at ${utcTime(signature.signed_at)}`,
    `Document SHA-256: ${signature.document_sha256}`,
    `Consent version: ${signature.consent_version}`,
  ];
  for (const f of facts) {
    l.flow({ text: f, face: 'regular', size: 9, color: INK });
    l.y += 2;
  }
}

function accentOf(color: string): string {
  return /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(color) ? color : DEFAULT_ACCENT;
}

export async function renderProposalPdf(input: PdfInput): Promise<Buffer> {
  const { document: d, signature } = input;
  const signedAt = signature ? new Date(signature.signed_at) : null;
  const info = {
    title: d.title,
    author: d.firm.name,
    subject: d.doc_number === null ? 'Proposal' : `Proposal #${d.doc_number}`,
    creationDate: signedAt && !Number.isNaN(signedAt.getTime()) ? signedAt : new Date(0),
    accent: accentOf(d.accent_color),
    footer: [d.firm.name, d.title].join(' · '),
  };
  return writePdf(info, (l) => {
    if (d.cover) cover(l, d, d.cover.html, input.logo);
    else titleBlock(l, d, input.logo);
    for (const s of d.sections) {
      l.sectionTitle(s.title, s.id === 'acceptance' ? acceptanceHeight(l, s, signature) : 60);
      switch (s.id) {
        case 'overview':
          overview(l, s);
          break;
        case 'text':
          textSection(l, s);
          break;
        case 'service_info':
          serviceInfo(l, s);
          break;
        case 'pricing':
          pricing(l, s);
          break;
        case 'photos':
          photos(l, s, input.photos);
          break;
        case 'acceptance':
          acceptance(l, s, signature);
          break;
      }
    }
  });
}
