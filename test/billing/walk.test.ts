// The billing walk, over workspaces that also hold the CRM jobs and the estimate its invoices bill.
import { crmWalk } from '#test/crm/walk.ts';
import { estimatingWalk } from '#test/estimating/walk.ts';
import { walkArea } from '#test/helpers/walk/kit.ts';
import { usersWalk } from '#test/workspace/walk.ts';
import { billingWalk } from './walk.ts';

walkArea(billingWalk, { after: [usersWalk, crmWalk, estimatingWalk] });
