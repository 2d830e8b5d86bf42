// Admin API bodies (operator side: workspaces, users, keys). Shared by the HTTP routes and the CLI.
import { Type, type TBoolean } from '@sinclair/typebox';
import { ESTIMATING_ROLES, PERMISSIONS, ROLES, USER_FLAGS, type UserFlag } from '#platform/permissions.ts';
import { PLANS, SUBSCRIPTION_STATUSES } from '#platform/plans.ts';
import { Body, Nullable, OneOf, RecordId } from '#platform/schemas.ts';
import { SettingsSchema } from '#platform/workspace.ts';

const Id = RecordId();

const Division = Type.Object(
  { key: Type.String({ minLength: 1, maxLength: 50 }), name: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);
export const StageInput = Body(
  {
    key: Type.String({ minLength: 1, maxLength: 50, pattern: '^[a-z0-9_]+$' }),
    label: Type.String({ minLength: 1, maxLength: 100 }),
    type: OneOf(['open', 'won', 'lost', 'excluded']),
    completed: Type.Boolean({ description: "the workspace's completed stage (at most one)" }),
  },
  { required: ['key', 'label', 'type'] },
);

const profile = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  email: Type.String({ format: 'email', maxLength: 255 }),
  username: Nullable(Type.String({ maxLength: 100 })),
  job_title: Nullable(Type.String({ maxLength: 200 })),
  phone_number: Nullable(Type.String({ maxLength: 50 })),
  headshot_url: Nullable(Type.String({ maxLength: 1000 })),
};
const flags = Object.fromEntries(USER_FLAGS.map((f) => [f, Type.Boolean()])) as Record<UserFlag, TBoolean>;
/** Proposals with a total above this (dollars) wait for an owner's approval before this user sends them; null: no limit. */
const proposalSendLimit = Nullable(Type.Number({ minimum: 0, maximum: 1e9 }));
/** Dollars per hour; snapshotted on each time entry for job cost. */
const payRate = Nullable(Type.Number({ minimum: 0, maximum: 10_000, description: 'dollars per hour' }));

export const OwnerInput = Body(profile, { required: ['name', 'email'] });

const workspaceFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  plan: OneOf(PLANS),
  subscription_status: OneOf(SUBSCRIPTION_STATUSES),
  timezone: Type.String({ minLength: 1, maxLength: 64 }),
  settings: Type.Partial(SettingsSchema, { additionalProperties: false }),
  job_types: Type.Array(Type.String({ minLength: 1, maxLength: 100, pattern: '^[^,]+$' }), {
    maxItems: 200,
    uniqueItems: true,
  }),
  divisions: Type.Array(Division, { maxItems: 100 }),
};

export const CreateWorkspaceInput = Body(
  {
    ...workspaceFields,
    owner: OwnerInput,
    job_stages: Type.Array(StageInput, {
      maxItems: 50,
      description: 'stages added after the built-in lead, active, won, lost',
    }),
    starter_catalog: Type.Boolean({ description: 'give the workspace the starter catalog (default true)' }),
  },
  { required: ['name', 'owner'] },
);

export const UpdateWorkspaceInput = Body(workspaceFields);

export const CreateUserInput = Body(
  {
    ...profile,
    role: OneOf(ROLES),
    estimating_role: OneOf(ESTIMATING_ROLES),
    ...flags,
    proposal_send_limit: proposalSendLimit,
    pay_rate: payRate,
  },
  { required: ['name', 'email'] },
);

export const UpdateUserInput = Body({
  ...profile,
  role: OneOf(ROLES),
  estimating_role: OneOf(ESTIMATING_ROLES),
  ...flags,
  proposal_send_limit: proposalSendLimit,
  pay_rate: payRate,
});

export const CreateKeyInput = Body(
  {
    user_id: Id,
    name: Type.String({ maxLength: 100 }),
    permissions: Type.Array(OneOf(PERMISSIONS), { minItems: 1, uniqueItems: true }),
  },
  { required: ['user_id', 'permissions'] },
);

export const CreatePartnerKeyInput = Body(
  {
    name: Type.String({ maxLength: 100 }),
    grants: Type.Array(Type.Object({ firm_id: Id, user_id: Id }, { additionalProperties: false }), {
      minItems: 1,
      maxItems: 1000,
    }),
    permissions: Type.Array(OneOf(PERMISSIONS), { minItems: 1, uniqueItems: true }),
  },
  { required: ['grants', 'permissions'] },
);
