// The types of the test client, derived from the typed client's generated OpenAPI types
// (clients/typescript/src/schema.d.ts, written by `npm run client:generate`), so a test that reads
// a field a response schema does not have, or sends a body its request schema refuses, does not
// compile.
//
// A concrete path — a literal or a template such as `/v1/jobs/${id}/notes?limit=5` — is walked one
// segment at a time over the document's path templates with their parameters written `{}`: a
// segment that is a path's literal text goes there, and any other single segment (a number, a
// string, an id literal such as '999999') is a parameter. The query string is dropped first. So
// `/v1/jobs/${id}` is `/v1/jobs/{id}` and never `/v1/jobs/{id}/notes`, and a literal route wins
// over a parameter, as in the router. A path the document does not have (`/share/…`, `/admin/v1/…`,
// `/v1/nope`), a method it does not list, or a path whose shape is not known (a plain `string`)
// leaves that one call untyped.
import type { components, paths } from '../../clients/typescript/src/schema.d.ts';

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** `/v1/jobs/{job_id}/notes` → `/v1/jobs/{}/notes`. */
type Normalized<K extends string> = K extends `${infer Head}{${string}}${infer Tail}`
  ? `${Head}{}${Normalized<Tail>}`
  : K;

/** The document's path items by normalized template. */
type Routes = { [K in keyof paths as Normalized<K & string>]: paths[K] };

/** Every prefix of every normalized template, ending at a segment (`/v1`, `/v1/jobs`, `/v1/jobs/{}` …). */
type PrefixesOf<K extends string, At extends string = ''> = K extends `/${infer Segment}/${infer Rest}`
  ? `${At}/${Segment}` | PrefixesOf<`/${Rest}`, `${At}/${Segment}`>
  : `${At}${K}`;
type Prefixes = PrefixesOf<keyof Routes & string>;

/** True for a string literal type, false for `string` and template types such as `${number}`. */
// biome-ignore lint/complexity/noBannedTypes: the empty object type tells a literal key from a pattern index
type IsLiteral<S extends string> = {} extends Record<S, 1> ? false : true;

/** The next template prefix after `At` for one concrete segment, or never when it cannot be one segment. */
type Step<At extends string, Segment extends string> = `${At}/${Segment}` extends Prefixes
  ? `${At}/${Segment}`
  : string extends Segment
    ? `${At}/{}`
    : Segment extends `${number}`
      ? `${At}/{}`
      : Segment extends ''
        ? never
        : IsLiteral<Segment> extends true
          ? `${At}/{}`
          : never;

type Walk<Rest extends string, At extends string = ''> = Rest extends `/${infer Segment}/${infer More}`
  ? Walk<`/${More}`, Step<At, Segment>>
  : Rest extends `/${infer Segment}`
    ? Step<At, Segment>
    : never;

type WithoutQuery<P extends string> = P extends `${infer Path}?${string}` ? Path : P;

/** The normalized template a concrete path calls (never when none). */
export type TemplateOf<P extends string> = P extends unknown ? Walk<WithoutQuery<P>> : never;

/** The operation `method` on `path`, or never when the document has none. */
export type OperationOf<P extends string, M extends Method> =
  TemplateOf<P> extends infer T
    ? T extends keyof Routes
      ? Routes[T][M] extends infer O
        ? O extends { responses: unknown }
          ? O
          : never
        : never
      : never
    : never;

type IsNever<T> = [T] extends [never] ? true : false;

type JsonOf<R> = R extends { content: { 'application/json': infer B } }
  ? B
  : R extends { content: object }
    ? // A body that is not JSON (a PDF, a file) stays as the harness reads it.
      any
    : null;

/** The success (2xx) bodies of an operation. */
type SuccessOf<O> = O extends { responses: infer R }
  ? { [C in keyof R]: C extends 200 | 201 | 202 | 204 ? JsonOf<R[C]> : never }[keyof R]
  : never;

/** What a well-formed JSON request body of an operation is. */
type RequestOf<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : O extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B
    : // The operation takes no body: the harness sends `{}`.
      Record<string, never>;

/** The success body of `method` on `path`; any when the document does not have the call. */
export type ResponseOf<P extends string, M extends Method> =
  IsNever<OperationOf<P, M>> extends true ? any : SuccessOf<OperationOf<P, M>>;

/** The request body of `method` on `path`; any when the document does not have the call. */
export type BodyOf<P extends string, M extends Method> =
  IsNever<OperationOf<P, M>> extends true ? any : RequestOf<OperationOf<P, M>>;

/** The spec's error body (document 1, Errors): error, optional message and code, and extra fields. */
export type ErrorBody = components['schemas']['Error'];

/** The error fields as a reply's body shows them beside a success shape: optional, extras unknown. */
type ErrorFields = { error?: string; message?: string; code?: ErrorBody['code'] };
type ErrorExtras = { [extra: string]: unknown };

/**
 * A reply's body: the call's success shape, with the error fields beside it (optional), so a test
 * reads `res.body.code` after asserting a 4xx and `res.body.data.name` after a 2xx.
 */
export type Answer<S> = 0 extends 1 & S
  ? any
  : S extends object
    ? S & Omit<ErrorFields, keyof S> & ErrorExtras
    : ErrorFields & ErrorExtras;
