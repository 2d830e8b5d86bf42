// Key permissions (document 1, Permissions) and the user capabilities that gate writes.
import type { User } from '#db/tables.ts';

export const PERMISSIONS = [
  'read_jobs',
  'write_jobs',
  'delete_records',
  'read_measurements',
  'write_measurements',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const MISSING_PERMISSION_MESSAGE: Record<Permission, string> = {
  read_jobs: 'API key lacks job read permission',
  write_jobs: 'API key lacks job write permission',
  delete_records: 'API key lacks delete permission',
  read_measurements: 'API key lacks measurement read permission',
  write_measurements: 'API key lacks measurement write permission',
};

export const ROLES = ['owner', 'member', 'viewer', 'crew'] as const;
export type Role = (typeof ROLES)[number];
export const ESTIMATING_ROLES = ['admin', 'estimator', 'sales', 'none'] as const;

export const USER_FLAGS = [
  'office_user',
  'schedule_editor',
  'payroll_approver',
  'sees_own_jobs_only',
  'can_delete_jobs',
  'can_view_reports',
  'can_see_pay',
  'can_see_job_costs',
  'pricing_access',
  /** Model runs (landscape detect) for this user's keys; a preference, so an owner can turn it off too. */
  'ai_auto_measure',
] as const;
export type UserFlag = (typeof USER_FLAGS)[number];

/** Defaults when a user is added: an owner can do everything; a new member is an office user. */
export function defaultFlags(role: Role): Record<UserFlag, boolean> & { estimating_role: string } {
  const owner = role === 'owner';
  return {
    office_user: owner || role === 'member',
    schedule_editor: owner,
    payroll_approver: owner,
    sees_own_jobs_only: role === 'crew',
    can_delete_jobs: owner,
    can_view_reports: owner,
    can_see_pay: owner,
    can_see_job_costs: owner,
    pricing_access: owner || role === 'member',
    ai_auto_measure: true,
    estimating_role: owner ? 'admin' : role === 'member' ? 'estimator' : 'none',
  };
}

/** Owners hold every capability whatever their stored flags say. */
export function can(user: User, flag: UserFlag): boolean {
  if (flag === 'sees_own_jobs_only') return user.role !== 'owner' && user.sees_own_jobs_only === 1;
  if (flag === 'ai_auto_measure') return user.ai_auto_measure === 1;
  return user.role === 'owner' || user[flag] === 1;
}
