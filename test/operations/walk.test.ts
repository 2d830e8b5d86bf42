// The operations walk, over workspaces that also hold the CRM's jobs and the estimating walk's estimates.
import { crmWalk } from '#test/crm/walk.ts';
import { estimatingWalk } from '#test/estimating/walk.ts';
import { walkArea } from '#test/helpers/walk/kit.ts';
import { usersWalk } from '#test/workspace/walk.ts';
import { operationsWalk } from './walk.ts';

walkArea(operationsWalk, { after: [usersWalk, crmWalk, estimatingWalk] });
