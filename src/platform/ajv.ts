// The two validators: bodies are taken as sent (no type coercion, unknown fields kept so they can
// be refused by name); query strings and path params are text, so they are coerced to the schema.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import { badRequest } from './errors.ts';
import { validationBody } from './error-handler.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function make(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
  });
  addFormats(ajv);
  return ajv;
}

export const bodyAjv = make(false);
export const textAjv = make(true);

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
