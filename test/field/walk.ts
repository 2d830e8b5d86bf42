// The field-capture part of the isolation and permission walk (test/helpers/walk/kit.ts): photo
// tags and assessment services so far.
import { expect } from 'vitest';
import { ok } from '#test/helpers/records.ts';
import type { AreaWalk } from '#test/helpers/walk/kit.ts';

export const fieldWalk: AreaWalk = {
  area: 'field',
  async provision({ w, label }) {
    const photoTag = (
      await ok(w.api.post('/v1/photo-tags', { name: `${label} Pothole`, color: '#aa0000', description: 'Deep holes' }))
    ).data;
    const spareTag = (await ok(w.api.post('/v1/photo-tags', { name: `${label} Spare` }))).data;
    return { photoTag: photoTag.id, spareTag: spareTag.id };
  },
  snapshot: () => ['/v1/photo-tags', '/v1/assessment-services'],
  foreignIds: (a) => [
    { method: 'PATCH', path: `/v1/photo-tags/${a.photoTag}`, body: { name: 'Hijacked' }, error: 'Photo tag not found' },
    { method: 'DELETE', path: `/v1/photo-tags/${a.photoTag}`, error: 'Photo tag not found' },
  ],
  async lookups({ A, B }) {
    // B may use A's tag names: names are unique per workspace only.
    const same = await B.w.api.post('/v1/photo-tags', { name: 'A Pothole' });
    expect(same.status).toBe(201);
    const listed = (await B.w.api.get('/v1/photo-tags')).body.data.map((tag: { id: number }) => tag.id);
    expect(listed).not.toContain(A.ids.photoTag);
  },
  routes: {
    'GET /v1/assessment-services': { needs: 'read', path: () => '/v1/assessment-services' },
    'GET /v1/photo-tags': { needs: 'read', path: () => '/v1/photo-tags' },
    'POST /v1/photo-tags': { needs: 'write', path: () => '/v1/photo-tags', body: () => ({ name: 'Read-only tag' }) },
    'PATCH /v1/photo-tags/{id}': {
      needs: 'write',
      path: (a) => `/v1/photo-tags/${a.photoTag}`,
      body: () => ({ color: '#00aa00' }),
    },
    'DELETE /v1/photo-tags/{id}': { needs: 'delete', path: (a) => `/v1/photo-tags/${a.spareTag}` },
  },
};
