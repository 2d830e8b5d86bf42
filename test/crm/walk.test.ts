// The CRM walk (test/helpers/walk/kit.ts), over workspaces that also hold their users.
import { walkArea } from '#test/helpers/walk/kit.ts';
import { usersWalk } from '#test/workspace/walk.ts';
import { crmWalk } from './walk.ts';

walkArea(crmWalk, { after: [usersWalk] });
