// The proposal document: exactly what the customer is shown, built once from the proposal and used
// three ways. The customer page (pages/proposal.ts) and the PDF (pdf.ts) both render it, and its
// canonical JSON is what an acceptance signs: the SHA-256 recorded with the signature is the hash
// of this document, so anyone holding the stored document can check the hash, and re-render what
// was signed. Building it is pure (no I/O): the caller hands in the proposal, the workspace, the
// job and the photos.
import type { Proposal } from '#db/tables.ts';
import { SHOWN_QUANTITY_DECIMALS, shownQuantity, shownUnitPrice } from '#engines/pricing/index.ts';
import { formatCents, formatUnitPrice } from '#platform/money.ts';
import { CONSENT_VERSION, consentText } from '#platform/signing/e-sign.ts';
import { cleanHtml, type ProposalContent } from './content.ts';
import { depositCents, type Priced, type PricedLine } from './priced.ts';
import { orderedSections, type CustomSection, type ProposalSections } from './sections.ts';

/**
 * 2: rows carry the unit price that multiplies out (`unit_price`, decimal text) and `lump_sum`;
 * 1 carried the estimate's rate rounded to the cent (`unit_price_cents`), kept for what was signed.
 */
export const DOCUMENT_VERSION = 2;

export interface DocumentPhoto {
  id: number;
  title: string | null;
  caption: string | null;
  /** YYYY-MM-DD. */
  taken_on: string | null;
}

export interface PricingRow {
  /** "3" with line numbers, "2.1" with item numbers (area.line), else null. */
  number: string | null;
  name: string;
  description: string | null;
  /** "1,200 sq ft", to at most 4 decimals; null when the quantity column is off or the row is a group. */
  quantity: string | null;
  /**
   * Dollars as decimal text with 2 to 4 decimals ("20.567"): the shown quantity × it, rounded to the
   * cent, is the row's price exactly (engines/pricing shownUnitPrice). null when the column is off
   * and for a lump sum.
   */
  unit_price: string | null;
  /** The unit price column reads "Lump sum": a group row, or a line no unit price multiplies out to. */
  lump_sum: boolean;
  /** Version 1 documents (signed before unit prices multiplied out) carry the estimate's rate in cents instead. */
  unit_price_cents?: number | null;
  /** null under lump-sum pricing. */
  price_cents: number | null;
}

export interface PricingGroup {
  /** A proposal_group shown as a heading (group_lines_separately), else null. */
  name: string | null;
  rows: PricingRow[];
}

export type DocumentSection =
  | { id: 'overview'; title: string; facts: { label: string; value: string }[] }
  | { id: 'text'; key: string; title: string; html: string | null; items: string[]; footer: string | null }
  | { id: 'service_info'; title: string; entries: { name: string; html: string }[] }
  | {
      id: 'pricing';
      title: string;
      columns: { quantity: boolean; unit_price: boolean; price: boolean };
      groups: PricingGroup[];
      optional: PricingRow[];
      totals: {
        subtotal_cents: number;
        tax_cents: number;
        total_cents: number;
        optional_total_cents: number;
        /** Item prices include their tax: subtotal and tax are not shown apart. */
        tax_included: boolean;
      };
      deposit: { percent: number; cents: number } | null;
      payment_terms: string | null;
    }
  | { id: 'photos'; title: string; layout: 'detail' | 'grid'; photos: DocumentPhoto[]; show: PhotoShow }
  | { id: 'acceptance'; title: string; consent_text: string; consent_version: string };

export interface PhotoShow {
  titles: boolean;
  captions: boolean;
  dates: boolean;
}

export interface ProposalDocument {
  version: number;
  proposal_id: number;
  doc_number: number | null;
  title: string;
  firm: { name: string; logo: boolean };
  prepared_by: { name: string; email: string | null; phone: string | null } | null;
  client: { name: string | null; email: string | null; company: string | null };
  job: { name: string; address: string | null };
  valid_until: string | null;
  accent_color: string;
  /** null when the cover page is off. */
  cover: { html: string | null } | null;
  sections: DocumentSection[];
}

export interface DocumentInputs {
  proposal: Proposal;
  content: ProposalContent;
  sections: ProposalSections;
  priced: Priced;
  firm: { name: string; logo: boolean };
  preparedBy: { name: string; email: string | null; phone: string | null } | null;
  job: { name: string; address: string | null };
  /** The photos chosen (or every photo marked for reports), in order. */
  photos: DocumentPhoto[];
}

// One formatter, made once (toLocaleString builds one per call); money's is platform/money.ts's.
// A shown quantity has at most 4 decimals and 10 whole digits, so the double holds it exactly enough.
const QUANTITY = new Intl.NumberFormat('en-US', { maximumFractionDigits: SHOWN_QUANTITY_DECIMALS });
const money = formatCents;

function quantityText(quantity: string, unit: string | null): string {
  const q = QUANTITY.format(Number(quantity));
  return unit ? `${q} ${unit}` : q;
}

/** What a row's unit price cell reads: the unit price, "Lump sum", or nothing (the page and the PDF). */
export function unitPriceText(row: PricingRow): string {
  if (row.unit_price !== null && row.unit_price !== undefined) return formatUnitPrice(row.unit_price);
  if (row.lump_sum) return 'Lump sum';
  return row.unit_price_cents === null || row.unit_price_cents === undefined ? '' : money(row.unit_price_cents);
}

/** Each taxable line's share of the tax, to the cent, summing exactly to `taxCents` (largest remainder). */
function taxShares(lines: PricedLine[], taxCents: number): Map<number, number> {
  const taxable = lines.filter((l) => !l.optional && l.taxable && l.price_cents > 0);
  const base = taxable.reduce((a, l) => a + l.price_cents, 0);
  const shares = new Map<number, number>();
  if (base === 0 || taxCents === 0) return shares;
  let given = 0;
  const rest = taxable.map((l) => {
    const exact = (taxCents * l.price_cents) / base;
    const floor = Math.floor(exact);
    shares.set(l.line_id, floor);
    given += floor;
    return { id: l.line_id, frac: exact - floor };
  });
  rest.sort((a, b) => b.frac - a.frac || a.id - b.id);
  for (let i = 0; i < taxCents - given; i++) shares.set(rest[i].id, (shares.get(rest[i].id) ?? 0) + 1);
  return shares;
}

function pricingSection(inputs: DocumentInputs): Extract<DocumentSection, { id: 'pricing' }> {
  const { proposal: p, sections: s, priced } = inputs;
  const d = s.display;
  const taxIncluded = d.tax_in_item_prices && p.tax_cents > 0;
  const shares = taxIncluded ? taxShares(priced.lines, p.tax_cents) : new Map<number, number>();
  const lump = d.lump_sum_pricing;
  // Unit prices are derived from the prices shown (tax shares included), so they multiply out
  // whether or not tax is in the item prices.
  const unitColumn = d.show_unit_price_column && !lump;
  const areaIndex = new Map<string | null, number>();
  const perArea = new Map<string | null, number>();
  let lineNo = 0;
  const row = (l: PricedLine): PricingRow => {
    lineNo++;
    if (!areaIndex.has(l.area)) areaIndex.set(l.area, areaIndex.size + 1);
    const inArea = (perArea.get(l.area) ?? 0) + 1;
    perArea.set(l.area, inArea);
    const price = l.price_cents + (shares.get(l.line_id) ?? 0);
    const quantity = shownQuantity(l.quantity);
    const unit = unitColumn ? shownUnitPrice(quantity, price) : null;
    return {
      number: d.show_line_numbers ? String(lineNo) : d.show_item_numbers ? `${areaIndex.get(l.area)}.${inArea}` : null,
      name: l.name,
      description: l.description,
      quantity: d.show_quantity_column ? quantityText(quantity, l.unit) : null,
      unit_price: unit,
      lump_sum: unitColumn && unit === null,
      price_cents: lump ? null : price,
    };
  };
  const groups: PricingGroup[] = [];
  const byGroup = new Map<string, PricedLine[]>();
  const order: (PricedLine | string)[] = [];
  for (const l of priced.lines.filter((x) => !x.optional)) {
    if (l.group === null) order.push(l);
    else {
      if (!byGroup.has(l.group)) {
        byGroup.set(l.group, []);
        order.push(l.group);
      }
      byGroup.get(l.group)!.push(l);
    }
  }
  let loose: PricingRow[] = [];
  const flush = () => {
    if (loose.length > 0) groups.push({ name: null, rows: loose });
    loose = [];
  };
  for (const entry of order) {
    if (typeof entry !== 'string') {
      loose.push(row(entry));
      continue;
    }
    const members = byGroup.get(entry)!;
    if (d.group_lines_separately) {
      flush();
      groups.push({ name: entry, rows: members.map(row) });
    } else {
      // Lines sharing a group print as one (document 3, proposal_group).
      const rows = members.map(row);
      loose.push({
        number: rows[0].number,
        name: entry,
        description: members.map((m) => m.name).join(', '),
        quantity: null,
        // Several lines have no single unit: the group's price is a lump sum.
        unit_price: null,
        lump_sum: unitColumn,
        price_cents: lump ? null : rows.reduce((a, r) => a + (r.price_cents ?? 0), 0),
      });
    }
  }
  flush();
  const optional = priced.lines.filter((l) => l.optional).map((l) => ({ ...row(l), number: null }));
  const deposit = depositCents(p.total_cents, s.deposit_percent);
  return {
    id: 'pricing',
    title: 'Pricing',
    columns: {
      quantity: d.show_quantity_column,
      unit_price: unitColumn,
      price: !lump,
    },
    groups,
    optional,
    totals: {
      subtotal_cents: p.subtotal_cents,
      tax_cents: p.tax_cents,
      total_cents: p.total_cents,
      optional_total_cents: p.optional_total_cents,
      tax_included: taxIncluded,
    },
    deposit: deposit === null || s.deposit_percent === null ? null : { percent: s.deposit_percent, cents: deposit },
    payment_terms: paymentTerms(s, deposit),
  };
}

function paymentTerms(s: ProposalSections, deposit: number | null): string | null {
  const parts: string[] = [];
  if (deposit !== null && s.deposit_percent !== null)
    parts.push(`A deposit of ${s.deposit_percent}% (${money(deposit)}) is due on acceptance.`);
  if (s.payment_due_days !== null)
    parts.push(
      s.payment_due_days === 0
        ? 'The balance is due on receipt of the invoice.'
        : `The balance is due within ${s.payment_due_days} days of the invoice.`,
    );
  return parts.length > 0 ? parts.join(' ') : null;
}

function customSection(c: CustomSection): DocumentSection {
  return {
    id: 'text',
    key: `custom:${c.id}`,
    title: c.title,
    html: c.body === null ? null : paragraphs(c.body),
    items: c.items.filter((i) => i.on).map((i) => i.text),
    footer: null,
  };
}

/** Plain text as cleaned HTML paragraphs (escaped by the cleaner). */
function paragraphs(text: string): string | null {
  const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const ps = text
    .split(/\n\s*\n/)
    .map((t) => t.trim())
    .filter((t) => t !== '');
  return ps.length === 0 ? null : ps.map((t) => `<p>${esc(t).replace(/\n/g, '<br>')}</p>`).join('');
}

export function buildDocument(inputs: DocumentInputs): ProposalDocument {
  const { proposal: p, content, sections: s } = inputs;
  const out: DocumentSection[] = [];
  for (const key of orderedSections(s)) {
    if (key.startsWith('custom:')) {
      const c = s.custom_sections.find((x) => `custom:${x.id}` === key);
      if (c?.enabled) out.push(customSection(c));
      continue;
    }
    if (!s.pages[key as keyof typeof s.pages]) continue;
    switch (key) {
      case 'overview': {
        const facts = [
          { label: 'Prepared for', value: [p.client_name, p.client_company].filter(Boolean).join(', ') },
          { label: 'Project', value: inputs.job.name },
          { label: 'Site', value: inputs.job.address ?? '' },
          { label: 'Proposal', value: p.doc_number === null ? '' : `#${p.doc_number}` },
          { label: 'Total', value: money(p.total_cents) },
          { label: 'Valid until', value: p.valid_until ?? '' },
        ].filter((f) => f.value !== '');
        out.push({ id: 'overview', title: 'Overview', facts });
        break;
      }
      case 'about':
        out.push({
          id: 'text',
          key,
          title: s.about_us.title,
          html: cleanHtml(content.intro_html),
          items: [],
          footer: null,
        });
        break;
      case 'scope': {
        const intro = s.scope.intro ? paragraphs(s.scope.intro) : null;
        const body = [intro, cleanHtml(content.scope_html)].filter(Boolean).join('');
        out.push({ id: 'text', key, title: s.scope.title, html: body || null, items: [], footer: null });
        break;
      }
      case 'service_info': {
        const entries = inputs.priced.lines
          .filter((l) => l.what_to_expect)
          .map((l) => ({ name: l.name, html: cleanHtml(l.what_to_expect) ?? '' }))
          .filter((e) => e.html !== '');
        if (entries.length > 0) out.push({ id: 'service_info', title: 'What to expect', entries });
        break;
      }
      case 'pricing':
        out.push(pricingSection(inputs));
        break;
      case 'photos':
        if (s.show_photos && inputs.photos.length > 0)
          out.push({
            id: 'photos',
            title: 'Photos',
            layout: s.photo_layout,
            photos: inputs.photos,
            show: {
              titles: s.display.show_photo_titles,
              captions: s.display.show_photo_captions,
              dates: s.display.show_photo_dates,
            },
          });
        break;
      case 'authorization':
        out.push({
          id: 'text',
          key,
          title: 'Authorization',
          html: cleanHtml(content.closing_html),
          items: [],
          footer: null,
        });
        break;
      case 'terms':
        out.push({
          id: 'text',
          key,
          title: s.terms.title,
          html: cleanHtml(content.terms_html),
          items: s.terms.items.filter((i) => i.on).map((i) => i.text),
          footer: s.terms.footer,
        });
        break;
      case 'acceptance':
        out.push({
          id: 'acceptance',
          title: 'Acceptance',
          consent_text: consentText('proposal'),
          consent_version: CONSENT_VERSION,
        });
        break;
    }
  }
  return {
    version: DOCUMENT_VERSION,
    proposal_id: p.id,
    doc_number: p.doc_number,
    title: p.title,
    firm: inputs.firm,
    prepared_by: s.display.show_preparer_card ? inputs.preparedBy : null,
    client: { name: p.client_name, email: p.client_email, company: p.client_company },
    job: inputs.job,
    valid_until: p.valid_until,
    accent_color: s.accent_color,
    cover: s.pages.cover ? { html: cleanHtml(content.cover_html) } : null,
    sections: out,
  };
}

export { money as formatMoney };
