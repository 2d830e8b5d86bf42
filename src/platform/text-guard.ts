// PostgreSQL text cannot hold the NUL character (SQLite can), so text with one is refused up
// front with a 400 on both engines, instead of failing inside the database.
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.ts';

/**
 * The path of the first string (or key) holding NUL, or null. Walked with an explicit stack, not
 * recursion: the depth of a value is the client's choice (json-body.ts also bounds it).
 */
function nulField(root: unknown, rootPath: string): string | null {
  const stack: Array<[unknown, string]> = [[root, rootPath]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path || 'body';
    } else if (Array.isArray(value)) {
      // Pushed last to first, so the first offending element is the one reported.
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${path}[${i}]`]);
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      for (const [k] of entries) if (k.includes('\u0000')) return path ? `${path}.${k}` : k;
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, v] = entries[i]!;
        stack.push([v, path ? `${path}.${k}` : k]);
      }
    }
  }
  return null;
}

export function installTextGuard(app: FastifyInstance): void {
  // A callback hook: it never waits, and an async one costs a promise turn on every call.
  app.addHook('preValidation', (request, _reply, done) => {
    const field = nulField(request.query, '') ?? nulField(request.body, '') ?? nulField(request.params, '');
    if (field)
      return done(badRequest(`${field} must not contain NUL (\\u0000) characters`, { code: 'invalid_text', field }));
    done();
  });
}
