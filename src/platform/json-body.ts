// Request JSON, for /v1 and /admin/v1 alike. No body of this API nests more than a handful of
// levels, so nesting past MAX_JSON_DEPTH is refused before the text is parsed: nothing that walks
// a body afterwards (the NUL guard, validation, custom-field values, serializers) can then run
// out of stack, whatever a client sends.
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.ts';

export const MAX_JSON_DEPTH = 64;

const QUOTE = 34; // "
const BACKSLASH = 92; // \
const OPEN_ARRAY = 91; // [
const OPEN_OBJECT = 123; // {
const CLOSE_ARRAY = 93; // ]
const CLOSE_OBJECT = 125; // }

/**
 * Whether JSON text nests arrays and objects deeper than `limit`, counted in one pass without
 * parsing (brackets inside strings do not count). Malformed text is left to the parser.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}

export const tooDeep = () =>
  badRequest('Request body is nested too deeply', {
    code: 'invalid_request',
    message: `JSON arrays and objects may nest at most ${MAX_JSON_DEPTH} levels deep`,
  });

/** Replaces the default JSON parser with the same one behind the depth check (before any route). */
export function installJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser(
    app.initialConfig.onProtoPoisoning ?? 'error',
    app.initialConfig.onConstructorPoisoning ?? 'error',
  );
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (nestsDeeperThan(body as string, MAX_JSON_DEPTH)) {
      done(tooDeep(), undefined);
      return;
    }
    parse(request, body as string, done);
  });
}
