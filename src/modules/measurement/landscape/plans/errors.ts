// The plan takeoff's refusals (document 3's error table: 400 Page n is not in this PDF; 422 Could
// not fetch url, PDF too large, Not a readable PDF), in one place so the request and the worker
// answer them alike.
import { ApiError, notFound, unprocessable } from '#platform/errors.ts';

/** Document 1, Limits: "Plan PDF for a landscape takeoff: 100 MB". */
export const PLAN_MAX_BYTES = 100 * 1024 * 1024;

export const couldNotFetchPlan = (reason: string) =>
  unprocessable('Could not fetch url', { code: 'url_fetch_failed', message: reason });

export const planTooLarge = () =>
  unprocessable('PDF too large', {
    code: 'pdf_too_large',
    message: `A plan PDF may be at most ${PLAN_MAX_BYTES / 1024 / 1024} MB`,
  });

export const notReadablePdf = (why: string) =>
  unprocessable('Not a readable PDF', { code: 'pdf_not_readable', message: why });

export const pageNotInPdf = (page: number, pageCount: number, field = 'pages') =>
  new ApiError(400, `Page ${page} is not in this PDF`, {
    code: 'page_not_in_pdf',
    message: `The PDF has ${pageCount} page${pageCount === 1 ? '' : 's'}`,
    field,
  });

export const sheetNotFound = (page: number) =>
  notFound('Sheet not found', {
    code: 'sheet_not_found',
    message: `Page ${page} is in the PDF but was not taken off (the takeoff's pages say which were)`,
  });

export const notAPlanTakeoff = () =>
  unprocessable('Not a plan takeoff', {
    code: 'not_a_plan_takeoff',
    message: 'This call reads a plan PDF: it is for blueprint takeoffs',
  });

export const plantNotFound = (field = 'plant_id') =>
  new ApiError(400, 'Unknown plant', {
    code: 'unknown_plant',
    message: "plant_id must be one of the takeoff's plants (its quantities.plants)",
    field,
  });
