// Proposal documents built by hand for the PDF tests and bench/proposal-pdf.ts: a stored proposal
// row, priced lines and sections, passed through the real (pure) buildDocument.
import type { Proposal } from '#db/tables.ts';
import { defaultContent, type ProposalContent } from '#estimating/proposals/content.ts';
import { buildDocument, type DocumentPhoto, type ProposalDocument } from '#estimating/proposals/document.ts';
import type { PricedLine } from '#estimating/proposals/priced.ts';
import { defaultSections, type ProposalSections } from '#estimating/proposals/sections.ts';
import { UNSENT } from '#estimating/proposals/service.ts';

const SERVICES = [
  ['Sealcoat main lot', 'sq ft', 0.28],
  ['Crack fill, hot pour', 'lin ft', 1.6],
  ['Line striping, 4 in', 'lin ft', 0.45],
  ['Asphalt patch, 2 in', 'sq ft', 6.25],
  ['ADA stall repaint', 'each', 85],
  ['Mill and overlay', 'sq yd', 24.5],
] as const;

/** Line `n` (1-based): a realistic paving service with a description, quantity and price in cents. */
export function line(n: number, over: Partial<PricedLine> = {}): PricedLine {
  const [service, unit, unitPrice] = SERVICES[(n - 1) % SERVICES.length];
  const quantity = 40 + ((n * 37) % 900);
  const unitPriceCents = Math.round(unitPrice * 100);
  return {
    line_id: 1000 + n,
    area: n % 3 === 0 ? 'Back lot' : 'Front lot',
    name: `${service} ${n}`,
    description: `Work item ${n}: prepare the surface, apply to manufacturer spec, clean up the site.`,
    what_to_expect: null,
    quantity,
    unit,
    price_cents: quantity * unitPriceCents,
    taxable: n % 2 === 1,
    optional: false,
    group: null,
    ...over,
  };
}

export function proposalRow(over: Partial<Proposal> = {}): Proposal {
  return {
    id: 42,
    firm_id: 1,
    job_id: 7,
    estimate_id: 3,
    doc_number: 1017,
    status: 'draft',
    title: 'Parking lot maintenance 2026',
    client_name: 'Dana Whitfield',
    client_email: 'dana@riverside.test',
    client_company: 'Riverside Plaza',
    valid_until: '2026-12-31',
    is_customer_copy: 0,
    template_id: null,
    content: '{}',
    sections: '{}',
    priced: '{}',
    subtotal_cents: 0,
    tax_cents: 0,
    total_cents: 0,
    optional_total_cents: 0,
    priced_at: '2026-11-20T10:00:00.000000',
    token_salt: 'salt',
    token_hash: 'hash',
    ...UNSENT,
    created_by_user_id: null,
    created_at: '2026-11-20T10:00:00.000000',
    updated_at: '2026-11-20T10:00:00.000000',
    ...over,
  };
}

export interface DocumentSpec {
  lines: PricedLine[];
  /** Fraction; tax is charged on taxable lines, rounded to the cent. */
  taxRate?: number;
  proposal?: Partial<Proposal>;
  content?: Partial<ProposalContent>;
  sections?: (s: ProposalSections) => void;
  photos?: DocumentPhoto[];
  firm?: string;
  job?: { name: string; address: string | null };
}

/** The document of a proposal with `spec`'s lines, totals computed the way an estimate's are. */
export function documentOf(spec: DocumentSpec): ProposalDocument {
  const included = spec.lines.filter((l) => !l.optional);
  const subtotal = included.reduce((a, l) => a + l.price_cents, 0);
  const taxable = included.filter((l) => l.taxable).reduce((a, l) => a + l.price_cents, 0);
  const tax = Math.round(taxable * (spec.taxRate ?? 0));
  const optional = spec.lines.filter((l) => l.optional).reduce((a, l) => a + l.price_cents, 0);
  const sections = defaultSections();
  spec.sections?.(sections);
  const firm = spec.firm ?? 'Bench Paving Co.';
  const proposal = proposalRow({
    subtotal_cents: subtotal,
    tax_cents: tax,
    total_cents: subtotal + tax,
    optional_total_cents: optional,
    ...spec.proposal,
  });
  return buildDocument({
    proposal,
    content: { ...defaultContent(firm, proposal.client_name), ...spec.content },
    sections,
    priced: { lines: spec.lines, tax_rate: spec.taxRate ?? null },
    firm: { name: firm, logo: false },
    preparedBy: { name: 'Sam Ortega', email: 'sam@benchpaving.test', phone: '+1 555 0100' },
    job: spec.job ?? { name: 'Riverside Plaza lot', address: '100 River Rd, Springfield, IL' },
    photos: spec.photos ?? [],
  });
}
