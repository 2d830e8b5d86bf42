// The customer pages (GUIDE "Customer pages"): server-rendered HTML a customer opens from a link,
// no API key. Each kind is one file here that registers its routes; app.ts registers this list
// outside /v1 (no key lookup, no API rate limit, no OpenAPI operation: pages are not API calls).
//
// Paths: /share/<kind>/<token>. A kind's file finds its live link by the token's hash, answers
// sendGone (410) for an expired or retired link and sendUnknownLink (404) otherwise.
import type { FastifyInstance } from 'fastify';
import type { Env } from '#platform/context.ts';
import { photoReportPage } from './photo-report.ts';
import { photoSelectionPage } from './photo-selection.ts';
import { assessmentReportPage } from './assessment-report.ts';
import { capitalPlanPage } from './capital-plan.ts';
import { portalPage } from './portal.ts';
import { reviewPage } from './review.ts';
import { proposalPage } from './proposal.ts';
import { invoicePage } from './invoice.ts';
import { changeOrderPage } from './change-order.ts';

export type PageModule = (app: FastifyInstance, env: Env) => void;

export const PAGE_MODULES: readonly PageModule[] = [
  photoReportPage,
  photoSelectionPage,
  assessmentReportPage,
  capitalPlanPage,
  portalPage,
  reviewPage,
  proposalPage,
  invoicePage,
  changeOrderPage,
];
