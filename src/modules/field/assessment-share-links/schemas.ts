// Assessment report link schemas (document 2: Assessment report link result: assessment_id,
// share_url, scoped, service_type_ids, label; POST /v1/site-assessments/{assessment_id}/share-link).
import { type Static, Type } from '@sinclair/typebox';
import { Body, ListOf, NullableInstant, Nullable, One, PageQuery, RecordId } from '#platform/schemas.ts';

export const LABEL_MAX = 100;
/** The most services one link may name (a workspace has a few dozen). */
export const SERVICES_MAX = 100;

export const AssessmentShareLinkSchema = Type.Object({
  id: Type.Integer(),
  assessment_id: Type.Integer(),
  share_url: Nullable(
    Type.String({ description: 'The page the customer opens (no key needed); null once the link is revoked' }),
  ),
  scoped: Type.Boolean({ description: "true when the link shows only service_type_ids' pins" }),
  service_type_ids: Type.Array(Type.Integer(), {
    description: 'The assessment services a scoped link shows, ascending; empty when it shows every service',
  }),
  label: Nullable(Type.String({ description: "The link's name in this list; not shown to the customer" })),
  revoked_at: NullableInstant(),
  created_at: Type.String({ description: 'UTC, Z' }),
});

export const CreateAssessmentShareLinkBody = Body({
  service_type_ids: Type.Array(RecordId(), {
    minItems: 1,
    maxItems: SERVICES_MAX,
    description:
      'Assessment services (GET /v1/assessment-services) whose pins the link shows; leave out for every service',
  }),
  label: Nullable(Type.String({ maxLength: LABEL_MAX, description: `At most ${LABEL_MAX} characters` })),
});

export const AssessmentLinkParams = Type.Object({ id: RecordId() });
export const RevokeParams = Type.Object({ id: RecordId(), link_id: RecordId() });
export const AssessmentShareLinkListQuery = Type.Object({ ...PageQuery(200) });

export const OneAssessmentShareLink = One(AssessmentShareLinkSchema);
export const AssessmentShareLinkList = ListOf(AssessmentShareLinkSchema);

export type AssessmentShareLinkObject = Static<typeof AssessmentShareLinkSchema>;
export type CreateAssessmentShareLinkInput = Static<typeof CreateAssessmentShareLinkBody>;
