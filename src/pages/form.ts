// What a page with a form needs (an access code today; a signature or an answer later): HTML
// forms post application/x-www-form-urlencoded, which Fastify does not parse, and a page that
// remembers a visitor reads its cookie. Both are small enough not to need a plugin.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type TOptional, type TString, Type } from '@sinclair/typebox';

/** Most a page form may post: a few short fields. */
const FORM_BYTES = 8 * 1024;

/**
 * Parses url-encoded form posts into a plain object of their fields (a repeated field keeps its
 * last value). Call inside the page's own plugin (`app.register`), so it is that page's parser only.
 * A page taking free text (a portal message, a review) gives a larger `bodyLimit`: percent-encoded,
 * one character of Chinese or an emoji is 9 to 12 bytes.
 */
export function acceptForms(scope: FastifyInstance, bodyLimit = FORM_BYTES): void {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit },
    (_request, body, done) => {
      const fields: Record<string, string> = Object.create(null);
      for (const [name, value] of new URLSearchParams(body as string)) fields[name] = value;
      done(null, fields);
    },
  );
}

/** A text field of a parsed form post, or '' when the body has none. */
export function formField(body: unknown, name: string): string {
  if (typeof body !== 'object' || body === null) return '';
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
}

/** The value of the cookie `name` the request carries, if any. */
export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    if (part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * The schema of a page form's post: the named text fields, each optional (a browser leaves out an
 * unticked box), nothing else. Validated like an API body (a field the form does not have is a 400
 * page), so a handler reads `request.body.<field>` typed, with no casts.
 */
export function formBody<F extends string>(...fields: readonly F[]) {
  const properties = Object.fromEntries(fields.map((f) => [f, Type.Optional(Type.String())])) as {
    [K in F]: TOptional<TString>;
  };
  return Type.Object(properties, { additionalProperties: false });
}
