// The crm area's public entry: what other areas, the demo seed and the CLI may use. Everything
// else under src/modules/crm/ is the area's own (test/platform/boundaries.test.ts holds the line).

export { AccountTaskSchema } from './account-tasks/serialize.ts';
export { accountTaskObjectOf, createAccountTask, insertAccountTask } from './account-tasks/service.ts';
export { findClientAccount } from './client-accounts/repo.ts';
export { clientAccountNotFound, upsertClientAccount } from './client-accounts/service.ts';
export { addJobPerson } from './contacts/job-people.ts';
export { createContact } from './contacts/service.ts';
export { type CustomerAlert, queueCustomerAlert } from './customer-alerts/alert.ts';
export { createField, setRecordValues } from './custom-fields/service.ts';
export { startSequenceIn } from './follow-up-sequences/service.ts';
export { saveSequenceSettings, sequenceOn, sequenceSettingsOf } from './follow-up-sequences/settings.ts';
export { logJobActivity } from './job-activity/log.ts';
export { listStages } from './job-stages/repo.ts';
export { findVisibleJob, onVisibleJob, ownedBy, visibleTo } from './jobs/access.ts';
export { jobReadCounts } from './jobs/repo.ts';
export { JobSchema } from './jobs/serialize.ts';
export {
  createJob,
  createJobIn,
  getJob,
  jobNotFound,
  listJobs,
  mergeJobIn,
  moveJob,
  moveJobIn,
} from './jobs/service.ts';
export { markJobBid } from './jobs/report-columns.ts';
export { convertLead, createLead, dismissLead, markContacted } from './leads/service.ts';
export { findLocation } from './locations/repo.ts';
export { locationNotFound, upsertLocation } from './locations/service.ts';
export { ownedLinkMergeMover } from './merges/owned-link-mover.ts';
export { createNote } from './notes/service.ts';
export { enablePortalLink } from './portal-links/service.ts';
export { insertMessage } from './portal-messages/repo.ts';
export { postPortalMessage } from './portal-messages/service.ts';
export { remindMeOnContact } from './remind-me/service.ts';
export { createReminder } from './reminders/service.ts';
export { requestReview } from './reviews/service.ts';
export { submitReview } from './reviews/visit.ts';
export { CANDIDATES, matchCondition, rankOf } from './search/query.ts';
export { rankHits } from './search/registry.ts';
export { createTask } from './tasks/service.ts';
