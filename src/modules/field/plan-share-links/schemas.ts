// Capital plan link schemas (document 2: Capital plan link result: location_id, enabled,
// share_url; POST /v1/locations/{location_id}/plan-share-link, …/disable, …/rotate).
import { type Static, Type } from '@sinclair/typebox';
import { Nullable, One, RecordId } from '#platform/schemas.ts';

export const PlanShareLinkSchema = Type.Object({
  location_id: Type.Integer(),
  enabled: Type.Boolean({ description: 'false until turned on, and after it is turned off' }),
  share_url: Nullable(
    Type.String({ description: "The site's capital plan page (no key needed); null while the link is off" }),
  ),
});

export const PlanLinkParams = Type.Object({ id: RecordId() });
export const OnePlanShareLink = One(PlanShareLinkSchema);

export type PlanShareLinkObject = Static<typeof PlanShareLinkSchema>;
