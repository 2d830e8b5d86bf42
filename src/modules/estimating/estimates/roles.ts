// Who may do what to an estimate (document 1, Roles): the workspace owner and estimating admins
// everything, including overriding the profit floor; estimators build, price, issue and mark won
// or lost; sales create estimates and add or change unit-priced lines. Viewers are refused by the
// platform before any of this runs.
import type { User } from '#db/tables.ts';
import { forbidden } from '#platform/errors.ts';

export const ESTIMATING_ROLES = ['admin', 'estimator', 'sales', 'none'] as const;
export type EstimatingRole = (typeof ESTIMATING_ROLES)[number];

/**
 * Owners act as estimating admins whatever their stored role says. A stored value outside the
 * roles (an older or hand-edited row) grants nothing: it acts as no role.
 */
export function estimatingRoleOf(user: User): EstimatingRole {
  if (user.role === 'owner') return 'admin';
  const stored = user.estimating_role as string | null;
  return (ESTIMATING_ROLES as readonly (string | null)[]).includes(stored) ? (stored as EstimatingRole) : 'none';
}

/** The workspace owner or an estimating admin: changes the catalog, overrides the profit floor. */
export function isEstimatingAdmin(user: User): boolean {
  return estimatingRoleOf(user) === 'admin';
}

export type EstimateAction =
  | 'create' // a new estimate
  | 'unit_line' // add or change a unit-priced line
  | 'build' // detailed lines, cost lines, areas, removing lines
  | 'price' // estimate-level pricing inputs
  | 'recalculate'
  | 'issue'
  | 'decide' // mark won or lost, reopen
  | 'change_order'
  | 'archive';

const ALLOWED: Record<EstimatingRole, ReadonlySet<EstimateAction>> = {
  admin: new Set([
    'create',
    'unit_line',
    'build',
    'price',
    'recalculate',
    'issue',
    'decide',
    'change_order',
    'archive',
  ]),
  estimator: new Set([
    'create',
    'unit_line',
    'build',
    'price',
    'recalculate',
    'issue',
    'decide',
    'change_order',
    'archive',
  ]),
  sales: new Set(['create', 'unit_line', 'recalculate']),
  none: new Set(),
};

const WHAT: Record<EstimateAction, string> = {
  create: 'create estimates',
  unit_line: 'add or change unit-priced lines',
  build: 'build detailed lines and cost lines',
  price: 'change pricing inputs',
  recalculate: 'recalculate estimates',
  issue: 'issue estimates',
  decide: 'mark estimates won or lost',
  change_order: 'start change-order estimates',
  archive: 'archive estimates',
};

export function assertEstimateRole(user: User, action: EstimateAction): void {
  const role = estimatingRoleOf(user);
  if (ALLOWED[role].has(action)) return;
  const message =
    role === 'none'
      ? `The key's user has no estimating role, so cannot ${WHAT[action]}`
      : `The key's user has the ${role} estimating role, which cannot ${WHAT[action]}`;
  // Document 3: answers refusing an issue carry code issue_blocked.
  const code = action === 'issue' ? 'issue_blocked' : 'estimating_role_required';
  throw forbidden(`Estimating role does not allow this`, { code, message, estimating_role: role });
}

export const canOverrideProfitFloor = isEstimatingAdmin;
