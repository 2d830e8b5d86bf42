// Crews (docs/api-decisions.md, "Operations: crews"): the workspace's crews and who is on them.
import { type Static, Type } from '@sinclair/typebox';
import { Body, IdParam, ListOf, Nullable, One, PageQuery, RecordId } from '#platform/schemas.ts';

const Color = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: '#rrggbb' });
const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const MemberIds = Type.Array(RecordId(), { maxItems: 100, uniqueItems: true, description: 'user ids' });

export const Crew = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  color: Type.String(),
  active: Type.Boolean(),
  foreman_user_id: Nullable(Type.Integer()),
  members: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type CrewObject = Static<typeof Crew>;

export const CreateCrewBody = Body(
  {
    name: Name,
    color: Color,
    member_user_ids: MemberIds,
    foreman_user_id: Nullable(RecordId({ description: 'joins the crew when not already on it' })),
  },
  { required: ['name'] },
);
export type CreateCrewInput = Static<typeof CreateCrewBody>;

export const UpdateCrewBody = Body({
  name: Name,
  color: Color,
  active: Type.Boolean({ description: 'false retires the crew: it keeps its work but takes no new work' }),
  member_user_ids: Type.Array(RecordId(), {
    maxItems: 100,
    uniqueItems: true,
    description: 'replaces the members',
  }),
  foreman_user_id: Nullable(RecordId()),
});
export type UpdateCrewInput = Static<typeof UpdateCrewBody>;

export const CrewListQuery = Type.Object(
  {
    active: Type.Optional(Type.Boolean({ description: 'true (default) lists working crews; false retired ones' })),
    ...PageQuery(200),
  },
  { additionalProperties: false },
);

export const CrewParams = IdParam();
export const CrewList = ListOf(Crew);
export const OneCrew = One(Crew);
