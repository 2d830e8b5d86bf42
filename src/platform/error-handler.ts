// Turns every failure into the spec's bodies: ApiError as given, schema failures as a 400 that
// names the field (unknown fields named together), and anything unexpected as a logged 500.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, unknownFieldsText } from './errors.ts';
import { ERROR_MESSAGE } from './schemas.ts';
import { withBaselineHeaders } from './security-headers.ts';

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
  /** The schema holding the failed keyword (the validators run verbose). */
  parentSchema?: Record<string, unknown>;
}

/**
 * A field's own wording of its failure, where the spec words it differently from the generic
 * messages below (platform/schemas.ts, withMessage): on the field's schema or any schema of the
 * field that failed (the union of a OneOf, the enum of a nullable one).
 */
function ownMessage(field: AjvError, all: AjvError[]): string | undefined {
  for (const e of all) {
    const own = e.parentSchema?.[ERROR_MESSAGE];
    if (e.instancePath === field.instancePath && e.keyword !== 'required' && typeof own === 'string') return own;
  }
  return undefined;
}

function fieldName(instancePath: string, extra?: unknown): string {
  const parts = instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : p));
  if (extra !== undefined) parts.push(String(extra));
  return parts.join('.').replace(/\.\[/g, '[') || 'body';
}

function describe(error: AjvError, all: AjvError[]): string {
  const field = fieldName(error.instancePath);
  const p = error.params;
  switch (error.keyword) {
    case 'required':
      return `${fieldName(error.instancePath, p.missingProperty)} is required`;
    case 'type': {
      const article = (t: string) => (t === 'null' ? 'null' : (/^[aeiou]/.test(t) ? 'an ' : 'a ') + t);
      return `${field} must be ${([] as string[])
        .concat(p.type as string)
        .map(article)
        .join(' or ')}`;
    }
    case 'enum':
      return `${field} must be one of ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'const': {
      const options = all
        .filter((e) => e.keyword === 'const' && e.instancePath === error.instancePath)
        .map((e) => String(e.params.allowedValue));
      return `${field} must be one of ${[...new Set(options)].join(', ')}`;
    }
    case 'format':
      return `${field} must be a valid ${p.format === 'date' ? 'date (YYYY-MM-DD)' : p.format}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${field} must be ${p.comparison} ${p.limit}`;
    case 'minLength':
      return Number(p.limit) === 1 ? `${field} cannot be empty` : `${field} must be at least ${p.limit} characters`;
    case 'maxLength':
      return `${field} must be at most ${p.limit} characters`;
    case 'maxItems':
      return `${field} must have at most ${p.limit} items`;
    case 'minItems':
      return `${field} must have at least ${p.limit} items`;
    case 'uniqueItems':
      return `${field} must not repeat items`;
    case 'pattern':
      return `${field} has an invalid format`;
    default:
      return `${field} ${error.message ?? 'is invalid'}`;
  }
}

export function validationBody(errors: AjvError[], context: string): { error: string; [k: string]: unknown } {
  const unknown = errors
    .filter((e) => e.keyword === 'additionalProperties')
    .map((e) => fieldName(e.instancePath, e.params.additionalProperty));
  if (unknown.length > 0) {
    const fields = [...new Set(unknown)];
    return {
      error: unknownFieldsText(fields),
      code: 'unknown_fields',
      fields,
    };
  }
  // anyOf wrappers say nothing useful; report the most specific error under them.
  const useful = errors.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf');
  const first = useful[0] ?? errors[0];
  const message = first ? (ownMessage(first, errors) ?? describe(first, useful)) : 'Invalid request';
  const field = first
    ? fieldName(first.instancePath, first.keyword === 'required' ? first.params.missingProperty : undefined)
    : undefined;
  return {
    error: message,
    code: 'invalid_request',
    ...(field ? { field } : {}),
    ...(context !== 'body' ? { in: context } : {}),
    ...(first?.keyword === 'maxLength' ? tooLong(field ?? 'body', Number(first.params.limit)) : {}),
  };
}

/**
 * Text over its limit names the limit in `max_length`. A reference (external_ref and the
 * *_external_ref fields, named so across the API) also says why it is refused where document 2
 * cuts over-long text: two references that differ only after the cut would name one record.
 */
function tooLong(field: string, limit: number): { max_length: number; message?: string } {
  if (!/(^|[._])external_ref$/.test(field)) return { max_length: limit };
  return {
    max_length: limit,
    message:
      `${field} can be at most ${limit} characters. A longer reference is refused rather than cut, ` +
      'since cutting could make two different references one.',
  };
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError & { validation?: AjvError[]; validationContext?: string }, request, reply) => {
    if (clientHungUp(request)) {
      // A client going away mid-request (an upload cancelled, a phone losing signal) is an ordinary
      // event, not the server's failure: whatever the route stored has been removed by its own
      // failure path, and nobody is left to read an answer.
      request.log.info({ err: { code: err.code, message: err.message } }, 'request aborted by the client');
      return reply.status(400).send({ error: 'Request aborted', code: 'invalid_request' });
    }
    if (err instanceof ApiError) {
      // 408: the body stopped arriving; the rest of it is not waited for.
      if (err.status === 408) reply.header('connection', 'close');
      return reply.status(err.status).send(err.body);
    }
    if (err.validation) {
      // A path id that is not a positive integer names no record: the same 404 as a missing one.
      if (err.validationContext === 'params') return reply.status(404).send({ error: 'Resource not found' });
      return reply.status(400).send(validationBody(err.validation, err.validationContext ?? 'body'));
    }
    const status = err.statusCode ?? 500;
    if (status === 413) {
      // Fastify asks to close the connection, but closing while the client is still sending resets
      // it, often before the client has read this answer: the rest of the body is read and thrown
      // away instead (platform/timeouts.ts, up to DRAIN_BYTES).
      reply.removeHeader('connection');
      return reply.status(413).send({ error: 'Request too large', message: err.message });
    }
    if (status === 415)
      return reply
        .status(415)
        .send({ error: 'Unsupported content type', message: 'Send Content-Type: application/json' });
    if (status >= 400 && status < 500) {
      const invalidJson =
        err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
        err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
        err instanceof SyntaxError;
      return reply
        .status(400)
        .send({ error: invalidJson ? 'Request body is not valid JSON' : err.message, code: 'invalid_request' });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ error: 'Internal server error' });
  });
}

/** Whether the client has closed the connection before its request was read or answered. */
function clientHungUp(request: FastifyRequest): boolean {
  const raw = request.raw;
  return raw.aborted || (raw.destroyed && !raw.complete) || raw.socket?.destroyed === true;
}

/** Longest path segment the router matches (Fastify's maxParamLength); a longer one is a 414. */
export const MAX_PATH_SEGMENT = 100;

/**
 * Fastify's `frameworkErrors`: failures of the router itself, answered before any hook runs (so
 * the security headers are set here) and before the error handler exists for the request.
 */
export function frameworkErrorHandler(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  withBaselineHeaders(reply);
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    reply.status(414).send({
      error: 'URI too long',
      code: 'uri_too_long',
      message: `A path segment may be at most ${MAX_PATH_SEGMENT} characters`,
    });
  } else if (err.code === 'FST_ERR_BAD_URL') {
    reply
      .status(400)
      .send({ error: 'Malformed URL', code: 'invalid_request', message: 'The path is not valid percent-encoded text' });
  } else {
    reply.log.error({ err }, 'router error');
    reply.status(500).send({ error: 'Internal server error' });
  }
}
