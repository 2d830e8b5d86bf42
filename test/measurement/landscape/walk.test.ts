// The landscape takeoffs' walk, over workspaces that also hold the CRM's jobs.
import { crmWalk } from '#test/crm/walk.ts';
import { walkArea } from '#test/helpers/walk/kit.ts';
import { usersWalk } from '#test/workspace/walk.ts';
import { landscapeWalk } from './walk.ts';

walkArea(landscapeWalk, { after: [usersWalk, crmWalk] });
