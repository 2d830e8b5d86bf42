// The condition area's part of the isolation and permission walk (test/helpers/walk/kit.ts): a
// rating of the CRM walk's site, its history read, and the calls that must not reach another
// workspace's site.
import { ok } from '#test/helpers/records.ts';
import type { AreaWalk } from '#test/helpers/walk/kit.ts';
import { scenePhoto } from './ratings/photo.ts';

export const conditionWalk: AreaWalk = {
  area: 'condition',
  async provision({ w, ids }) {
    const photo = (await scenePhoto('clean')).toString('base64');
    const rated = await ok(w.api.post('/v1/condition/pci', { image: photo, location_id: ids.loc }));
    return { conditionPhoto: photo, conditionRating: rated.request_id };
  },
  snapshot: (ids) => [`/v1/locations/${ids.loc}/condition-ratings`],
  foreignIds: (a, b) => [
    { method: 'GET', path: `/v1/locations/${a.loc}/condition-ratings`, error: 'Location not found' },
    {
      method: 'POST',
      path: '/v1/condition/pci',
      body: { image: b.conditionPhoto, location_id: a.loc },
      error: 'Location not found',
    },
    {
      method: 'POST',
      path: '/v1/condition/paser',
      body: { image: b.conditionPhoto, location_id: a.loc },
      error: 'Location not found',
    },
  ],
  routes: {
    'POST /v1/condition/paser': {
      needs: 'measure',
      path: () => '/v1/condition/paser',
      body: (a) => ({ image: a.conditionPhoto }),
    },
    'POST /v1/condition/pci': {
      needs: 'measure',
      path: () => '/v1/condition/pci',
      body: (a) => ({ image: a.conditionPhoto }),
    },
    'GET /v1/locations/{id}/condition-ratings': {
      needs: 'measure',
      path: (a) => `/v1/locations/${a.loc}/condition-ratings`,
    },
  },
};
