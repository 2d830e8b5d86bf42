// The operations walk's time and job-cost part, over workspaces that hold the CRM's jobs.
import { crmWalk } from '#test/crm/walk.ts';
import { walkArea } from '#test/helpers/walk/kit.ts';
import { usersWalk } from '#test/workspace/walk.ts';
import { operationsWalk } from '../walk.ts';
import { operationsTimeWalk } from './walk.ts';

walkArea(operationsTimeWalk, { after: [usersWalk, crmWalk, operationsWalk] });
