// Runs an operation for a tool call through the very route the REST call uses (app.inject with
// the caller's key), so validation, visibility, permissions, events, rate limits and errors are
// the REST API's, and turns the answer into an MCP tool result.
import type { FastifyInstance } from 'fastify';
import type { ApiError } from '#platform/errors.ts';
import { ADDRESSING, type Operation } from './operations.ts';

/** Who is calling: their key, the workspace a partner key names, and their address. */
export interface Caller {
  key: string;
  firmId?: string;
  remoteAddress: string;
  /** The Host the MCP client reached, so links a tool answers are made on it as the REST call's are. */
  host?: string;
}

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

type Args = Record<string, unknown>;

/** An error result carrying the HTTP status and the error body as the REST API would send it. */
export function errorResult(status: number, body: ApiError['body'] | Record<string, unknown>): ToolResult {
  const headline = typeof body.error === 'string' ? body.error : 'Request failed';
  return {
    isError: true,
    structuredContent: { status, body },
    content: [{ type: 'text', text: `HTTP ${status}: ${headline}\n${JSON.stringify(body)}` }],
  };
}

function queryString(entries: [string, unknown][]): string {
  const params = new URLSearchParams();
  for (const [name, value] of entries) {
    if (value === undefined || value === null) continue;
    for (const one of Array.isArray(value) ? value : [value]) params.append(name, String(one));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The one line above the JSON: what came back, and for a page how to get the next one. */
function headlineOf(op: Operation, status: number, body: unknown): string {
  if (typeof body !== 'object' || body === null) return `HTTP ${status}`;
  const { data, pagination } = body as { data?: unknown; pagination?: Record<string, unknown> };
  if (Array.isArray(data) && pagination) {
    if (typeof pagination.total === 'number') {
      if (pagination.total === 0) return 'No matching records.';
      const offset = Number(pagination.offset ?? 0);
      const limit = Number(pagination.limit ?? data.length);
      const shown = data.length ? `${offset + 1}–${offset + data.length}` : `none past offset ${offset}`;
      const next =
        offset + data.length < pagination.total
          ? ` Next page: call ${op.name} again with offset=${offset + limit} and limit=${limit}.`
          : ' This is the last page.';
      return `Showing ${shown} of ${pagination.total}.${next}`;
    }
    if ('next_after' in pagination) {
      const more = pagination.has_more
        ? ` More follow: call ${op.name} again with after=${pagination.next_after}.`
        : ` Nothing more yet: call ${op.name} later with after=${pagination.next_after}.`;
      return `${data.length} item(s).${more}`;
    }
  }
  if (Array.isArray(data)) return `${data.length} item(s).`;
  const record = (data ?? body) as Record<string, unknown>;
  if (record && 'id' in record) {
    const label = record.name ?? record.title ?? record.display_name;
    return `HTTP ${status}: id ${record.id}${typeof label === 'string' ? ` (${label})` : ''}.`;
  }
  return `HTTP ${status}`;
}

/** A 2xx result: the REST body as structuredContent, a headline and the JSON (`json`, as sent) as text. */
function successResult(op: Operation, status: number, body: unknown, json: string): ToolResult {
  // structuredContent is an object by the protocol; every JSON answer of the API is one, and a
  // 204 has none.
  const structured =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : { status, data: body ?? null };
  const headline = status === 204 ? 'Done (HTTP 204, no content).' : headlineOf(op, status, body);
  return {
    structuredContent: structured,
    // MCP asks tools that return structured content to repeat it as text for older clients.
    content: [{ type: 'text', text: status === 204 ? headline : `${headline}\n${json}` }],
  };
}

/**
 * The request for `op` with `args`: path parameters into the path, query parameters into the
 * query, the rest into the body. An argument the operation does not know goes to the body when it
 * takes one (the route answers 400 Unknown fields, as over REST), else to the query (ignored, as
 * over REST).
 */
export function requestFor(
  op: Operation,
  args: Args,
  firmId: string | undefined,
): { url: string; body?: Args } | { missing: string } {
  let path = op.path;
  for (const name of op.pathParams) {
    const value = args[name];
    if (value === undefined || value === null || value === '') return { missing: name };
    path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
  }
  const query: [string, unknown][] = [];
  const body: [string, unknown][] = [];
  for (const [name, value] of Object.entries(args)) {
    // The workspace is the session's (the MCP URL's firm_id), never an argument's.
    if (op.pathParams.includes(name) || ADDRESSING.has(name)) continue;
    if (op.queryParams.includes(name)) query.push([name, value]);
    else if (op.bodyFields) body.push([name, value]);
    else query.push([name, value]);
  }
  if (firmId !== undefined) query.push(['firm_id', firmId]);
  // fromEntries defines each field as the body's own, `__proto__` included, so the route's JSON
  // parser refuses that one exactly as it would over REST.
  return { url: path + queryString(query), ...(op.bodyFields ? { body: Object.fromEntries(body) } : {}) };
}

/** The answer's JSON (every /v1 answer is JSON or empty; anything else is kept as text). */
function bodyOf(text: string): unknown {
  if (!text.length) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return { error: text };
  }
}

export async function invoke(app: FastifyInstance, op: Operation, args: Args, caller: Caller): Promise<ToolResult> {
  const request = requestFor(op, args, caller.firmId);
  if ('missing' in request) {
    return errorResult(400, {
      error: `${request.missing} is required`,
      message: `${op.name} needs ${request.missing} (a path parameter)`,
      code: 'missing_parameter',
      field: request.missing,
    });
  }
  const response = await app.inject({
    method: op.method,
    url: request.url,
    remoteAddress: caller.remoteAddress,
    headers: {
      ...(caller.host ? { host: caller.host } : {}),
      'x-api-key': caller.key,
      'user-agent': 'groundwork-mcp',
      ...(request.body ? { 'content-type': 'application/json' } : {}),
    },
    ...(request.body ? { payload: JSON.stringify(request.body) } : {}),
  });
  const body = bodyOf(response.body);
  if (response.statusCode >= 400) return errorResult(response.statusCode, (body ?? {}) as Record<string, unknown>);
  return successResult(op, response.statusCode, body, response.body);
}
