// The field-capture walk (test/helpers/walk/kit.ts), over workspaces that also hold their users.
// Photos and assessments will need the CRM's jobs: add crmWalk to `after` with them.
import { walkArea } from '#test/helpers/walk/kit.ts';
import { usersWalk } from '#test/workspace/walk.ts';
import { fieldWalk } from './walk.ts';

walkArea(fieldWalk, { after: [usersWalk] });
