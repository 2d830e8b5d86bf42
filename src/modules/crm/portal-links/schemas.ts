// The customer portal link (docs/api-decisions.md, Customer portal: GET, POST,
// POST …/disable and …/rotate on /v1/client-accounts/{id}/portal-link).
import { type Static, Type } from '@sinclair/typebox';
import { Nullable, One, RecordId } from '#platform/schemas.ts';

export const PortalLinkSchema = Type.Object({
  client_account_id: Type.Integer(),
  enabled: Type.Boolean({ description: 'false until turned on, and after it is turned off' }),
  portal_url: Nullable(
    Type.String({
      description: "The customer's portal page (no key needed): their jobs and messages; null while the link is off",
    }),
  ),
});

export const PortalLinkParams = Type.Object({ id: RecordId() });
export const OnePortalLink = One(PortalLinkSchema);
export type PortalLinkObject = Static<typeof PortalLinkSchema>;
