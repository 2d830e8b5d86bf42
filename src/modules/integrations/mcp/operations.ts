// The MCP catalogue: one Operation per /v1 operation of the OpenAPI document, read from the
// document the app serves (itself made from the route table), so a route added later is a tool
// without anyone listing it. The document is the one source: names are its operationIds, the
// input schema is made of its path, query and body schemas, the permissions its x-permissions.
import type { Permission } from '#platform/permissions.ts';

/** A JSON Schema as the OpenAPI 3.1 document holds it. */
export type JsonSchema = Record<string, unknown>;

export interface Operation {
  /** The operationId: a stable snake_case verb_noun, the tool's name. */
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** The OpenAPI path template (/v1/jobs/{id}). */
  path: string;
  summary: string;
  description?: string;
  /** The spec area it belongs to (its first tag, snake_case): jobs, estimates, webhooks … */
  toolset: string;
  /** Key permissions the route checks (document 1, Permissions). */
  permissions: Permission[];
  /** A write a crew login may make too (x-crew-app). */
  crewApp: boolean;
  /** Reads only (GET): offered in read_only sessions. */
  readOnly: boolean;
  /** Removes or merges away data: a DELETE, or a route that needs delete_records. */
  destructive: boolean;
  /** Repeating the call with the same arguments changes nothing more (GET, PUT, PATCH, DELETE). */
  idempotent: boolean;
  pathParams: string[];
  queryParams: string[];
  /** Body fields, taken flat among the tool's arguments; null when the route takes no body. */
  bodyFields: string[] | null;
  /** Pages with limit and offset (its result's pagination says how far it got). */
  paged: boolean;
  inputSchema: JsonSchema & { type: 'object' };
}

type OpenApiParameter = { name: string; in: string; required?: boolean; schema?: JsonSchema; description?: string };
type OpenApiOperation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
  'x-permissions'?: Permission[];
  'x-crew-app'?: boolean;
};
export type OpenApiDocument = { paths: Record<string, Record<string, OpenApiOperation>> };

const METHODS = ['get', 'post', 'patch', 'put', 'delete'] as const;

/** `firm_id` addresses the workspace: it comes from the MCP URL, never from a tool's arguments. */
export const ADDRESSING: ReadonlySet<string> = new Set(['firm_id']);

/**
 * Tags that share one toolset: the operations area's resources are one piece of work for an
 * assistant (the schedule, the crew app, time and costs, re-bids), offered as `operations`.
 */
export const GROUPED_TAGS: Readonly<Record<string, string>> = {
  Crews: 'operations',
  'Work orders': 'operations',
  Holds: 'operations',
  'Schedule requests': 'operations',
  Notifications: 'operations',
  'Daily logs': 'operations',
  'Daily reports': 'operations',
  'Crew app': 'operations',
  'Time entries': 'operations',
  'Job costs': 'operations',
  'Re-bids': 'operations',
};

export const toolsetOf = (tag: string) => GROUPED_TAGS[tag] ?? tag.toLowerCase().replace(/[^a-z0-9]+/g, '_');

/**
 * Binary transfers give an assistant nothing to read or send: a download that answers bytes, one
 * that only redirects to them (no 2xx answer, a 3xx: GET /v1/files/{id}/download), and an upload
 * whose body is only multipart/form-data (a file part; an assistant has no file to attach).
 */
function isBinaryTransfer(op: OpenApiOperation): boolean {
  const statuses = Object.keys(op.responses ?? {});
  const success = Object.entries(op.responses ?? {}).find(([status]) => status.startsWith('2'))?.[1];
  const types = Object.keys(success?.content ?? {});
  if (types.length > 0 && !types.includes('application/json')) return true;
  if (!success && statuses.some((s) => s.startsWith('3'))) return true;
  const bodies = Object.keys(op.requestBody?.content ?? {});
  return bodies.length > 0 && bodies.every((type) => type === 'multipart/form-data');
}

function propertyOf(parameter: OpenApiParameter): JsonSchema {
  const schema = { ...(parameter.schema ?? {}) };
  if (parameter.description && !schema.description) schema.description = parameter.description;
  return schema;
}

function operationOf(path: string, method: (typeof METHODS)[number], op: OpenApiOperation): Operation | null {
  // Public operations (health) need no tool; binary transfers give an assistant nothing to read or send.
  if (!op.operationId || !op['x-permissions'] || isBinaryTransfer(op)) return null;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const pathParams: string[] = [];
  const queryParams: string[] = [];
  for (const parameter of op.parameters ?? []) {
    if (ADDRESSING.has(parameter.name) || (parameter.in !== 'path' && parameter.in !== 'query')) continue;
    (parameter.in === 'path' ? pathParams : queryParams).push(parameter.name);
    properties[parameter.name] = propertyOf(parameter);
    if (parameter.required || parameter.in === 'path') required.push(parameter.name);
  }
  const body = op.requestBody?.content?.['application/json']?.schema;
  let bodyFields: string[] | null = null;
  if (body) {
    // Every body of the API is an object whose fields differ from its path and query names (the
    // catalogue test holds the routes to that), so the fields sit flat beside the parameters.
    const fields = (body.properties ?? {}) as Record<string, JsonSchema>;
    bodyFields = Object.keys(fields).filter((name) => !ADDRESSING.has(name));
    for (const name of bodyFields) properties[name] = fields[name]!;
    for (const name of (body.required as string[] | undefined) ?? []) if (!ADDRESSING.has(name)) required.push(name);
  }
  const upper = method.toUpperCase() as Operation['method'];
  const permissions = op['x-permissions'];
  const tag = op.tags?.[0] ?? 'Platform';
  return {
    name: op.operationId,
    method: upper,
    path,
    summary: op.summary ?? op.operationId,
    description: op.description,
    toolset: toolsetOf(tag),
    permissions,
    crewApp: op['x-crew-app'] === true,
    readOnly: upper === 'GET',
    destructive: upper === 'DELETE' || permissions.includes('delete_records'),
    idempotent: upper !== 'POST',
    pathParams,
    queryParams,
    bodyFields,
    paged: queryParams.includes('limit') && queryParams.includes('offset'),
    inputSchema: {
      type: 'object',
      properties,
      ...(required.length ? { required: [...new Set(required)] } : {}),
      // Unknown arguments still reach the route, which answers its own 400 Unknown fields.
      additionalProperties: !body || body.additionalProperties !== false,
    },
  };
}

/** Every operation an assistant can call, in the document's order. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      const operation = op && operationOf(path, method, op);
      if (operation) operations.push(operation);
    }
  }
  return operations;
}
