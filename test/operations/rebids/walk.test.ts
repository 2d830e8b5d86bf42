// The re-bids walk, over workspaces that also hold the CRM's sites and jobs.
import { crmWalk } from '#test/crm/walk.ts';
import { estimatingWalk } from '#test/estimating/walk.ts';
import { walkArea } from '#test/helpers/walk/kit.ts';
import { operationsWalk } from '#test/operations/walk.ts';
import { usersWalk } from '#test/workspace/walk.ts';
import { rebidsWalk } from './walk.ts';

walkArea(rebidsWalk, { after: [usersWalk, crmWalk, estimatingWalk, operationsWalk] });
