// TypeBox helpers shared by route schemas: nullable primitives, envelopes, paging and ids.
import { Type, type Static, type TSchema, type TObject, type TOptional, type TProperties } from '@sinclair/typebox';

/**
 * `T | null` as `type: [T, "null"]` rather than anyOf: one validation error instead of three,
 * and a faster serializer. Works for primitive schemas (string, integer, number, boolean).
 */
export function Nullable<T extends TSchema>(schema: T) {
  const { type, ...rest } = schema as unknown as { type: string };
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'] });
}

/** A nullable object or array: anyOf is the only JSON Schema way to say it. */
export function NullableObject<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

/** Body schema: unknown fields are refused (400 naming them), per document 1, convention 7. */
export function Body<P extends TProperties, R extends keyof P = never>(properties: P, options: { required?: R[] } = {}) {
  const req = new Set<keyof P>(options.required ?? []);
  const props: TProperties = {};
  for (const [k, v] of Object.entries(properties)) props[k] = req.has(k) ? v : Type.Optional(v);
  return Type.Object(props, { additionalProperties: false }) as unknown as
    TObject<{ [K in keyof P]: K extends R ? P[K] : TOptional<P[K]> }>;
}

export const Pagination = Type.Object({
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export function ListOf<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item), pagination: Pagination });
}

export function One<T extends TSchema>(item: T, extra: TProperties = {}) {
  return Type.Object({ data: item, ...extra });
}

/** limit/offset query with the endpoint's maximum page size (document 1, Limits). */
export function PageQuery(max = 200) {
  return {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: max, default: 50 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
  };
}

/** A record id: a positive 32-bit integer (both engines store ids as such). */
export const RecordId = (options: { description?: string } = {}) => Type.Integer({ minimum: 1, maximum: 2147483647, ...options });

export const IdParam = (name = 'id') => Type.Object({ [name]: RecordId() });

export const DateString = Type.String({ format: 'date', description: 'YYYY-MM-DD' });

/** Longest external_ref (document 2: max 255), also for its *_external_ref companions. */
export const EXTERNAL_REF_MAX = 255;

/**
 * A caller's reference: external_ref and the *_external_ref fields naming a record by it. Longer
 * than EXTERNAL_REF_MAX is a 400 stating the limit, never cut like other over-long text: two
 * references that differ only after the cut would name one record (docs/api-decisions.md).
 * `lookup` is the list filter's form, where an empty value is allowed.
 */
export function ExternalRef(form: 'field' | 'lookup' = 'field') {
  return Type.String({
    ...(form === 'field' ? { minLength: 1 } : {}), maxLength: EXTERNAL_REF_MAX,
    description: `at most ${EXTERNAL_REF_MAX} characters; a longer one is refused, never cut`,
  });
}

/**
 * For action endpoints whose body is optional ("none shown" in the spec): a call without a body
 * is validated as `{}`, so `POST …/issue` with no body works like `POST …/issue {}`. Use as the
 * route's preValidation hook.
 */
export async function bodyOptional(request: { body: unknown }): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}
