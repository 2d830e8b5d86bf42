// The tools an assistant is offered by default: the work it does most, each with a one-line
// description in the spec's words. Assistants do badly with a hundred tools, so the rest stay in
// the searchable catalogue (search_operations, call_operation) or come with `toolsets=`.
// A name here that no route carries fails the catalogue test, so a rename cannot go unnoticed.
export const FIRST_CLASS: Readonly<Record<string, string>> = {
  search_records: 'Search jobs, customers, contacts, sites and notes by words (q, 2 to 120 characters).',

  list_jobs: 'List jobs, newest first; filter by status, assigned_to_user_id, q or updated_after.',
  get_job: 'Read one job: its stage, value, customer, site, contact and dates.',
  create_job:
    'Create a job in the sales pipeline; a same-named job answers 409 with duplicate_job_id unless allow_duplicate_name.',
  update_job: 'Change a job’s sales fields: name, contact, address, value, dates, priority and more.',
  move_job: 'Move a job to another pipeline stage (status is the stage key: lead, active, won, lost …).',
  list_job_stages: 'List the pipeline stages and their keys, which move_job and status filters take.',
  get_job_details: 'Read a job’s details: the site, scope notes and its operations assignment.',
  get_job_activity: 'Read a job’s timeline: notes, follow-ups, stage moves and other changes, newest first.',

  list_client_accounts: 'List customers (client accounts); filter by q, external_ref or updated_after.',
  get_client_account: 'Read one customer (client account) with its billing details.',
  create_client_account: 'Create a customer (client account); name is required.',
  update_client_account: 'Change a customer’s (client account’s) fields.',

  list_locations: 'List sites (locations), the properties where work is done.',
  get_location: 'Read one site (location) with its address and coordinates.',
  create_location: 'Create a site (location) from an address, optionally under a customer.',

  list_contacts: 'List contacts (people at customers), filtered by q, customer or updated_after.',
  get_contact: 'Read one contact with their emails, phones and links to customers, sites and jobs.',
  create_contact: 'Create a contact, optionally linked to a customer.',

  create_job_note: 'Add a note to a job’s timeline.',
  list_job_notes: 'List the notes on a job, newest first.',
  create_client_account_note: 'Add a note to a customer (client account).',
  create_task: 'Add a follow-up to a job (job_id and title; due date and assignee optional).',
  list_tasks: 'List job follow-ups; filter by job, assignee, due date or whether they are done.',
  update_task: 'Change a job follow-up, or mark it done.',

  list_events: 'Read the event feed: business events oldest first after a cursor (after=<last id seen>).',
  list_users: 'List the workspace’s users (their ids assign jobs and follow-ups).',

  list_estimates: 'List estimates with their status, job and totals.',
  get_estimate: 'Read one estimate with its line items, priced totals and margin.',
  create_estimate: 'Create a draft estimate for a job.',
  create_estimate_line_item: 'Add a line to an estimate from a catalog service and a quantity; it is priced at once.',
  recalculate_estimate: 'Re-price an estimate from the current catalog and price list.',
  issue_estimate: 'Issue an estimate: freezes the next version and records estimate_issued; nothing is sent.',
};

/** The toolset that selects the first-class tools (the default when `toolsets` is not given). */
export const DEFAULT_TOOLSET = 'default';
/** Selects every operation as a tool. */
export const ALL_TOOLSETS = 'all';
