// The users' part of the isolation and permission walk (test/helpers/walk/kit.ts).
import { expect } from 'vitest';
import type { AreaWalk } from '#test/helpers/walk/kit.ts';

export const usersWalk: AreaWalk = {
  area: 'users',
  async provision({ w }) {
    return { owner: w.ownerId };
  },
  snapshot: () => ['/v1/users'],
  // No route takes a user id; the calls that name A's owner in a body belong to the areas that take them.
  foreignIds: () => [],
  async lookups({ A, B }) {
    const users = await B.w.api.get('/v1/users');
    expect(users.body.data.map((u: any) => u.id)).not.toContain(A.ids.owner);
  },
  routes: {
    'GET /v1/users': { needs: 'read', path: () => '/v1/users' },
  },
};
