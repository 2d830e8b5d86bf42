// PostgreSQL text cannot hold the NUL character (SQLite can), so text with one is refused up
// front with a 400 on both engines, instead of failing inside the database.
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.ts';

function nulField(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || 'body' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = nulField(value[i], `${path}[${i}]`);
      if (hit) return hit;
    }
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes('\u0000')) return path ? `${path}.${k}` : k;
      const hit = nulField(v, path ? `${path}.${k}` : k);
      if (hit) return hit;
    }
  }
  return null;
}

export function installTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const field = nulField(request.query, '') ?? nulField(request.body, '') ?? nulField(request.params, '');
    if (field) throw badRequest(`${field} must not contain NUL (\\u0000) characters`, { code: 'invalid_text', field });
  });
}
