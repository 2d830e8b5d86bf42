// The tools an assistant is offered by default: the work it does most, each with a one-line
// description in the spec's words. Assistants do badly with a hundred tools, so the rest stay in
// the searchable catalogue (search_operations, call_operation) or come with `toolsets=`.
// A name here that no route carries fails the catalogue test, so a rename cannot go unnoticed.
export const FIRST_CLASS: Readonly<Record<string, string>> = {
  search_records:
    'Search jobs, customers, contacts and sites by words (q, 2 to 120 characters): the best 5 of each type.',

  list_jobs: 'List jobs, newest first; filter by status, assigned_to_user_id, q or updated_after.',
  get_job: 'Read one job: its stage, value, customer, site, contact and dates.',
  create_job:
    'Create a job in the sales pipeline; a same-named job answers 409 with duplicate_job_id unless allow_duplicate_name.',
  update_job: 'Change a job’s sales fields (name, contact, address, value, dates …); only the fields sent change.',
  move_job: 'Move a job to another pipeline stage (status is the stage key from list_job_stages).',
  list_job_stages: 'List the pipeline stages in order with their keys, which move_job and status filters take.',
  get_job_details: 'Read a job’s details: job number, site, tags, bid and contract terms, operations assignment.',
  get_job_activity: 'Read a job’s activity log, newest first (filter by kind).',

  list_client_accounts: 'List customers (client accounts); filter by q or external_ref.',
  get_client_account: 'Read one customer (client account).',
  create_client_account: 'Create a customer (client account), or match one by external_ref, then name.',
  update_client_account: 'Change a customer’s (client account’s) fields; archived true archives it.',

  list_locations: 'List sites (locations), the properties where work is done; filter by client_account_id or q.',
  get_location: 'Read one site (location).',
  create_location: 'Create a site (location) from its address, or match one by external_ref, then address.',

  list_contacts: 'List contacts (people) A to Z; filter by q, email, client_account_id, job_id or updated_after.',
  get_contact: 'Read one contact with their emails and phones, links and jobs.',
  create_contact: 'Create a contact (at least a name, company, email or phone), optionally at a customer.',

  create_job_note: 'Add a note to a job, or log a call, email or meeting on it.',
  list_job_notes: 'List the notes on a job, newest first.',
  create_client_account_note: 'Add a note to a customer, or log a call, email or meeting with them.',
  create_task: 'Add a follow-up to a job (job_id and title; due date and assignee optional).',
  list_tasks: 'List job follow-ups, soonest due first; filter by job_id, status, assignee or due dates.',
  update_task: 'Change a job follow-up; status done completes it, open reopens it.',

  list_work_orders:
    'List work orders (crew visits) by date: start_date and end_date take those with any day in range; include_holds adds holds.',
  create_hold:
    "Hold a crew's days for a job (job_id) or a name: never published or told to the customer; a held or locked crew day is 409 with locks.",
  list_schedule_requests: 'List schedule requests (date, move, skip), newest first; filter by status, kind or job_id.',

  list_events: 'Read the event feed: business events oldest first after a cursor (after=<last id seen>).',
  list_users: 'List the workspace’s users: their ids assign jobs and follow-ups.',

  list_estimates: 'List estimates (summary rows), most recently updated first; filter by job_id or status.',
  get_estimate: 'Read one estimate with its line items and priced totals (version=N reads an issued version).',
  create_estimate: 'Create a draft estimate for a job, optionally from a template.',
  create_estimate_line_item:
    'Add a line to an estimate: a catalog service (service_id) and quantity, or a custom line.',
  recalculate_estimate: 'Re-price an estimate on demand.',
  issue_estimate:
    'Issue an estimate: freeze its next version (estimate_issued, later estimate_revised); nothing is sent.',

  create_estimate_proposal:
    'Make the customer proposal of an estimate (a draft with its customer link), or refresh a draft’s prices.',
  list_proposals: 'List proposals, most recently changed first; filter by estimate_id, job_id or status.',
  get_proposal: 'Read one proposal: totals, wording, sections, its customer link and the signature status.',
  send_proposal:
    'Email the customer the proposal’s link (draft → sent). Emails the customer: confirm the recipient first.',

  run_report:
    'Run an owner report by key (from list_reports) over start..end: its summary lines and tables of typed columns.',
};

/** The toolset that selects the first-class tools (the default when `toolsets` is not given). */
export const DEFAULT_TOOLSET = 'default';
/** Selects every operation as a tool. */
export const ALL_TOOLSETS = 'all';
