// The reports walk, over workspaces holding the CRM's jobs and the operations walk's time and costs.
import { crmWalk } from '#test/crm/walk.ts';
import { walkArea } from '#test/helpers/walk/kit.ts';
import { operationsTimeWalk } from '#test/operations/time-entries/walk.ts';
import { operationsWalk } from '#test/operations/walk.ts';
import { usersWalk } from '#test/workspace/walk.ts';
import { reportsWalk } from './walk.ts';

walkArea(reportsWalk, { after: [usersWalk, crmWalk, operationsWalk, operationsTimeWalk] });
