// What an assistant should know before its first call, in a few lines (document 1, Conventions):
// sent as the server's instructions at initialize, and offered as the `groundwork` prompt and the
// groundwork://guide resource for clients that show those instead.
export const GUIDE_URI = 'groundwork://guide';

export function guideFor(workspace: string): string {
  return [
    `You are connected to "${workspace}", a contractor workspace (paving, sealcoating, landscaping) in Groundwork.`,
    'It holds customers (called client accounts), sites (locations), contacts, jobs in a sales pipeline, follow-ups (tasks), notes, estimates and an event feed.',
    'Every tool acts as the user who owns the API key, with that user’s permissions; a record you cannot see answers 404.',
    'Ids are integers within this workspace. external_ref is the caller’s own id on customers, sites and jobs: creating with one updates the existing match instead of adding a twin.',
    'Money is in dollars with two decimals unless the field ends in _cents. Rates and margins are fractions (0.25 is 25%); probability and percent fields are 0 to 100.',
    'Dates are YYYY-MM-DD; timestamps are UTC ISO 8601 (one without a zone is read as UTC).',
    'Lists take limit (default 50) and offset; each result says how to get the next page. The event feed pages with after=<last id seen>.',
    'Errors come back with the HTTP status and the API’s error body: 400 says which field is wrong, 404 is not found (or not yours), 409 is a conflict such as a duplicate job name (duplicate_job_id names the existing job).',
    'The first-class tools cover common work; search_operations finds any other operation by words and call_operation runs it by name.',
  ].join('\n');
}
