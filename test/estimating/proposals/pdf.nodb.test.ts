// The proposal PDF (renderProposalPdf) read back with pdfjs-dist: the text of every page as lines
// (text items grouped by baseline), the images each page paints, and the positions of the text,
// so the tests check what a reader of the PDF sees rather than how it was drawn. And
// pdfPhotoBytes against the real local storage adapter with images drawn by sharp.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#platform/clock.ts';
import { LocalStorage } from '#platform/storage/local.ts';
import {
  formatMoney,
  type DocumentSection,
  type ProposalDocument,
  unitPriceText,
} from '#estimating/proposals/document.ts';
import type { PhotoFile } from '#estimating/proposals/load.ts';
import { renderProposalPdf, type SignatureBlock } from '#estimating/proposals/pdf.ts';
import { htmlBlocks } from '#platform/pdf/html-blocks.ts';
import { pdfPhotoBytes } from '#estimating/proposals/pdf-photos.ts';
import { documentOf, line } from './fixture.ts';
import { readPdf as read } from '#test/helpers/pdf-text.ts';
import { decimalOf, multipliesOut } from '#test/helpers/by-hand.ts';

const render = (
  document: ProposalDocument,
  photos = new Map<number, Buffer>(),
  signature: SignatureBlock | null = null,
) => renderProposalPdf({ document, photos, signature });

const pricingOf = (d: ProposalDocument) =>
  d.sections.find((s) => s.id === 'pricing') as Extract<DocumentSection, { id: 'pricing' }>;
const count = (text: string, needle: RegExp) => (text.match(new RegExp(needle.source, 'g')) ?? []).length;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A line name alone ("Sealcoat main lot 1", not "… lot 13"). */
const nameRe = (name: string) => new RegExp(`${escapeRegExp(name)}(?![0-9])`);

async function jpeg(width: number, height: number, seed: number): Promise<Buffer> {
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: 40 + seed * 20, g: 90, b: 140 },
      noise: { type: 'gaussian', mean: 120, sigma: 40 },
    },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
}

describe('proposal PDF: content', () => {
  it('lists every line with its quantity and price, then the totals, the deposit and the payment terms', async () => {
    const lines = Array.from({ length: 12 }, (_, i) => line(i + 1));
    const d = documentOf({
      lines,
      taxRate: 0.0825,
      sections: (s) => {
        s.deposit_percent = 25;
      },
    });
    const pdf = await render(d);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const { text, flat } = await read(pdf);
    const p = pricingOf(d);
    for (const row of p.groups.flatMap((g) => g.rows)) {
      // The row's name, quantity, unit price and price are on one line of the table.
      const rowLine = text.split('\n').find((l) => nameRe(row.name).test(l));
      expect(rowLine, row.name).toBeDefined();
      expect(rowLine).toContain(row.quantity!);
      expect(rowLine).toContain(unitPriceText(row));
      expect(rowLine).toContain(formatMoney(row.price_cents!));
      expect(flat).toContain(row.description!);
    }
    const t = p.totals;
    expect(text).toContain(`Subtotal ${formatMoney(t.subtotal_cents)}`);
    expect(text).toContain(`Tax ${formatMoney(t.tax_cents)}`);
    expect(text).toContain(`Total ${formatMoney(t.total_cents)}`);
    expect(p.deposit).not.toBeNull();
    expect(text).toContain(`Deposit due on acceptance (25%) ${formatMoney(p.deposit!.cents)}`);
    expect(text).toContain('Payment terms');
    expect(flat).toContain(p.payment_terms!);
    // The cover and the sections in order.
    const order = [
      'Parking lot maintenance 2026',
      'Overview',
      'About us',
      'Scope of work',
      'Pricing',
      'Authorization',
      'Terms and conditions',
      'Acceptance',
    ];
    const at = order.map((h) => text.indexOf(h));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('a 100-line proposal spans several pages, numbered "Page n of m", with every line once and the header on each page', async () => {
    const lines = Array.from({ length: 100 }, (_, i) => line(i + 1));
    const d = documentOf({ lines, taxRate: 0.07 });
    const { pages, text } = await read(await render(d));
    expect(pages.length).toBeGreaterThanOrEqual(5);
    pages.forEach((page, i) => {
      expect(page.lines.filter((l) => l.endsWith(`Page ${i + 1} of ${pages.length}`))).toHaveLength(1);
    });
    for (const l of lines) {
      expect(count(text, nameRe(l.name)), l.name).toBe(1);
      expect(text).toContain(formatMoney(l.price_cents));
    }
    // Each page the table runs on starts it with the header row.
    const tablePages = pages.filter((p) => lines.some((l) => p.lines.some((x) => nameRe(l.name).test(x))));
    expect(tablePages.length).toBeGreaterThanOrEqual(4);
    for (const p of tablePages) expect(p.lines.filter((x) => x === 'Item Quantity Unit price Price')).toHaveLength(1);
    // Nothing but the footer sits below the bottom margin (66 pt from the bottom edge).
    for (const p of pages) {
      const below = p.items.filter((i) => i.y < 64).map((i) => i.str.trim());
      for (const s of below)
        expect(s === '' || /^Page \d+ of \d+$/.test(s) || s.startsWith('Bench Paving Co.')).toBe(true);
    }
    expect(text).toContain(`Total ${formatMoney(pricingOf(d).totals.total_cents)}`);
  });

  it('a version 1 document (signed before unit prices were derived) prints the unit prices it was signed with', async () => {
    // As stored with a signature then: rows with unit_price_cents, no unit_price or lump_sum.
    const v1 = JSON.parse(JSON.stringify(documentOf({ lines: [line(1), line(2)] }))) as ProposalDocument;
    v1.version = 1;
    for (const row of pricingOf(v1).groups.flatMap((g) => g.rows) as unknown as Record<string, unknown>[]) {
      delete row.unit_price;
      delete row.lump_sum;
      row.unit_price_cents = 2857;
    }
    const { text } = await read(await render(v1));
    expect(text.split('\n').filter((l) => l.includes('$28.57'))).toHaveLength(2);
    expect(text).not.toContain('Lump sum');
  });

  it('renders the same bytes for the same document', async () => {
    const d = documentOf({ lines: [line(1), line(2)] });
    const signature: SignatureBlock = {
      signer_name: 'Dana Whitfield',
      signer_email: 'dana@riverside.test',
      signed_at: '2026-11-21T06:20:00Z',
      document_sha256: 'a'.repeat(64),
      consent_version: 'esign-2026-11',
      image_png: null,
    };
    expect((await render(d, new Map(), signature)).equals(await render(d, new Map(), signature))).toBe(true);
    expect((await render(d)).equals(await render(d))).toBe(true);
  });

  it('shows optional items apart, under their own heading, outside the total', async () => {
    const lines = [
      line(1),
      line(2),
      line(3, { optional: true, name: 'Optional speed bump' }),
      line(4, { optional: true, name: 'Optional bollards' }),
    ];
    const d = documentOf({ lines });
    const { text } = await read(await render(d));
    const heading = text.indexOf('Optional items (not included in the total)');
    expect(heading).toBeGreaterThan(0);
    for (const name of ['Optional speed bump', 'Optional bollards']) {
      expect(count(text, nameRe(name))).toBe(1);
      expect(text.indexOf(name)).toBeGreaterThan(heading);
    }
    for (const name of [line(1).name, line(2).name]) expect(text.indexOf(name)).toBeLessThan(heading);
    const included = line(1).price_cents + line(2).price_cents;
    expect(text).toContain(`Total ${formatMoney(included)}`);
    expect(text).toContain(`Optional items total ${formatMoney(line(3).price_cents + line(4).price_cents)}`);
  });

  it('under lump-sum pricing shows no line prices, only the total', async () => {
    const lines = [
      line(1, { price_cents: 123_457 }),
      line(2, { price_cents: 98_761 }),
      line(3, { price_cents: 55_503 }),
    ];
    const d = documentOf({
      lines,
      sections: (s) => {
        s.display.lump_sum_pricing = true;
      },
    });
    const { text } = await read(await render(d));
    for (const l of lines) {
      expect(text).toMatch(nameRe(l.name));
      expect(text).not.toContain(formatMoney(l.price_cents));
    }
    expect(text).not.toContain('Unit price');
    expect(text).not.toContain('Lump sum');
    expect(text).toContain(`Total ${formatMoney(123_457 + 98_761 + 55_503)}`);
  });

  it('with tax in item prices shows item prices that add up to the total, and unit prices that multiply out to them', async () => {
    const lines = Array.from({ length: 7 }, (_, i) => line(i + 1));
    const d = documentOf({
      lines,
      taxRate: 0.0725,
      sections: (s) => {
        s.display.tax_in_item_prices = true;
      },
    });
    const total = pricingOf(d).totals.total_cents;
    const { text } = await read(await render(d));
    expect(text).toContain(`Total (tax included) ${formatMoney(total)}`);
    expect(text).not.toContain('Subtotal');
    let sum = 0;
    for (const l of lines) {
      const rowLine = text.split('\n').find((x) => nameRe(l.name).test(x))!;
      const [, quantity, unit, price] = /([\d,.]+) [a-z ]+ (\$[\d,.]+|Lump sum) (\$[\d,]+\.\d{2})$/.exec(rowLine) ?? [];
      expect(price, rowLine).toBeDefined();
      // The unit price is derived from the price with its tax share, so it still multiplies out.
      if (unit !== 'Lump sum') expect(multipliesOut(quantity, unit, price), rowLine).toBe(true);
      sum += Number(decimalOf(price).units);
    }
    expect(sum).toBe(total);
  });

  it('groups lines under their group headings when asked', async () => {
    const lines = [
      line(1, { group: 'Front entrance' }),
      line(2, { group: 'Front entrance' }),
      line(3),
      line(4, { group: 'Loading dock' }),
    ];
    const d = documentOf({
      lines,
      sections: (s) => {
        s.display.group_lines_separately = true;
      },
    });
    const { text } = await read(await render(d));
    const order = ['Front entrance', line(1).name, line(2).name, line(3).name, 'Loading dock', line(4).name].map((s) =>
      text.indexOf(s),
    );
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('renders the cleaned HTML: headings, paragraphs, lists with markers, links with their address, tables', async () => {
    const html =
      '<h2>Site preparation</h2><p>We <strong>power-wash</strong> the lot &amp; <em>blow it dry</em>.</p>' +
      '<ul><li>Cones at every entrance</li><li>Signs<ol><li>First notice</li><li>Second notice</li></ol></li></ul>' +
      '<blockquote>Quoted remark</blockquote><p>See <a href="https://example.test/specs">our specs</a> or <a href="mailto:sam@bench.test">sam@bench.test</a>.</p>' +
      '<table><tr><th>Coat</th><th>Rate</th></tr><tr><td>First</td><td>0.15 gal/sq yd</td></tr></table><hr><p>After the rule.</p>';
    const d = documentOf({ lines: [line(1)], content: { scope_html: html } });
    const { text } = await read(await render(d));
    const lines = text.split('\n');
    for (const s of [
      'Site preparation',
      'We power-wash the lot & blow it dry.',
      '• Cones at every entrance',
      '• Signs',
      '1. First notice',
      '2. Second notice',
      'Quoted remark',
      'See our specs (https://example.test/specs) or sam@bench.test.',
      'Coat Rate',
      'First 0.15 gal/sq yd',
      'After the rule.',
    ])
      expect(lines, s).toContain(s);
    expect(text).not.toContain('(sam@bench.test)'); // a link whose text is its address is not repeated
  });

  it('shows the terms items as bullets and the footer', async () => {
    const d = documentOf({
      lines: [line(1)],
      sections: (s) => {
        s.terms.items = [
          { text: 'Weather may move the date.', on: true },
          { text: 'A switched-off term.', on: false },
        ];
        s.terms.footer = 'Questions? Call the office.';
      },
    });
    const { text } = await read(await render(d));
    expect(text).toContain('• Weather may move the date.');
    expect(text).not.toContain('A switched-off term.');
    expect(text).toContain('Questions? Call the office.');
  });

  it('without a cover starts with the title block and the first section on page one', async () => {
    const d = documentOf({
      lines: [line(1)],
      sections: (s) => {
        s.pages.cover = false;
      },
    });
    const { pages } = await read(await render(d));
    expect(pages[0].lines[0]).toBe('Parking lot maintenance 2026');
    expect(pages[0].lines).toContain('Overview');
  });
});

describe('proposal PDF: acceptance', () => {
  const d = documentOf({ lines: [line(1), line(2)] });

  it('unsigned: the consent text and empty Signature, Name and Date lines', async () => {
    const { text } = await read(await render(d));
    expect(text).toContain('I agree to sign this proposal electronically.');
    const after = text.slice(text.lastIndexOf('Acceptance'));
    for (const label of ['Signature', 'Name', 'Date']) expect(after.split('\n')).toContain(label);
    expect(text).not.toContain('Signed by');
  });

  it('signed: the drawn signature, signer, UTC time, document hash and consent version', async () => {
    const png = await sharp({
      create: { width: 400, height: 120, channels: 4, background: { r: 0, g: 0, b: 80, alpha: 0.6 } },
    })
      .png()
      .toBuffer();
    const signature: SignatureBlock = {
      signer_name: 'Dana Whitfield',
      signer_email: 'dana@riverside.test',
      signed_at: '2026-11-21T06:20:00Z',
      document_sha256: '9f2c1e0b7a4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c6b5a49',
      consent_version: 'esign-2026-11',
      image_png: png,
    };
    const { pages, text } = await read(await render(d, new Map(), signature));
    expect(text).toContain('Signed by Dana Whitfield <dana@riverside.test>');
    expect(text).toContain('Signed at 2026-11-21 06:20:00 UTC');
    expect(text).toContain(`Document SHA-256: ${signature.document_sha256}`);
    expect(text).toContain('Consent version: esign-2026-11');
    expect(pages.reduce((a, p) => a + p.images, 0)).toBe(1);
    // A typed-only signature (no drawing) has no image.
    const typed = await read(await render(d, new Map(), { ...signature, image_png: null }));
    expect(typed.text).toContain('Signed by Dana Whitfield');
    expect(typed.pages.reduce((a, p) => a + p.images, 0)).toBe(0);
  });
});

describe('proposal PDF: photos', () => {
  const photoList = [1, 2, 3, 4, 5].map((id) => ({
    id,
    title: `Photo title ${id}`,
    caption: `Caption ${id}`,
    taken_on: `2026-10-0${id}`,
  }));

  it('embeds every photo in the grid layout, with titles and captions as the switches say', async () => {
    const files = new Map(await Promise.all(photoList.map(async (p) => [p.id, await jpeg(600, 400, p.id)] as const)));
    const d = documentOf({ lines: [line(1)], photos: photoList });
    expect(d.sections.find((s) => s.id === 'photos')).toMatchObject({ layout: 'grid' });
    const { pages, text } = await read(await render(d, files));
    expect(pages.reduce((a, p) => a + p.images, 0)).toBe(5);
    for (const p of photoList) {
      expect(text).toContain(p.title);
      expect(text).toContain(p.caption);
      expect(text).not.toContain(p.taken_on); // dates are off by default
    }
  });

  it('detail layout: one photo a row, dates shown when on; a photo without bytes shows as unavailable', async () => {
    const files = new Map(
      await Promise.all(photoList.slice(0, 4).map(async (p) => [p.id, await jpeg(400, 600, p.id)] as const)),
    );
    files.set(4, Buffer.from('not an image'));
    const d = documentOf({
      lines: [line(1)],
      photos: photoList,
      sections: (s) => {
        s.photo_layout = 'detail';
        s.display.show_photo_dates = true;
        s.display.show_photo_captions = false;
      },
    });
    const { pages, text } = await read(await render(d, files));
    expect(pages.reduce((a, p) => a + p.images, 0)).toBe(3);
    expect(count(text, /Photo unavailable/)).toBe(2); // id 4 (bad bytes) and id 5 (none)
    for (const p of photoList) {
      expect(text).toContain(p.title);
      expect(text).toContain(p.taken_on);
      expect(text).not.toContain(p.caption);
    }
    // Portrait photos 380 pt tall: at most two on a page.
    for (const p of pages) expect(p.images).toBeLessThanOrEqual(2);
  });
});

describe('proposal PDF: hostile text', () => {
  it('prints HTML-looking text literally, breaks very long words, keeps non-Latin scripts and marks what the font lacks', async () => {
    const words = Array.from({ length: 1600 }, (_, i) => `w${String(i).padStart(4, '0')}`).join(' ');
    const lines = [
      line(1, { name: '<script>alert(1)</script>&amp;<b>' }),
      line(2, { name: `Long${'x'.repeat(400)}`, description: 'y'.repeat(3000) }),
      line(3, { name: 'Дмитрий Иванов — Ελληνικά — Łódź Œuvre', description: words }),
      line(4, { name: 'Cleaning for 王小明 and محمد 🚧', description: 'tab\there, bell\u0007 and zero\u200bwidth' }),
    ];
    const d = documentOf({
      lines,
      proposal: {
        client_name: 'Nguyễn Thị Minh Khai',
        client_company: 'שלום בע"מ',
        title: '<img src=x onerror=alert(1)>',
      },
      content: { cover_html: '<p>Prepared for Nguyễn Thị Minh Khai</p>' },
      job: { name: `Job ${'z'.repeat(300)}`, address: null },
    });
    const pdf = await render(d);
    const { pages, text, flat } = await read(pdf);
    expect(text.split('\n').some((l) => l.startsWith('<script>alert(1)</script>&amp;<b> '))).toBe(true);
    expect(text).toContain('<img src=x onerror=alert(1)>');
    expect(flat).toContain('Дмитрий Иванов — Ελληνικά — Łódź Œuvre');
    expect(text).toContain('Nguyễn Thị Minh Khai');
    // Characters DejaVu Sans has no glyph for are shown as U+FFFD, one each; controls are dropped.
    expect(flat).toContain('Cleaning for \ufffd\ufffd\ufffd and');
    expect(flat).toContain('tab here, bell and zero');
    // A 400-letter word is broken over lines, not lost: every letter is read back.
    expect(count(text.replace(/\s/g, ''), /x/)).toBeGreaterThanOrEqual(400);
    // A description longer than a page is split between pages, every word kept once, in order.
    const found = flat.match(/w[0-9]{4}/g) ?? [];
    expect(found).toEqual(Array.from({ length: 1600 }, (_, i) => `w${String(i).padStart(4, '0')}`));
    for (const p of pages) {
      for (const i of p.items.filter((x) => x.y < 64))
        expect(/^(Page \d+ of \d+|Bench Paving Co\..*|\s*)$/.test(i.str), i.str).toBe(true);
    }
  });

  it('an accent colour that is not a hex colour falls back to the default', async () => {
    const d = documentOf({
      lines: [line(1)],
      sections: (s) => {
        s.accent_color = 'red; evil';
      },
    });
    const { text } = await read(await render(d));
    expect(text).toContain(line(1).name);
  });
});

describe('htmlBlocks', () => {
  it('gives headings, paragraphs, numbered and nested items, quotes, rules and tables', () => {
    const blocks = htmlBlocks(
      '<h3>Title</h3><p>a <b>b</b><br>c</p><ol><li>one</li><li>two<ul><li>inner</li></ul></li></ol><blockquote><p>q</p></blockquote><hr>' +
        '<table><thead><tr><th>H</th></tr></thead><tbody><tr><td>x &lt; y</td></tr></tbody></table>',
    );
    expect(blocks).toEqual([
      { kind: 'heading', level: 3, runs: [{ text: 'Title', bold: false, italic: false, underline: false }] },
      {
        kind: 'paragraph',
        indent: 0,
        runs: [
          { text: 'a ', bold: false, italic: false, underline: false },
          { text: 'b', bold: true, italic: false, underline: false },
          { text: '\nc', bold: false, italic: false, underline: false },
        ],
      },
      { kind: 'item', marker: '1.', depth: 1, runs: [{ text: 'one', bold: false, italic: false, underline: false }] },
      { kind: 'item', marker: '2.', depth: 1, runs: [{ text: 'two', bold: false, italic: false, underline: false }] },
      { kind: 'item', marker: '•', depth: 2, runs: [{ text: 'inner', bold: false, italic: false, underline: false }] },
      { kind: 'paragraph', indent: 1, runs: [{ text: 'q', bold: false, italic: false, underline: false }] },
      { kind: 'rule' },
      {
        kind: 'table',
        rows: [
          { header: true, cells: ['H'] },
          { header: false, cells: ['x < y'] },
        ],
      },
    ]);
  });
});

describe('pdfPhotoBytes', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-pdf-photos-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('reads each photo from storage as a JPEG at most 1200 px long, leaving out missing and undecodable ones', async () => {
    const storage = new LocalStorage({ dataDir, clock: new ManualClock() });
    const big = await jpeg(3000, 2000, 1);
    const png = await sharp({
      create: { width: 800, height: 600, channels: 4, background: { r: 200, g: 0, b: 0, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const tall = await jpeg(900, 2400, 2);
    await storage.put('firms/1/photos/big.jpg', big, { contentType: 'image/jpeg' });
    await storage.put('firms/1/photos/small.png', png, { contentType: 'image/png' });
    await storage.put('firms/1/photos/tall.jpg', tall, { contentType: 'image/jpeg' });
    await storage.put('firms/1/photos/broken.jpg', Buffer.from('definitely not a jpeg'), { contentType: 'image/jpeg' });
    const file = (id: number, key: string): [number, PhotoFile] => [
      id,
      { id, storage_key: key, thumbnail_key: null, content_type: 'image/jpeg' },
    ];
    const photos = new Map([
      file(5, 'firms/1/photos/tall.jpg'),
      file(1, 'firms/1/photos/big.jpg'),
      file(2, 'firms/1/photos/missing.jpg'),
      file(3, 'firms/1/photos/broken.jpg'),
      file(4, 'firms/1/photos/small.png'),
    ]);
    const out = await pdfPhotoBytes(storage, photos);
    expect([...out.keys()]).toEqual([5, 1, 4]);
    const meta = async (id: number) => sharp(out.get(id)!).metadata();
    expect(await meta(1)).toMatchObject({ format: 'jpeg', width: 1200, height: 800 });
    expect(await meta(5)).toMatchObject({ format: 'jpeg', width: 450, height: 1200 });
    // Smaller than the limit: kept at its size, transparency flattened onto white.
    expect(await meta(4)).toMatchObject({ format: 'jpeg', width: 800, height: 600, hasAlpha: false });
    const { data } = await sharp(out.get(4)!).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(200);
    expect(data[1]).toBeGreaterThan(100); // half-transparent red over white is pink, not red
    expect(out.get(1)!.length).toBeLessThan(big.length);
    // The bytes embed: a proposal with them paints three images.
    const d = documentOf({
      lines: [line(1)],
      photos: [1, 2, 3, 4, 5].map((id) => ({ id, title: null, caption: null, taken_on: null })),
    });
    const { pages } = await read(await render(d, out));
    expect(pages.reduce((a, p) => a + p.images, 0)).toBe(3);
  });

  it('an empty selection reads nothing', async () => {
    const storage = new LocalStorage({ dataDir, clock: new ManualClock() });
    expect((await pdfPhotoBytes(storage, new Map())).size).toBe(0);
  });
});
