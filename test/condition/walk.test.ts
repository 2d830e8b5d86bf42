// The condition walk, over workspaces that also hold the CRM's sites.
import { crmWalk } from '#test/crm/walk.ts';
import { walkArea } from '#test/helpers/walk/kit.ts';
import { usersWalk } from '#test/workspace/walk.ts';
import { conditionWalk } from './walk.ts';

walkArea(conditionWalk, { after: [usersWalk, crmWalk] });
