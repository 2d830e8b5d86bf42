// What the OpenAPI document says of every /v1 operation beyond its own schemas: a stable
// snake_case `operationId` (verb_noun, the name the MCP server gives its tool) and the error
// answers it can give, each with the one error body schema, and the key permissions it needs
// (`x-permissions`). Applied by an onRoute hook (app.ts), so a new route is described without
// anyone listing it.
import { Type } from '@sinclair/typebox';
import type { RouteOptions } from 'fastify';
import { ERROR_CODES, type ErrorCode } from './errors.ts';
import { ERROR_MESSAGE } from './schemas.ts';

/**
 * Every error body: `error`, usually `message` and a catalogued `code`, plus the case's fields.
 * Registered once as a shared schema (`Error`, the document's components/schemas/Error) that every
 * operation's error answers refer to, rather than repeating the code enum a thousand times.
 */
export const ErrorSchema = Type.Object(
  {
    error: Type.String(),
    message: Type.Optional(Type.String()),
    // One enum rather than a union of literals: a short, readable schema in the document.
    code: Type.Optional(Type.Unsafe<ErrorCode>({ type: 'string', enum: [...ERROR_CODES] })),
  },
  { $id: 'Error', additionalProperties: true, description: 'An error (document 1, Errors)' },
);

/** A route's error answer: a reference to the one shared error schema. */
export const ErrorRef = Type.Ref(ErrorSchema);

/** Shared schemas appear in the document under their own $id, not as def-0, def-1 … */
export const componentName = (json: { $id?: unknown }, _base: unknown, _fragment: unknown, i: number) =>
  typeof json.$id === 'string' ? json.$id : `def-${i}`;

/** Path segments that name one thing, not a collection: never singularised, read with get_. */
const SINGLETONS = new Set([
  'details',
  'location',
  'activity',
  'award',
  'merge-preview',
  'operations-assignment',
  'plan-share-link',
  'portal-link',
  'follow-up-sequence',
  'follow-up-sequence-settings',
]);

/** Last segments that are verbs when POSTed (POST /v1/jobs/{id}/move is move_job). */
const ACTIONS = new Set([
  'move',
  'merge',
  'complete',
  'duplicate',
  'issue',
  'mark-won',
  'mark-lost',
  'mark-sent',
  'mark-paid',
  'mark-draft',
  'recalculate',
  'reopen',
  'restore',
  'redeliver',
  'replay',
  'revoke',
  'disable',
  'rotate',
  'start',
  'stop',
  'assign',
  'convert',
  'dismiss',
  'send',
  'void',
  'approve',
  'decline',
]);

/** Where the rule's name would read wrong or collide with another operation's. */
const NAMED: Record<string, string> = {
  'GET /v1/search': 'search_records',
  'POST /v1/condition/paser': 'rate_condition_paser',
  'POST /v1/condition/pci': 'rate_condition_pci',
  'POST /v1/detect/full': 'detect_full',
  'POST /v1/detect/address': 'detect_address',
  'POST /v1/detect/tiles': 'detect_tiles',
  'POST /v1/measurements/:id/edits': 'edit_measurement_shapes',
  'POST /v1/jobs/:job_id/landscape-takeoffs': 'create_landscape_takeoff',
  'POST /v1/landscape-takeoffs/:id/items': 'add_landscape_takeoff_items',
  'POST /v1/landscape-takeoffs/:id/detect': 'detect_landscape_takeoff',
  'POST /v1/landscape-runs/:id/undo': 'undo_landscape_run',
  'GET /v1/landscape-takeoffs/:id/sheets/:page/image': 'get_landscape_takeoff_sheet_image',
  'POST /v1/landscape-takeoffs/:id/read-callouts': 'read_landscape_takeoff_callouts',
  'POST /v1/landscape-takeoffs/:id/find-plants': 'find_landscape_takeoff_plants',
  'POST /v1/landscape-takeoffs/:id/group-plants': 'group_landscape_takeoff_plants',
  'POST /v1/landscape-takeoffs/:id/advanced-run': 'run_advanced_landscape_takeoff',
  'POST /v1/landscape-takeoffs/:id/irrigation': 'read_landscape_takeoff_irrigation',
  'GET /v1/health': 'get_health',
  'GET /v1/exports/:file': 'download_export',
  'GET /v1/export-downloads/:token': 'download_export_file',
  'GET /v1/objects/:signature': 'download_object',
  'GET /v1/files/:id/download': 'download_file',
  'POST /v1/jobs/:job_id/library-files': 'attach_library_file',
  'DELETE /v1/jobs/:job_id/library-files/:file_id': 'detach_library_file',
  'POST /v1/jobs/:job_id/tags': 'add_job_tag',
  'DELETE /v1/jobs/:job_id/tags/:tag_id': 'remove_job_tag',
  'POST /v1/jobs/:job_id/contacts': 'add_job_contact',
  'DELETE /v1/jobs/:job_id/contacts/:contact_id': 'remove_job_contact',
  'POST /v1/leads/:id/contacted': 'mark_lead_contacted',
  'GET /v1/proposals/:id/pdf': 'get_proposal_pdf',
  'GET /v1/proposals/:id/signature': 'get_proposal_signature',
  'POST /v1/proposals/:id/share-link': 'share_proposal',
  'PATCH /v1/proposals/:id/link': 'update_proposal_link',
  'POST /v1/proposals/:id/apply-template': 'apply_proposal_template',
  'POST /v1/proposals/:id/approval': 'decide_proposal_approval',
  'GET /v1/invoices/:id/pdf': 'get_invoice_pdf',
  'POST /v1/estimates/:id/request-payment': 'request_estimate_payment',
  'POST /v1/change-orders/:id/stage': 'move_change_order_stage',
  'POST /v1/schedule/publish': 'publish_schedule',
  'POST /v1/work-orders/:id/cancel': 'cancel_work_order',
  'GET /v1/schedule/holds': 'list_holds',
  'POST /v1/schedule/holds': 'create_hold',
  'GET /v1/schedule/holds/:id': 'get_hold',
  'PATCH /v1/schedule/holds/:id': 'update_hold',
  'DELETE /v1/schedule/holds/:id': 'delete_hold',
  'POST /v1/schedule/holds/:id/convert': 'convert_hold',
  'POST /v1/schedule/holds/:id/link': 'link_hold',
  'GET /v1/schedule/date-requests': 'list_schedule_requests',
  'POST /v1/schedule/date-requests': 'create_schedule_request',
  'GET /v1/schedule/date-requests/:id': 'get_schedule_request',
  'POST /v1/schedule/date-requests/:id/approve': 'approve_schedule_request',
  'POST /v1/schedule/date-requests/:id/decline': 'decline_schedule_request',
  'GET /v1/schedule/queue': 'list_schedule_queue',
  'POST /v1/notifications/:id/read': 'mark_notification_read',
  'POST /v1/rebids/create-jobs': 'create_rebid_jobs',
  'POST /v1/rebids/snooze': 'snooze_rebid',
  'POST /v1/rebids/not-doing': 'mark_rebid_not_doing',
  'POST /v1/rebids/reset': 'reset_rebid',
  'POST /v1/rebids/follow-up': 'create_rebid_follow_up',
  'POST /v1/rebids/history': 'add_rebid_history',
  'GET /v1/sites/completed': 'list_completed_sites',
  'GET /v1/reports/labor-hours': 'get_labor_hours_report',
  'GET /v1/reports/:key': 'run_report',
  'GET /v1/reports/:key/csv': 'download_report_csv',
  'GET /v1/reports/month-end-job-cost': 'get_month_end_job_cost_report',
};

const singular = (word: string) =>
  word.endsWith('ies')
    ? `${word.slice(0, -3)}y`
    : word.endsWith('s') && !word.endsWith('ss')
      ? word.slice(0, -1)
      : word;
const snake = (word: string) => word.replace(/-/g, '_');

/**
 * verb_noun from the method and path: GET /v1/jobs is list_jobs, GET /v1/jobs/{id} get_job,
 * POST /v1/jobs create_job, PATCH update_job, PUT set_…, DELETE delete_…, POST …/{id}/move
 * move_job. Every segment but a listed collection reads singular.
 */
export function operationIdOf(method: string, url: string): string {
  const named = NAMED[`${method} ${url}`];
  if (named) return named;
  const segments = url.replace(/^\/v1\//, '').split('/');
  let action: string | undefined;
  if (method === 'POST' && ACTIONS.has(segments[segments.length - 1]!)) action = segments.pop();
  const last = segments[segments.length - 1]!;
  const onOne = last.startsWith(':') || SINGLETONS.has(last);
  const words = segments.filter((s) => !s.startsWith(':'));
  const nouns = words.map((word, i) => {
    if (SINGLETONS.has(word)) return snake(word);
    const isLast = i === words.length - 1;
    // A collection read, a collection-wide change (PATCH …/custom-fields) or action keeps its
    // plural; a create and everything under an id names one record.
    const plural = (isLast && !onOne && method !== 'POST') || (isLast && action !== undefined && !last.startsWith(':'));
    return snake(plural ? word : singular(word));
  });
  const verb = action
    ? snake(action)
    : method === 'GET'
      ? onOne
        ? 'get'
        : 'list'
      : method === 'POST'
        ? 'create'
        : method === 'PATCH'
          ? 'update'
          : method === 'PUT'
            ? 'set'
            : 'delete';
  return [verb, ...nouns].join('_');
}

type Schema = NonNullable<RouteOptions['schema']> & {
  operationId?: string;
  hide?: boolean;
  response?: Record<string | number, unknown>;
  'x-permissions'?: readonly string[];
  'x-crew-app'?: boolean;
};

/** Adds the operationId and the error answers to a /v1 route's schema (the route's own win). */
export function describeOperation(route: RouteOptions): void {
  const schema = (route.schema ?? {}) as Schema;
  if (schema.hide) return;
  const method = ([] as string[]).concat(route.method)[0]!;
  if (method === 'HEAD') return;
  schema.operationId ??= operationIdOf(method, route.url);
  const config = route.config as { public?: boolean; permissions?: string[]; crewApp?: boolean } | undefined;
  const isPublic = config?.public === true;
  // The key permissions the route checks, as an extension: search_operations (MCP) reports them and
  // hides what a key cannot run.
  if (!isPublic) schema['x-permissions'] = config?.permissions ?? [];
  // A write a crew login may make too (platform/auth.ts): MCP offers it to a crew key.
  if (config?.crewApp) schema['x-crew-app'] = true;
  const statuses: number[] = [];
  if (schema.body || schema.querystring) statuses.push(400);
  if (!isPublic) statuses.push(401, 402, 403);
  if (schema.params) statuses.push(404);
  if (method !== 'GET') statuses.push(409);
  if (method === 'POST' || method === 'PATCH' || method === 'PUT') statuses.push(422);
  if (!isPublic) statuses.push(429);
  const response = { ...(schema.response ?? {}) };
  for (const status of statuses) response[status] ??= ErrorRef;
  schema.response = response;
  route.schema = schema;
}

/**
 * The published document without the fields' own failure texts (x-error-message, platform/schemas.ts):
 * they word the 400s the error schema already describes, and say nothing a client needs.
 */
export function withoutErrorMessages<T>(document: T): T {
  return JSON.parse(JSON.stringify(document), (key, value) => (key === ERROR_MESSAGE ? undefined : value));
}
