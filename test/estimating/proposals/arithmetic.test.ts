// Issue 24, defect 2: every "quantity × unit price = price" a customer reads on a proposal adds up
// by hand. The estimate spreads job-level money (mobilization) over its lines, so a line's shown
// price is not its quantity × the estimate's unit price (the demo printed 2,400 SY × $20.57 =
// $49,360.87; 20.57 × 2,400 = 49,368.00). On the customer page and in the PDF, each row shows a
// unit price whose product with the shown quantity rounds to the shown price, or reads as a lump
// sum; with tax in the item prices, with groups printed as one row or line by line, and for
// optional items. Products are checked in BigInt from the text the customer reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipliesOut } from '#test/helpers/by-hand.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { pageVisitor } from '#test/helpers/page-visitor.ts';
import { readPdf } from '#test/helpers/pdf-text.ts';
import { ok } from '#test/helpers/records.ts';

let t: TestApp;
let w: Workspace;

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ name: 'Blacktop Brothers' });
});
afterAll(() => t?.close());

const { getPage } = pageVisitor(() => t, 'Mozilla/5.0 (proposal arithmetic test)');

interface ShownRow {
  where: string;
  item: string;
  quantity: string;
  unitPrice: string;
  price: string;
}

/** The pricing rows of the customer page: item, quantity (number and unit), unit price and price cells. */
function pageRows(html: string): ShownRow[] {
  const rows: ShownRow[] = [];
  for (const table of html.match(/<table class="pricing[^"]*">[\s\S]*?<\/table>/g) ?? [])
    for (const tr of table.match(/<tr>[\s\S]*?<\/tr>/g) ?? []) {
      const cell = (label: string) =>
        new RegExp(`data-label="${label}">([^<]*)<`).exec(tr)?.[1].replace(/&nbsp;/g, ' ') ?? null;
      const price = cell('Price');
      if (price === null) continue;
      rows.push({
        where: 'page',
        item: /<td class="item">([^<]*)/.exec(tr)?.[1] ?? '',
        quantity: (cell('Quantity') ?? '').split(' ')[0],
        unitPrice: cell('Unit price') ?? '',
        price,
      });
    }
  return rows;
}

/** The PDF's table rows that print a quantity, a unit price (or "Lump sum") and a price on one line. */
function pdfRows(lines: string[]): ShownRow[] {
  const row = /^(.*?) (-?[\d,]+(?:\.\d+)?) [A-Z]{2,3} (-?\$[\d,]+\.\d{2,4}|Lump sum) (-?\$[\d,]+\.\d{2})$/;
  return lines.flatMap((l) => {
    const m = row.exec(l);
    return m ? [{ where: 'pdf', item: m[1], quantity: m[2], unitPrice: m[3], price: m[4] }] : [];
  });
}

/** Every row that shows a unit price multiplies out; the rest say they are lump sums. */
function expectAddsUp(rows: ShownRow[]): { units: number; lumpSums: number } {
  let units = 0;
  let lumpSums = 0;
  for (const r of rows) {
    if (r.unitPrice.startsWith('$') || r.unitPrice.startsWith('-$')) {
      expect(multipliesOut(r.quantity, r.unitPrice, r.price), `${r.where}: ${JSON.stringify(r)}`).toBe(true);
      units++;
    } else lumpSums++;
  }
  return { units, lumpSums };
}

/**
 * A proposal whose estimate spreads $1,234.56 of mobilization over its lines: 2,400 SY of mill and
 * overlay, 900 LF of crack sealing, 2.5 tons of patch, 0.333 h of hand work, two striping lines in
 * one proposal_group and an optional sealcoat; 7.25% tax.
 */
let serial = 0;
async function proposal() {
  const name = `Northgate Plaza ${++serial}`;
  const job = (await ok(w.api.post('/v1/jobs', { name, contact_email: 'pm@northgate.test' }))).data;
  const estimate = (await ok(w.api.post('/v1/estimates', { job_id: job.id }))).data;
  await ok(w.api.patch(`/v1/estimates/${estimate.id}`, { tax_rate: 0.0725, job_costs: { mobilization: 1234.56 } }));
  const lines = [
    { name: 'Mill and overlay', unit: 'SY', quantity: 2400, unit_cost: 15.82 },
    { name: 'Crack sealing', unit: 'LF', quantity: 900, unit_cost: 1.99 },
    { name: 'Asphalt patch', unit: 'TON', quantity: 2.5, unit_cost: 95 },
    { name: 'Hand work', unit: 'HR', quantity: 0.333, unit_cost: 65 },
    { name: 'Stall striping', unit: 'EA', quantity: 64, unit_cost: 4, proposal_group: 'Striping' },
    { name: 'ADA stencil', unit: 'EA', quantity: 2, unit_cost: 45, proposal_group: 'Striping' },
    { name: 'Sealcoat', unit: 'SY', quantity: 1200, unit_cost: 1.1, is_optional: true },
  ];
  for (const line of lines) await ok(w.api.post(`/v1/estimates/${estimate.id}/line-items`, line));
  const p = (await ok(w.api.post(`/v1/estimates/${estimate.id}/proposal`))).data;
  return { id: p.id as number, path: new URL(p.share_url!).pathname };
}

async function shown(p: { id: number; path: string }) {
  const page = await getPage(p.path);
  expect(page.status).toBe(200);
  const pdf = await t.app.inject({ method: 'GET', url: `/v1/proposals/${p.id}/pdf`, headers: { 'x-api-key': w.key } });
  expect(pdf.statusCode).toBe(200);
  return { page: pageRows(page.text), pdf: pdfRows((await readPdf(pdf.rawPayload)).pages.flatMap((pg) => pg.lines)) };
}

describe('proposal figures add up by hand', () => {
  it('every unit price on the page and in the PDF multiplies out to its price; the others are lump sums', async () => {
    const p = await proposal();
    const { page, pdf } = await shown(p);
    // Five rows (the striping pair prints as one group row) and the optional sealcoat.
    expect(page.map((r) => r.item)).toEqual([
      'Mill and overlay',
      'Crack sealing',
      'Asphalt patch',
      'Hand work',
      'Striping',
      'Sealcoat',
    ]);
    const onPage = expectAddsUp(page);
    expect(onPage.units).toBeGreaterThan(0);
    // The group row has no single unit: it is a lump sum, as is any line no unit price reaches.
    expect(page.find((r) => r.item === 'Striping')?.unitPrice).toBe('Lump sum');
    const inPdf = expectAddsUp(pdf);
    expect(pdf.map((r) => r.item)).toEqual(page.filter((r) => r.quantity !== '').map((r) => r.item));
    expect(inPdf.units).toBe(onPage.units);
  });

  it('with tax in the item prices, each unit price multiplies out to the price with its tax share', async () => {
    const p = await proposal();
    await ok(w.api.patch(`/v1/proposals/${p.id}`, { display: { tax_in_item_prices: true } }));
    const { page, pdf } = await shown(p);
    expect(page).toHaveLength(6);
    expect(expectAddsUp(page).units).toBeGreaterThan(0);
    expectAddsUp(pdf);
    expect(pdf).toHaveLength(5);
  });

  it('with group lines printed one by one, each line of the group adds up too', async () => {
    const p = await proposal();
    await ok(w.api.patch(`/v1/proposals/${p.id}`, { display: { group_lines_separately: true } }));
    const { page, pdf } = await shown(p);
    expect(page.map((r) => r.item)).toContain('Stall striping');
    expect(page.map((r) => r.item)).toContain('ADA stencil');
    expectAddsUp(page);
    expectAddsUp(pdf);
    expect(pdf).toHaveLength(7);
  });
});
