// The estimating area's public entry: what other areas, the demo seed and the CLI may use. Everything
// else under src/modules/estimating/ is the area's own (test/platform/boundaries.test.ts holds the line).

export { applyCatalog, type CatalogDocumentInput, exportCatalog } from './catalog/document.ts';
export { findServices } from './catalog/repo.ts';
export { calculationOf, effectivePricing, linesInBid } from './estimates/calculation.ts';
export type { Places } from './estimates/drive-times.ts';
export {
  insertServiceCostLines,
  lineFieldsFromService,
  NEW_LINE_DEFAULTS,
  priceBookFor,
} from './estimates/from-catalog.ts';
export { issueEstimate, startChangeOrderEstimate } from './estimates/lifecycle.ts';
export { awardedLinesOf, findJobLine, type JobLine } from './estimates/job-lines.ts';
export { addLine, deleteLineRows } from './estimates/lines.ts';
export { type EstimateTree, findEstimate, loadTree, nextPosition } from './estimates/repo.ts';
export { convertsTo, type MeasuredUnit, quantityInUnit } from './estimates/quantity-units.ts';
export { assertEstimateRole } from './estimates/roles.ts';
export { createEstimate } from './estimates/service.ts';
export {
  inEstimateTransaction,
  type RevisionNote,
  type Trx,
  writeFoundEstimate,
  type WriteStep,
} from './estimates/write.ts';
export { depositCents, type PricedLine } from './proposals/priced.ts';
export { proposalOfEstimate } from './proposals/repo.ts';
export { sectionsOf } from './proposals/sections.ts';
export { sendProposal } from './proposals/send.ts';
export { assertPricingAccess, proposalFromEstimate } from './proposals/service.ts';
export { updateProposal } from './proposals/update.ts';
export { acceptProposal, pageDocumentHash, recordOpen as recordProposalOpen } from './proposals/visit.ts';
export { repullTakeoff, unlinkTakeoff } from './estimates/takeoff-quantities.ts';
