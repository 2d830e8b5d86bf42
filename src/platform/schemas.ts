// TypeBox helpers shared by route schemas: nullable primitives, envelopes, paging and ids.
import {
  Type,
  type SchemaOptions,
  type Static,
  type TSchema,
  type TObject,
  type TOptional,
  type TProperties,
} from '@sinclair/typebox';

/**
 * `T | null` as `type: [T, "null"]` rather than anyOf: one validation error instead of three,
 * and a faster serializer. Works for primitive schemas (string, integer, number, boolean).
 */
export function Nullable<T extends TSchema>(schema: T) {
  const { type, ...rest } = schema as unknown as { type: string };
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'] });
}

/** `string | null`. */
export const NullableString = () => Nullable(Type.String());
/** `integer | null`. */
export const NullableInteger = () => Nullable(Type.Integer());
/** `number | null`. */
export const NullableNumber = () => Nullable(Type.Number());
/** A `Z` timestamp to the second, or null. */
export const NullableInstant = () => Nullable(Type.String({ description: 'UTC, Z, to the second' }));
/** Free text of at most `maxLength` characters, or null. */
export const NullableText = (maxLength: number) => Nullable(Type.String({ maxLength }));

/** One of the given strings, as a union of literals (typed as that union). */
export function OneOf<const T extends readonly string[]>(values: T, options?: SchemaOptions) {
  return Type.Union(
    values.map((v: T[number]) => Type.Literal(v)),
    options,
  );
}

/** One of the given strings as a single `enum` (typed as that union; one validation error, "must be one of …"). */
export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}) {
  return Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });
}

/** The schema keyword holding a field's own failure text (an OpenAPI extension, so the document stays valid). */
export const ERROR_MESSAGE = 'x-error-message';

/**
 * The schema with its own text for any failure of the field, for where the spec words a field's
 * message differently from the generic ones (platform/error-handler.ts): "audience must be office
 * or field", "severity must be one of: low, medium, high".
 */
export function withMessage<T extends TSchema>(schema: T, message: string): T {
  return { ...schema, [ERROR_MESSAGE]: message };
}

/** Whether `value` is one of `values`. */
export function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}

/**
 * A stored text column read as one of the literals its response schema allows. A row outside the
 * set is a broken row: it fails here, as fast-json-stringify would refuse it too.
 */
export function storedOneOf<T extends string>(values: readonly T[], value: string): T {
  if (!isOneOf(values, value)) throw new Error(`Stored value "${value}" is not one of ${values.join(', ')}`);
  return value;
}

/** One of `values` or null, as one enum (a single clear validation error). */
export const NullableEnum = <T extends string>(values: readonly T[]) =>
  Type.Unsafe<T | null>({ type: ['string', 'null'], enum: [...values, null] });

/** A nullable object or array: anyOf is the only JSON Schema way to say it. */
export function NullableObject<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

/** Body schema: unknown fields are refused (400 naming them), per document 1, convention 7. */
export function Body<P extends TProperties, R extends keyof P = never>(
  properties: P,
  options: { required?: R[] } = {},
) {
  const req = new Set<keyof P>(options.required ?? []);
  const props: TProperties = {};
  for (const [k, v] of Object.entries(properties)) props[k] = req.has(k) ? v : Type.Optional(v);
  return Type.Object(props, { additionalProperties: false }) as unknown as TObject<{
    [K in keyof P]: K extends R ? P[K] : TOptional<P[K]>;
  }>;
}

export const Pagination = Type.Object({
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

/** `{data: [item], pagination}`, with `extra` fields beside them (the delivery log's `retention_days`). */
export function ListOf<T extends TSchema, E extends TProperties = {}>(item: T, extra?: E) {
  return Type.Object({ data: Type.Array(item), pagination: Pagination, ...(extra ?? ({} as E)) });
}

/** `{data: item}`, with `extra` fields beside data (`created`, `line_item_id` …). */
export function One<T extends TSchema>(item: T): TObject<{ data: T }>;
export function One<T extends TSchema, E extends TProperties>(item: T, extra: E): TObject<{ data: T } & E>;
export function One(item: TSchema, extra: TProperties = {}) {
  return Type.Object({ data: item, ...extra });
}

/** limit/offset query with the endpoint's maximum page size (document 1, Limits). */
export function PageQuery(max = 200) {
  return {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: max, default: 50 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
  };
}

/**
 * The most characters any one text field of a body takes: nothing accepts a megabyte. Fields with
 * a smaller documented maximum declare it; fields whose service cuts text to its maximum (jobs:
 * document 2 says over-long text is cut) or measures it once trimmed take up to this and the
 * service applies the real limit. Free-form notes and descriptions are bounded by it too.
 */
export const TEXT_CEILING = 10_000;

/** Keys of a custom_fields object: slugs of labels of at most 120 characters. */
export const CustomFieldValuesInput = (description?: string) =>
  Type.Record(Type.String(), Type.Unknown(), {
    propertyNames: { maxLength: 200 },
    maxProperties: 500,
    ...(description ? { description } : {}),
  });

export const RECORD_ID_MAX = 2147483647;

/**
 * A record id: a positive 32-bit integer (both engines store ids as such). The one schema for
 * every id in a body, query or path; in a path or query it is also plain decimal (ajv.ts).
 */
export const RecordId = (options: { description?: string } = {}) =>
  Type.Integer({ minimum: 1, maximum: RECORD_ID_MAX, ...options });

/**
 * The id in `value` outside schema validation (admin paths, firm_id): a JSON integer, or text of
 * decimal digits with no sign or leading zero; null when it names no record.
 */
export function recordIdOf(value: unknown): number | null {
  if (typeof value === 'string' && /^[1-9][0-9]{0,9}$/.test(value)) value = Number(value);
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= RECORD_ID_MAX ? value : null;
}

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
    ...(form === 'field' ? { minLength: 1 } : {}),
    maxLength: EXTERNAL_REF_MAX,
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
