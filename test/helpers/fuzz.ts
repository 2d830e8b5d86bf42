// Request variants for the fuzz test, built from a route's JSON Schema (as the OpenAPI document or
// the admin API's TypeBox schemas spell it): a plausible body, bodies that are malformed or of the
// wrong shape, a wrong type or an absurd number in each field, and a megabyte in each string.

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  patternProperties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
};

export interface Variant {
  label: string;
  body: string;
}

/** Odd ids for every path parameter: beyond 32 bits, beyond doubles, other spellings, too long. */
export const ODD_PATH_VALUES = ['2147483648', '9007199254740993', '1e308', '0xe', '014', '-1', '0', 'x'.repeat(3000)];

/** Letters that do not compress (PostgreSQL would squeeze a repeated one under its index limit). */
export function noise(length: number, seed = 7): string {
  const out: string[] = [];
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(String.fromCharCode(97 + ((x >> 16) % 26)));
  }
  return out.join('');
}

/** Just under Fastify's 1 MiB body limit once wrapped, so it reaches validation and beyond. */
export const HUGE = noise(1_000_000);

const DEEP = 10_000;

/** Bodies no route takes: invalid JSON, a JSON value of the wrong kind, absurd nesting. */
export function malformedBodies(): Variant[] {
  return [
    { label: 'invalid JSON', body: '{"name":' },
    { label: 'truncated string', body: '{"name":"abc' },
    { label: 'array body', body: '[]' },
    { label: 'array of objects', body: '[{"name":"x"}]' },
    { label: 'string body', body: '"text"' },
    { label: 'number body', body: '42' },
    { label: 'null body', body: 'null' },
    { label: 'empty body', body: '' },
    { label: `${DEEP} nested arrays`, body: '['.repeat(DEEP) + ']'.repeat(DEEP) },
    { label: `${DEEP} nested objects`, body: '{"a":'.repeat(DEEP) + '1' + '}'.repeat(DEEP) },
    { label: 'deep array in a field', body: `{"name":${'['.repeat(DEEP)}${']'.repeat(DEEP)}}` },
  ];
}

const typesOf = (s: Schema): string[] => ([] as string[]).concat(s.type ?? []).filter((t) => t !== 'null');

function firstOption(s: Schema): Schema {
  const options = s.anyOf ?? s.oneOf;
  if (!options) return s;
  return firstOption(
    options.find((o) => typesOf(o).length > 0 || o.enum || o.const !== undefined || o.properties) ?? options[0]!,
  );
}

const idLike = (name: string) => name === 'id' || /_ids?$/.test(name);

/**
 * A value the schema accepts, or close to it. Ids name no record (2147483647), so a body that
 * passes validation still fails its lookups instead of merging or deleting fixtures.
 */
export function sample(schema: Schema, name = ''): unknown {
  const s = firstOption(schema);
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const type = typesOf(s)[0] ?? (s.properties ? 'object' : undefined);
  switch (type) {
    case 'string':
      if (s.format === 'date') return '2026-01-15';
      if (s.format === 'date-time') return '2026-01-15T12:00:00Z';
      if (s.format === 'email' || /email/.test(name)) return 'fuzz@example.com';
      if (/url/.test(name)) return 'https://hooks.example.com/fuzz';
      return 'fuzz'.padEnd(s.minLength ?? 0, 'z');
    case 'integer':
      return idLike(name) ? 2147483647 : Math.max(1, Math.ceil(s.minimum ?? s.exclusiveMinimum ?? 1));
    case 'number':
      return Math.max(1, s.minimum ?? 1);
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => sample(s.items ?? {}, name));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of s.required ?? []) out[key] = sample(s.properties?.[key] ?? {}, key);
      return out;
    }
    default:
      return null;
  }
}

/**
 * The key used inside {key: value} maps (custom_fields): the fuzz test's custom field has it, so a
 * value gets past the unknown-key check to the value rules.
 */
export const MAP_KEY = 'fuzz_field';

/** The schema of the values of a {key: value} map, if `s` is one. */
function mapValues(s: Schema): Schema | undefined {
  if (s.patternProperties) return Object.values(s.patternProperties)[0];
  return typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
}

/** Every place a value can sit in a body of this schema: [path, the schema there]. */
function leaves(schema: Schema, path: Array<string | number> = [], depth = 0): Array<[Array<string | number>, Schema]> {
  const s = firstOption(schema);
  const out: Array<[Array<string | number>, Schema]> = path.length > 0 ? [[path, s]] : [];
  if (depth > 4) return out;
  for (const [key, sub] of Object.entries(s.properties ?? {})) out.push(...leaves(sub, [...path, key], depth + 1));
  if (s.items) out.push(...leaves(s.items, [...path, 0], depth + 1));
  const values = mapValues(s);
  if (values) out.push(...leaves(values, [...path, MAP_KEY], depth + 1));
  return out;
}

/** `base` with the value at `path` replaced, building the containers on the way from the schema. */
function setAt(base: unknown, schema: Schema, path: Array<string | number>, value: unknown): unknown {
  if (path.length === 0) return value;
  const s = firstOption(schema);
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const items = s.items ?? {};
    const list = Array.isArray(base) && base.length > 0 ? [...base] : [sample(items)];
    list[0] = setAt(list[0], items, rest, value);
    return list;
  }
  const object =
    base && typeof base === 'object' && !Array.isArray(base)
      ? { ...(base as Record<string, unknown>) }
      : ((sample(s) as Record<string, unknown>) ?? {});
  const sub = s.properties?.[head!] ?? mapValues(s) ?? {};
  object[head!] = setAt(object[head!] ?? sample(sub, head!), sub, rest, value);
  return object;
}

/** Per field: a wrong type, absurd numbers for numbers, a megabyte for strings. */
export function fieldVariants(schema: Schema): Variant[] {
  const base = sample(schema);
  const out: Variant[] = [];
  const put = (label: string, path: Array<string | number>, value: unknown, raw?: string) => {
    let body = JSON.stringify(setAt(base, schema, path, raw === undefined ? value : '__RAW__'));
    if (raw !== undefined) body = body.replace('"__RAW__"', raw);
    out.push({ label: `${path.join('.')}: ${label}`, body });
  };
  for (const [path, leaf] of leaves(schema)) {
    const types = typesOf(leaf);
    put('object instead', path, { fuzz: [1, { a: null }] });
    put('array instead', path, ['fuzz', 1]);
    if (!types.includes('string')) put('string instead', path, 'fuzz');
    if (!types.includes('number') && !types.includes('integer')) put('number instead', path, 12345);
    if (types.includes('number') || types.includes('integer')) {
      for (const raw of ['2147483648', '9007199254740993', '1e308', '-1e308', '-1', '0.5']) put(raw, path, null, raw);
    }
    if (types.includes('string') || leaf.enum || leaf.const !== undefined) put('1 MB string', path, HUGE);
  }
  return out;
}
