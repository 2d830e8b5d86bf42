// The JSON columns of a proposal row, read back as their types.
import type { Proposal } from '#db/tables.ts';
import { CONTENT_FIELDS, type ProposalContent } from './content.ts';
import type { Priced } from './priced.ts';

export function contentOf(p: Pick<Proposal, 'content'>): ProposalContent {
  const stored = JSON.parse(p.content) as Partial<ProposalContent>;
  return Object.fromEntries(CONTENT_FIELDS.map((f) => [f, stored[f] ?? null])) as ProposalContent;
}

export function pricedOfRow(p: Pick<Proposal, 'priced'>): Priced {
  return JSON.parse(p.priced) as Priced;
}
