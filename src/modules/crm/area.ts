// The CRM area (document 2): jobs and their satellites, customers, sites, contacts, custom fields,
// notes, activities, follow-ups, reminders (with the worker task that emails them when due), search
// and merges.
import type { Area } from '#src/area.ts';
import { accountTaskRoutes } from './account-tasks/routes.ts';
import { activityRoutes } from './activities/routes.ts';
import { customersDataset } from './client-accounts/export.ts';
import { clientAccountRoutes } from './client-accounts/routes.ts';
import { contactChannelRoutes } from './contacts/channel-routes.ts';
import { jobPeopleRoutes } from './contacts/job-people-routes.ts';
import { contactLinkRoutes } from './contacts/link-routes.ts';
import { contactRoutes } from './contacts/routes.ts';
import { customFieldRoutes } from './custom-fields/routes.ts';
import { jobActivityMergeMover } from './job-activity/merge-mover.ts';
import { jobActivityRoutes } from './job-activity/routes.ts';
import { jobDetailRoutes } from './job-details/routes.ts';
import { jobStageRoutes } from './job-stages/routes.ts';
import { jobTagRoutes } from './job-tags/routes.ts';
import { leadEscalationTask } from './leads/escalation.ts';
import { leadMergeMovers } from './leads/merge-movers.ts';
import { leadRoutes } from './leads/routes.ts';
import { jobsDataset } from './jobs/export.ts';
import { jobLinkMergeMovers } from './jobs/merge-movers.ts';
import { jobRoutes } from './jobs/routes.ts';
import { jobPayloadPart } from './jobs/webhook-job.ts';
import { propertiesDataset } from './locations/export.ts';
import { locationRoutes } from './locations/routes.ts';
import { contactMergeMovers, customerMergeMovers, siteMergeMovers } from './merges/record-movers.ts';
import { mergeRoutes } from './merges/routes.ts';
import { noteRoutes } from './notes/routes.ts';
import { clientAccountSearch } from './search/types/client-accounts.ts';
import { contactSearch } from './search/types/contacts.ts';
import { jobSearch } from './search/types/jobs.ts';
import { locationSearch } from './search/types/locations.ts';
import { noteSearch } from './search/types/notes.ts';
import { searchRoutes } from './search/routes.ts';
import { taskRoutes } from './tasks/routes.ts';
import { followUpRoutes } from './follow-ups/routes.ts';
import { dueMailTask } from './reminders/due-mail.ts';
import {
  reminderContactMergeMovers,
  reminderCustomerMergeMovers,
  reminderJobMergeMovers,
} from './reminders/merge-movers.ts';
import { reminderRoutes } from './reminders/routes.ts';
import { remindMeRoutes } from './remind-me/routes.ts';
import { followUpSequenceRoutes } from './follow-up-sequences/routes.ts';
import { followUpSequenceTask } from './follow-up-sequences/worker.ts';
import { portalLinkRoutes } from './portal-links/routes.ts';
import { portalMessageRoutes } from './portal-messages/routes.ts';
import { reviewRoutes } from './reviews/routes.ts';
import { portalCustomerMergeMovers, portalJobMergeMovers } from './portal-links/merge-movers.ts';

import { portalPage } from './portal-links/page.ts';
import { reviewPage } from './reviews/page.ts';
export const crmArea: Area = {
  name: 'crm',
  routes: [
    clientAccountRoutes,
    locationRoutes,
    jobStageRoutes,
    jobRoutes,
    jobDetailRoutes,
    jobTagRoutes,
    contactRoutes,
    contactChannelRoutes,
    contactLinkRoutes,
    jobPeopleRoutes,
    leadRoutes,
    customFieldRoutes,
    noteRoutes,
    activityRoutes,
    taskRoutes,
    accountTaskRoutes,
    reminderRoutes,
    followUpRoutes,
    remindMeRoutes,
    jobActivityRoutes,
    searchRoutes,
    mergeRoutes,
    portalMessageRoutes,
    portalLinkRoutes,
    reviewRoutes,
    followUpSequenceRoutes,
  ],
  pages: [portalPage, reviewPage],
  mergeMovers: {
    job: [
      ...jobLinkMergeMovers,
      jobActivityMergeMover,
      ...reminderJobMergeMovers,
      ...portalJobMergeMovers,
      leadMergeMovers.job,
    ],
    client_account: [
      ...customerMergeMovers,
      ...reminderCustomerMergeMovers,
      ...portalCustomerMergeMovers,
      leadMergeMovers.client_account,
    ],
    contact: [...contactMergeMovers, ...reminderContactMergeMovers, leadMergeMovers.contact],
    location: [...siteMergeMovers, leadMergeMovers.location],
  },
  payloadParts: [jobPayloadPart],
  exportDatasets: [customersDataset, propertiesDataset, jobsDataset],
  searchTypes: [jobSearch, clientAccountSearch, contactSearch, locationSearch, noteSearch],
  workerTasks: (env) => [leadEscalationTask(env), dueMailTask(env), followUpSequenceTask(env)],
};
