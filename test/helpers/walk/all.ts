// Every area's walk, in provisioning order: the users, then the CRM records the other areas hang
// on, then the areas that build on them. Tests that need a workspace holding every kind of record
// (the coverage check, the empty PATCH walk) provision these.
import { billingWalk } from '#test/billing/walk.ts';
import { conditionWalk } from '#test/condition/walk.ts';
import { crmWalk } from '#test/crm/walk.ts';
import { estimatingWalk } from '#test/estimating/walk.ts';
import { fieldWalk } from '#test/field/walk.ts';
import { integrationsWalk } from '#test/integrations/walk.ts';
import { measurementWalk } from '#test/measurement/walk.ts';
import { landscapeWalk } from '#test/measurement/landscape/walk.ts';
import { rebidsWalk } from '#test/operations/rebids/walk.ts';
import { dailyLogsWalk } from '#test/operations/daily-logs/walk.ts';
import { operationsTimeWalk } from '#test/operations/time-entries/walk.ts';
import { operationsWalk } from '#test/operations/walk.ts';
import { reportsWalk } from '#test/reports/walk.ts';
import { usersWalk } from '#test/workspace/walk.ts';
import type { AreaWalk } from './kit.ts';

export const ALL_WALKS: readonly AreaWalk[] = [
  usersWalk,
  crmWalk,
  integrationsWalk,
  estimatingWalk,
  billingWalk,
  operationsWalk,
  rebidsWalk,
  dailyLogsWalk,
  operationsTimeWalk,
  reportsWalk,
  fieldWalk,
  conditionWalk,
  measurementWalk,
  landscapeWalk,
];
