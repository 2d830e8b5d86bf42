// The field-capture walk (test/helpers/walk/kit.ts), over workspaces that also hold their users
// and the CRM's records (assessments and pins hang on the CRM walk's job).
import { crmWalk } from '#test/crm/walk.ts';
import { walkArea } from '#test/helpers/walk/kit.ts';
import { usersWalk } from '#test/workspace/walk.ts';
import { fieldWalk } from './walk.ts';

walkArea(fieldWalk, { after: [usersWalk, crmWalk] });
