// The two validators: bodies are taken as sent (no type coercion, unknown fields kept so they can
// be refused by name); query strings and path params are text, so they are coerced to the schema.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import { badRequest } from './errors.ts';
import { looksLikeEmail } from './email-phone.ts';
import { validationBody } from './error-handler.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function make(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
    // Errors carry the schema they failed, so a field's own message (x-error-message) is found.
    verbose: true,
  });
  addFormats(ajv);
  // `format: 'email'` is the API's one email rule, not ajv-formats' own.
  ajv.addFormat('email', looksLikeEmail);
  return ajv;
}

export const bodyAjv = make(false);
const textAjv = make(true);

/**
 * Integers written in a path or query string are plain decimal. AJV's coercion reads anything
 * JavaScript's Number() does, so /v1/jobs/0xe, 0o16, 0b1110, 14.0, +14, 014 and 14e0 would all
 * name job 14: an id would have many spellings, and caches or logs keyed by path would disagree.
 */
const DECIMAL_INTEGER = /^-?(0|[1-9][0-9]*)$/;

type SchemaNode = { type?: string | string[]; items?: SchemaNode; properties?: Record<string, SchemaNode> };

const isInteger = (s: SchemaNode | undefined) =>
  s !== undefined && ([] as string[]).concat(s.type ?? []).includes('integer');

/** Validator of a path or query string: decimal integers only, then AJV's coercing validation. */
export function compileTextValidator(schema: object) {
  const validate = textAjv.compile(schema);
  const props = Object.entries((schema as SchemaNode).properties ?? {});
  const integers = props.filter(([, s]) => isInteger(s)).map(([name]) => name);
  const integerLists = props.filter(([, s]) => isInteger(s.items)).map(([name]) => name);
  if (integers.length === 0 && integerLists.length === 0) return validate;
  const notDecimal = (v: unknown) => typeof v === 'string' && !DECIMAL_INTEGER.test(v);
  const checked = (data: unknown, ...rest: unknown[]) => {
    const values = (data ?? {}) as Record<string, unknown>;
    const bad =
      integers.find((name) => notDecimal(values[name])) ??
      integerLists.find((name) => ([] as unknown[]).concat(values[name] ?? []).some(notDecimal));
    if (bad !== undefined) {
      return {
        error: [
          {
            keyword: 'type',
            instancePath: `/${bad}`,
            schemaPath: '#/type',
            params: { type: 'integer' },
            message: 'must be integer',
          },
        ],
      };
    }
    return (validate as (...a: unknown[]) => boolean)(data, ...rest) ? true : { error: validate.errors ?? [] };
  };
  // Fastify hands AJV functions (marked by schemaEnv) the request, so coercion can reach the root.
  return Object.assign(checked, { schemaEnv: validate.schemaEnv });
}

const cache = new WeakMap<object, ValidateFunction>();

/** Validates `value` against `schema` as a body, answering the API's 400 on failure. */
export function validateBody<T>(schema: TSchema, value: unknown): T {
  let fn = cache.get(schema);
  if (!fn) {
    fn = bodyAjv.compile(schema);
    cache.set(schema, fn);
  }
  if (!fn(value)) {
    const body = validationBody(fn.errors as never, 'body');
    throw badRequest(body.error, Object.fromEntries(Object.entries(body).filter(([k]) => k !== 'error')));
  }
  return value as T;
}
