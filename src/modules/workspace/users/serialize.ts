// The spec's user object (document 2, Job: assigned_to) and its schema.
import { Type } from '@sinclair/typebox';
import type { User } from '#db/tables.ts';
import { Nullable } from '#platform/schemas.ts';
import { microWire } from '#platform/time.ts';

export const UserSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  username: Nullable(Type.String()),
  email: Type.String(),
  role: Type.String(),
  job_title: Nullable(Type.String()),
  phone_number: Nullable(Type.String()),
  headshot_url: Nullable(Type.String()),
  is_firm_owner: Type.Boolean(),
  created_at: Type.String({ description: 'UTC, microseconds, no suffix' }),
});

export type UserFields = Pick<
  User,
  'id' | 'name' | 'username' | 'email' | 'role' | 'job_title' | 'phone_number' | 'headshot_url' | 'created_at'
>;

export function userObject(u: UserFields) {
  return {
    id: u.id,
    name: u.name,
    username: u.username,
    email: u.email,
    role: u.role,
    job_title: u.job_title,
    phone_number: u.phone_number,
    headshot_url: u.headshot_url,
    is_firm_owner: u.role === 'owner',
    created_at: microWire(u.created_at),
  };
}
