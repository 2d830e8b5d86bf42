// The estimating walk, over workspaces that also hold the CRM jobs its estimates are on.
import { crmWalk } from '#test/crm/walk.ts';
import { walkArea } from '#test/helpers/walk/kit.ts';
import { usersWalk } from '#test/workspace/walk.ts';
import { estimatingWalk } from './walk.ts';

walkArea(estimatingWalk, { after: [usersWalk, crmWalk] });
