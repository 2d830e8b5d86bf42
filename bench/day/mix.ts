// What "a busy day" is: the size of a typical workspace and what its people and systems do to the
// server in a busy hour, per workspace and minute. bench/day.ts seeds workspaces of this size and
// offers this traffic for each; docs/performance.md ("A busy day") quotes these numbers, so an
// operator whose workspaces are larger or busier can scale the sizing figure by the ratio.
import { sized } from '../mode.ts';

/** A workspace of typical size: a contractor with a few years of records. */
export interface WorkspaceSize {
  /** Customers, each with a site (inserted directly, as the API stores them). */
  customers: number;
  /** Jobs (inserted directly, bench/seed.ts). */
  jobs: number;
  /** Made through the API in the day's workspaces: estimates of three lines on their jobs… */
  estimates: number;
  /** …proposals of those made and sent to the customer (the pages customers open)… */
  proposals: number;
  /** …online invoices requested on those (request-payment: invoice pages customers open)… */
  onlineInvoices: number;
  /** …and check invoices billed from an estimate (POST /v1/invoices). */
  checkInvoices: number;
}

export const TYPICAL: WorkspaceSize = sized(
  { customers: 200, jobs: 1_000, estimates: 40, proposals: 20, onlineInvoices: 10, checkInvoices: 10 },
  { customers: 200, jobs: 1_000, estimates: 40, proposals: 20, onlineInvoices: 10, checkInvoices: 10 },
  { customers: 20, jobs: 100, estimates: 4, proposals: 3, onlineInvoices: 2, checkInvoices: 1 },
);

/**
 * The day's workspaces, each with its estimates, proposals and invoices made through the API.
 * Sizing steps add workspaces of the same size without those; their customers' page opens and
 * payments go to the day's workspaces' pages (workspace v to day workspace v mod WORKSPACES).
 */
export const WORKSPACES = sized(50, 50, 2);

/** Who makes the call: the report groups the kinds by it. */
export type Actor = 'sync' | 'integrator' | 'office' | 'customer' | 'field' | 'assistant';

/**
 * A flow is what one actor does at one moment: one call, or a few in a row (an integrator pushing a
 * new customer, site and job; a customer opening an invoice and paying it). Flows arrive at random
 * (a Poisson process) at `perMinute` per workspace, each for a workspace chosen at random.
 */
export interface FlowRate {
  flow: FlowName;
  actor: Actor;
  perMinute: number;
  what: string;
}

export type FlowName =
  | 'syncJobs'
  | 'syncEstimates'
  | 'syncInvoices'
  | 'exportIncremental'
  | 'exportFull'
  | 'pushCustomer'
  | 'updateJob'
  | 'readJob'
  | 'listJobs'
  | 'listCustomers'
  | 'search'
  | 'openProposal'
  | 'openInvoice'
  | 'pay'
  | 'uploadPhoto'
  | 'mcp';

/** A busy hour of one workspace: about 25 calls a minute in all (see docs/performance.md). */
export const MIX: readonly FlowRate[] = [
  {
    flow: 'syncJobs',
    actor: 'sync',
    perMinute: 2,
    what: 'GET /v1/jobs?updated_after=…&limit=100, paged until a short page',
  },
  { flow: 'syncEstimates', actor: 'sync', perMinute: 1, what: 'GET /v1/estimates?updated_after=…&limit=100, paged' },
  { flow: 'syncInvoices', actor: 'sync', perMinute: 1, what: 'GET /v1/invoices?updated_after=…&limit=200, paged' },
  {
    flow: 'exportIncremental',
    actor: 'sync',
    perMinute: 0.2,
    what: 'GET /v1/exports/{jobs,customers,invoices}.jsonl?updated_after=<last watermark>',
  },
  { flow: 'exportFull', actor: 'sync', perMinute: 0.05, what: 'GET /v1/exports/jobs.jsonl, every job' },
  {
    flow: 'pushCustomer',
    actor: 'integrator',
    perMinute: 1,
    what: 'POST client-accounts, locations, jobs; half also an estimate of 3 lines; 1 in 10 a job name taken (409)',
  },
  { flow: 'updateJob', actor: 'integrator', perMinute: 1, what: 'PATCH /v1/jobs/{id}: value and notes, or the stage' },
  { flow: 'readJob', actor: 'office', perMinute: 6, what: 'GET /v1/jobs/{id}' },
  { flow: 'listJobs', actor: 'office', perMinute: 2, what: 'GET /v1/jobs?status=…&limit=50 (sometimes page 2)' },
  { flow: 'listCustomers', actor: 'office', perMinute: 1, what: 'GET /v1/client-accounts?limit=50 (or q=)' },
  { flow: 'search', actor: 'office', perMinute: 2, what: 'GET /v1/search?q=…' },
  { flow: 'openProposal', actor: 'customer', perMinute: 1, what: 'GET /share/proposals/<token>' },
  { flow: 'openInvoice', actor: 'customer', perMinute: 0.5, what: 'GET /share/invoices/<token>' },
  {
    flow: 'pay',
    actor: 'customer',
    perMinute: 0.2,
    what: 'office POST request-payment; customer opens the invoice, the card form, pays 4242… (1 in 10 first declined, 402)',
  },
  { flow: 'uploadPhoto', actor: 'field', perMinute: 0.5, what: 'POST /v1/jobs/{id}/photos, a 2000×1500 JPEG' },
  {
    flow: 'mcp',
    actor: 'assistant',
    perMinute: 1,
    what: 'POST /v1/mcp tools/call: search_records, get_job, list_jobs, or create_job_note',
  },
];

/** How a kind of call counts: reads decide the sizing figure (see READ_P99_TARGET_MS). */
export type Group = 'read' | 'write' | 'export' | 'upload';

/**
 * Every kind of call the mix makes, as the report names it. Reads are what a person or a sync
 * client waits on to see something: API reads, sync pages, search, assistant reads and customer
 * pages (a page open counts the view, but the customer waits on it as on a read). Bulk exports (a
 * stream whose time grows with the data), writes and uploads are reported apart.
 */
export const KINDS = {
  syncJobs: { label: 'GET /v1/jobs?updated_after= (sync page)', group: 'read' },
  syncEstimates: { label: 'GET /v1/estimates?updated_after= (sync page)', group: 'read' },
  syncInvoices: { label: 'GET /v1/invoices?updated_after= (sync page)', group: 'read' },
  exportIncremental: { label: 'GET /v1/exports/{dataset}.jsonl?updated_after=', group: 'export' },
  exportFull: { label: 'GET /v1/exports/jobs.jsonl (all)', group: 'export' },
  createCustomer: { label: 'POST /v1/client-accounts', group: 'write' },
  createSite: { label: 'POST /v1/locations', group: 'write' },
  createJob: { label: 'POST /v1/jobs', group: 'write' },
  createEstimate: { label: 'POST /v1/estimates', group: 'write' },
  addLine: { label: 'POST /v1/estimates/{id}/line-items', group: 'write' },
  updateJob: { label: 'PATCH /v1/jobs/{id}', group: 'write' },
  readJob: { label: 'GET /v1/jobs/{id}', group: 'read' },
  listJobs: { label: 'GET /v1/jobs?status=', group: 'read' },
  listCustomers: { label: 'GET /v1/client-accounts', group: 'read' },
  search: { label: 'GET /v1/search?q=', group: 'read' },
  proposalPage: { label: 'GET /share/proposals/{token}', group: 'read' },
  invoicePage: { label: 'GET /share/invoices/{token}', group: 'read' },
  requestPayment: { label: 'POST /v1/estimates/{id}/request-payment', group: 'write' },
  payForm: { label: 'GET /share/invoices/{token}/pay', group: 'read' },
  payCard: { label: 'POST /share/invoices/{token}/pay', group: 'write' },
  uploadPhoto: { label: 'POST /v1/jobs/{id}/photos', group: 'upload' },
  mcpRead: { label: 'POST /v1/mcp tools/call (reads)', group: 'read' },
  mcpWrite: { label: 'POST /v1/mcp tools/call create_job_note', group: 'write' },
} as const satisfies Record<string, { label: string; group: Group }>;

export type Kind = keyof typeof KINDS;

/** The read p99 a workspace count must stay under. */
export const READ_P99_TARGET_MS = 100;
