// The integrations' walk, over workspaces that also hold the CRM records it delivers and exports.
import { crmWalk } from '#test/crm/walk.ts';
import { walkArea } from '#test/helpers/walk/kit.ts';
import { usersWalk } from '#test/workspace/walk.ts';
import { integrationsWalk } from './walk.ts';

walkArea(integrationsWalk, { after: [usersWalk, crmWalk] });
