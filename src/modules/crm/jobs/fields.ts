// Turns a job create/update body into column values: truncation of over-long text, job types in
// the workspace's spelling, money to cents, stage keys checked against the pipeline.
import type { Job, JobStage } from '#db/tables.ts';
import { badRequest } from '#platform/errors.ts';
import { emailField, phoneField } from '#platform/email-phone.ts';
import { dollarsToCents } from '#platform/money.ts';
import { nameKey, truncate } from '#platform/text.ts';
import type { JobInput } from './schemas.ts';

/** Maximum lengths of document 2; longer text is cut, not refused. */
export const MAX_LENGTH = {
  name: 200,
  contact_name: 200,
  contact_email: 120,
  bill_to_name: 200,
  bill_to_email: 255,
  source: 100,
  // Not in the spec: the company names (or creates) the job's customer, and the address a site;
  // a record made through the job keeps its own limits (customer name 200, site address 500).
  company: 200,
  address: 500,
} as const;

const PASS_THROUGH = [
  'description',
  'notes',
  'probability',
  'start_date',
  'end_date',
  'next_follow_up',
  'priority',
  'external_ref',
  'assigned_to_user_id',
] as const;

function blankToNull(v: string | null | undefined): string | null | undefined {
  if (typeof v !== 'string') return v;
  return v.trim() === '' ? null : v;
}

/** Workspace spelling of each job type (matched in any case); unknown values are a 400. */
export function normalizeJobTypes(value: string | string[] | null, allowed: string[]): string | null {
  if (value === null) return null;
  const parts = (Array.isArray(value) ? value : value.split(',')).map((t) => t.trim()).filter(Boolean);
  if (parts.length === 0) return null;
  const byKey = new Map(allowed.map((t) => [t.toLowerCase(), t]));
  const unknown = parts.filter((p) => !byKey.has(p.toLowerCase()));
  if (unknown.length > 0) {
    throw badRequest(`Unknown job type${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`, {
      code: 'unknown_job_type',
      field: 'job_type',
      values: unknown,
      allowed,
    });
  }
  return [...new Set(parts.map((p) => byKey.get(p.toLowerCase())!))].join(', ');
}

/** A job's dates as they will stand: an end before the start is a 400 (YYYY-MM-DD compares as text). */
export function assertDateOrder(start: string | null | undefined, end: string | null | undefined): void {
  if (start && end && end < start) {
    throw badRequest('end_date cannot be before start_date', {
      code: 'invalid_request',
      field: 'end_date',
      message: `The job would end (${end}) before it starts (${start})`,
    });
  }
}

export function stageFor(stages: JobStage[], key: string): JobStage {
  const stage = stages.find((s) => s.key === key);
  if (!stage) {
    throw badRequest(`status must be one of ${stages.map((s) => s.key).join(', ')}`, {
      code: 'unknown_status',
      field: 'status',
    });
  }
  return stage;
}

/** Column values for the simple (non-linking) fields present in `input`. */
export function jobColumns(input: JobInput, jobTypes: string[], stages: JobStage[]): Partial<Job> {
  const out: Partial<Job> = {};
  const set = <K extends keyof Job>(k: K, v: Job[K] | undefined) => {
    if (v !== undefined) out[k] = v;
  };
  if (input.name !== undefined) {
    const name = truncate(input.name.trim(), MAX_LENGTH.name);
    if (name === '') throw badRequest('name cannot be empty', { field: 'name' });
    set('name', name);
    set('name_key', nameKey(name));
  }
  for (const f of ['contact_name', 'bill_to_name', 'source', 'address'] as const) {
    set(f, truncate(blankToNull(input[f]), MAX_LENGTH[f]));
  }
  // Emails and phones follow the one rule of each; an email is checked before it is cut.
  for (const f of ['contact_email', 'bill_to_email'] as const) set(f, truncate(emailField(input[f], f), MAX_LENGTH[f]));
  set('contact_phone', phoneField(input.contact_phone, 'contact_phone'));
  for (const f of PASS_THROUGH) {
    const v = input[f];
    set(f, (typeof v === 'string' ? blankToNull(v) : v) as never);
  }
  if (input.job_type !== undefined) set('job_type', normalizeJobTypes(input.job_type, jobTypes));
  if (input.status !== undefined) set('status', stageFor(stages, input.status).key);
  if (input.estimated_value !== undefined) {
    set('estimated_value_cents', input.estimated_value === null ? null : dollarsToCents(input.estimated_value));
  }
  if (input.company !== undefined)
    set('company', truncate(blankToNull(input.company)?.trim() ?? null, MAX_LENGTH.company));
  return out;
}
