// The daily logs and reports walk, over workspaces that also hold the CRM's jobs, the estimating
// walk's estimates and the operations walk's crew and work orders.
import { crmWalk } from '#test/crm/walk.ts';
import { estimatingWalk } from '#test/estimating/walk.ts';
import { walkArea } from '#test/helpers/walk/kit.ts';
import { operationsWalk } from '#test/operations/walk.ts';
import { usersWalk } from '#test/workspace/walk.ts';
import { dailyLogsWalk } from './walk.ts';

walkArea(dailyLogsWalk, { after: [usersWalk, crmWalk, estimatingWalk, operationsWalk] });
