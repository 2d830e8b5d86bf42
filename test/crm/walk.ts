// The CRM part of the isolation and permission walk (test/helpers/walk/kit.ts): jobs and their
// details, tags, stages and people, customers, sites, contacts, custom fields, notes, activities,
// follow-ups, search and merges. Provisioned after the users (calls name A's owner).
import { expect } from 'vitest';
import { eventsOf, insertContact } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import type { AreaWalk } from '#test/helpers/walk/kit.ts';

const DIVISIONS = [
  { key: 'paving', name: 'Paving' },
  { key: 'seal', name: 'Sealcoating' },
];

export const crmWalk: AreaWalk = {
  area: 'crm',
  workspace: { settings: { crew_scheduling_enabled: true, customer_portal_enabled: true }, divisions: DIVISIONS },
  /**
   * A customer, a site, two jobs, a tag and a contact, all linked; a second customer, site and
   * person (merge targets); a custom field with values, a note, an activity and follow-ups on the
   * job and the customer.
   */
  async provision({ t, w, label }) {
    const ca = (
      await ok(
        w.api.post('/v1/client-accounts', {
          name: `${label} Customer`,
          external_ref: `${label}-CUST`,
          email: `${label}@c.test`,
        }),
      )
    ).data;
    const loc = (
      await ok(
        w.api.post('/v1/locations', {
          address: `1 ${label} Plaza`,
          external_ref: `${label}-SITE`,
          client_account_id: ca.id,
          property_reference: `${label}-PID`,
        }),
      )
    ).data;
    const job = (
      await ok(
        w.api.post('/v1/jobs', {
          name: `${label} Parking Lot`,
          external_ref: `${label}-JOB`,
          address: `1 ${label} Plaza`,
          client_account_id: ca.id,
          estimated_value: 12500.5,
        }),
      )
    ).data;
    const job2 = (await ok(w.api.post('/v1/jobs', { name: `${label} Second Job` }))).data;
    const tag = (await ok(w.api.post('/v1/job-tags', { name: `${label} Tag`, color: '#112233' }))).data;
    await ok(w.api.post(`/v1/jobs/${job.id}/tags`, { tag_ids: [tag.id] }));
    const contact = await insertContact(t.database, w.firmId, {
      name: `${label} Person`,
      email: `${label}@p.test`,
      client_account_id: ca.id,
    });
    await ok(
      w.api.patch(`/v1/jobs/${job.id}/details`, { linked_contact_id: contact, accounting_job_number: `${label}-ACC` }),
    );
    await ok(
      w.api.patch(`/v1/jobs/${job.id}/operations-assignment`, {
        division: 'paving',
        operations_assignee_user_id: w.ownerId,
      }),
    );
    expect(job.location_id).toBe(loc.id);

    const ca2 = (await ok(w.api.post('/v1/client-accounts', { name: `${label} Other Customer` }))).data;
    const loc2 = (await ok(w.api.post('/v1/locations', { address: `2 ${label} Plaza`, client_account_id: ca2.id })))
      .data;
    const person = (
      await ok(
        w.api.post('/v1/contacts', {
          name: `${label} Second Person`,
          email: `${label}2@p.test`,
          phone: '555-010-2000',
          client_account_id: ca2.id,
        }),
      )
    ).data;
    await ok(w.api.post(`/v1/contacts/${person.id}/links`, { location_id: loc2.id, roles: ['site_contact'] }));
    await ok(w.api.post(`/v1/jobs/${job2.id}/contacts`, { contact_id: person.id, role: 'billing' }));
    const field = (await ok(w.api.post('/v1/custom-fields', { entity_type: 'job', label: `${label} Gate code` }))).data;
    await ok(w.api.patch(`/v1/jobs/${job.id}/custom-fields`, { custom_fields: { [field.key]: '1234' } }));
    const note = (await ok(w.api.post(`/v1/jobs/${job.id}/notes`, { content: `${label} gate is on the north side` })))
      .data;
    await ok(w.api.post(`/v1/contacts/${person.id}/notes`, { content: 'Prefers mornings', type: 'call' }));
    await ok(w.api.post(`/v1/client-accounts/${ca.id}/notes`, { content: 'Pays net 30' }));
    const activity = (
      await ok(
        w.api.post('/v1/activities', {
          type: 'call',
          body: 'Discussed scope',
          source: 'crm',
          external_id: `${label}-ACT-1`,
          associations: { job_id: job.id },
        }),
      )
    ).data;
    const task = (await ok(w.api.post('/v1/tasks', { job_id: job.id, title: 'Call about the gate' }))).data;
    const accountTask = (await ok(w.api.post('/v1/account-tasks', { client_account_id: ca.id }))).data;
    const reminder = (
      await ok(
        w.api.post('/v1/reminders', {
          title: `${label} contract renewal`,
          reminder_type: 'contract_renewal',
          job_id: job.id,
          contact_id: contact,
          due: '2030-05-01',
        }),
      )
    ).data;
    await ok(w.api.patch(`/v1/contacts/${person.id}`, { birthday: '1980-06-15' }));
    // The customer portal, a review and a running follow-up sequence.
    await ok(w.api.post(`/v1/jobs/${job.id}/portal-messages`, { body: `${label} starts Monday` }));
    await ok(w.api.post(`/v1/client-accounts/${ca.id}/portal-link`, {}));
    await ok(w.api.post(`/v1/jobs/${job.id}/review-request`, {}));
    await ok(
      w.api.put('/v1/follow-up-sequence-settings', {
        enabled: true,
        steps: [{ day: 3, kind: 'email', subject: 'About {{job_name}}', body: 'Hi {{customer_name}}' }],
      }),
    );
    await ok(w.api.post(`/v1/jobs/${job.id}/follow-up-sequence/start`, {}));
    const lead = (
      await ok(
        w.api.post('/v1/leads', {
          name: `${label} Lead Person`,
          email: `${label}-lead@l.test`,
          company: `${label} Lead Company`,
          address: `9 ${label} Lead Lane`,
        }),
      )
    ).data;
    const dismissedLead = (await ok(w.api.post('/v1/leads', { name: `${label} Gone Lead`, phone: '6145550999' }))).data;
    await ok(w.api.post(`/v1/leads/${dismissedLead.id}/dismiss`, {}));
    return {
      lead: lead.id,
      dismissedLead: dismissedLead.id,
      job: job.id,
      job2: job2.id,
      ca: ca.id,
      loc: loc.id,
      tag: tag.id,
      contact,
      ca2: ca2.id,
      loc2: loc2.id,
      contact2: person.id,
      channel: person.channels.find((c: any) => c.kind === 'phone')!.id,
      field: field.id,
      note: note.id,
      activity: activity.id,
      task: task.id,
      accountTask: accountTask.id,
      reminder: reminder.id,
    };
  },
  snapshot: (ids) => [
    `/v1/jobs/${ids.job}`,
    `/v1/jobs/${ids.job2}`,
    `/v1/jobs/${ids.job}/details`,
    `/v1/jobs/${ids.job2}/details`,
    `/v1/client-accounts/${ids.ca}`,
    `/v1/locations/${ids.loc}`,
    '/v1/jobs',
    '/v1/client-accounts?include_archived=true',
    '/v1/locations?include_archived=true',
    '/v1/job-tags',
    `/v1/contacts/${ids.contact}`,
    `/v1/contacts/${ids.contact2}`,
    '/v1/contacts?include_archived=true',
    `/v1/jobs/${ids.job}/contacts`,
    `/v1/jobs/${ids.job2}/contacts`,
    `/v1/client-accounts/${ids.ca}/contacts`,
    `/v1/client-accounts/${ids.ca2}/contacts`,
    `/v1/client-accounts/${ids.ca2}`,
    `/v1/locations/${ids.loc2}`,
    '/v1/custom-fields?include_archived=true',
    `/v1/jobs/${ids.job}/notes`,
    `/v1/contacts/${ids.contact2}/notes`,
    `/v1/client-accounts/${ids.ca}/notes`,
    `/v1/notes/${ids.note}`,
    '/v1/activities',
    `/v1/activities/${ids.activity}`,
    '/v1/tasks?status=all',
    `/v1/tasks/${ids.task}`,
    '/v1/account-tasks?status=all',
    `/v1/account-tasks/${ids.accountTask}`,
    '/v1/reminders?status=all',
    `/v1/reminders/${ids.reminder}`,
    `/v1/jobs/${ids.job}/activity`,
    `/v1/jobs/${ids.job2}/activity`,
    `/v1/jobs/${ids.job}/portal-messages`,
    `/v1/client-accounts/${ids.ca}/portal-link`,
    '/v1/reviews',
    '/v1/follow-up-sequence-settings',
    `/v1/jobs/${ids.job}/follow-up-sequence`,
    '/v1/leads',
    `/v1/leads/${ids.lead}`,
    `/v1/leads/${ids.dismissedLead}`,
  ],
  /** The events recorded for the two jobs (the feed shows only some). */
  state: async (t, ids) => (await eventsOf(t.database, ids.job)).length + (await eventsOf(t.database, ids.job2)).length,
  foreignIds: (a, b) => [
    { method: 'GET', path: `/v1/jobs/${a.job}`, error: 'Job not found' },
    // the customer portal, reviews and follow-up sequences
    { method: 'GET', path: `/v1/jobs/${a.job}/portal-messages`, error: 'Job not found' },
    { method: 'POST', path: `/v1/jobs/${a.job}/portal-messages`, body: { body: 'Hijack' }, error: 'Job not found' },
    { method: 'GET', path: `/v1/client-accounts/${a.ca}/portal-link`, error: 'Client account not found' },
    { method: 'POST', path: `/v1/client-accounts/${a.ca}/portal-link`, body: {}, error: 'Client account not found' },
    {
      method: 'POST',
      path: `/v1/client-accounts/${a.ca}/portal-link/disable`,
      body: {},
      error: 'Client account not found',
    },
    {
      method: 'POST',
      path: `/v1/client-accounts/${a.ca}/portal-link/rotate`,
      body: {},
      error: 'Client account not found',
    },
    { method: 'POST', path: `/v1/jobs/${a.job}/review-request`, body: {}, error: 'Job not found' },
    { method: 'GET', path: `/v1/jobs/${a.job}/follow-up-sequence`, error: 'Job not found' },
    { method: 'POST', path: `/v1/jobs/${a.job}/follow-up-sequence/start`, body: {}, error: 'Job not found' },
    { method: 'POST', path: `/v1/jobs/${a.job}/follow-up-sequence/stop`, body: {}, error: 'Job not found' },
    { method: 'PATCH', path: `/v1/jobs/${a.job}`, body: { name: 'Hijacked', notes: 'x' }, error: 'Job not found' },
    { method: 'DELETE', path: `/v1/jobs/${a.job}`, error: 'Job not found' },
    { method: 'POST', path: `/v1/jobs/${a.job}/move`, body: { status: 'won' }, error: 'Job not found' },
    { method: 'POST', path: `/v1/jobs/${a.job}/merge`, body: { into_job_id: b.job2 }, error: 'Job not found' },
    { method: 'POST', path: `/v1/jobs/${b.job2}/merge`, body: { into_job_id: a.job }, error: 'Job not found' },
    { method: 'GET', path: `/v1/jobs/${a.job}/details`, error: 'Job not found' },
    {
      method: 'PATCH',
      path: `/v1/jobs/${a.job}/details`,
      body: { accounting_job_number: 'HIJACK' },
      error: 'Job not found',
    },
    { method: 'PATCH', path: `/v1/jobs/${b.job}/details`, body: { linked_contact_id: a.contact } },
    { method: 'PUT', path: `/v1/jobs/${a.job}/location`, body: { location_id: null }, error: 'Job not found' },
    { method: 'PUT', path: `/v1/jobs/${a.job}/location`, body: { location_id: a.loc }, error: 'Job not found' },
    { method: 'PUT', path: `/v1/jobs/${a.job}/location`, body: { create_from_address: true }, error: 'Job not found' },
    { method: 'PUT', path: `/v1/jobs/${b.job2}/location`, body: { location_id: a.loc } },
    {
      method: 'PATCH',
      path: `/v1/jobs/${a.job}/operations-assignment`,
      body: { division: null },
      error: 'Job not found',
    },
    {
      method: 'PATCH',
      path: `/v1/jobs/${b.job}/operations-assignment`,
      body: { operations_assignee_user_id: a.owner },
    },
    { method: 'DELETE', path: `/v1/jobs/${a.job}/contacts/${a.contact}` },
    { method: 'DELETE', path: `/v1/jobs/${b.job}/contacts/${a.contact}` },
    { method: 'POST', path: `/v1/jobs/${a.job}/tags`, body: { tag_ids: [b.tag] }, error: 'Job not found' },
    { method: 'POST', path: `/v1/jobs/${b.job}/tags`, body: { tag_ids: [a.tag] }, error: 'Tag not found' },
    { method: 'DELETE', path: `/v1/jobs/${a.job}/tags/${a.tag}` },
    { method: 'DELETE', path: `/v1/jobs/${b.job}/tags/${a.tag}` },
    { method: 'GET', path: `/v1/client-accounts/${a.ca}`, error: 'Client account not found' },
    {
      method: 'PATCH',
      path: `/v1/client-accounts/${a.ca}`,
      body: { name: 'Hijacked', archived: true },
      error: 'Client account not found',
    },
    { method: 'GET', path: `/v1/locations/${a.loc}`, error: 'Location not found' },
    {
      method: 'PATCH',
      path: `/v1/locations/${a.loc}`,
      body: { notes: 'x', archived: true },
      error: 'Location not found',
    },
    {
      method: 'PATCH',
      path: `/v1/locations/${b.loc}`,
      body: { client_account_id: a.ca },
      error: 'client_account_id not found in this workspace',
    },
    {
      method: 'POST',
      path: '/v1/jobs',
      body: { name: 'Sneaky job', client_account_id: a.ca },
      error: 'client_account_id not found in this workspace',
    },
    { method: 'POST', path: '/v1/jobs', body: { name: 'Sneaky job 2', client_account_external_ref: 'A-CUST' } },
    { method: 'POST', path: '/v1/jobs', body: { name: 'Sneaky job 3', assigned_to_user_id: a.owner } },
    {
      method: 'POST',
      path: '/v1/locations',
      body: { address: '9 Sneaky St', client_account_id: a.ca },
      error: 'client_account_id not found in this workspace',
    },
    { method: 'POST', path: '/v1/locations', body: { address: '10 Sneaky St', client_account_external_ref: 'A-CUST' } },
    { method: 'PATCH', path: `/v1/jobs/${b.job}`, body: { assigned_to_user_id: a.owner } },
    {
      method: 'PATCH',
      path: `/v1/jobs/${b.job}`,
      body: { client_account_id: a.ca },
      error: 'client_account_id not found in this workspace',
    },
    // contacts, channels, links, people on jobs
    { method: 'GET', path: `/v1/contacts/${a.contact}`, error: 'Contact not found' },
    { method: 'PATCH', path: `/v1/contacts/${a.contact}`, body: { name: 'Hijacked' }, error: 'Contact not found' },
    { method: 'DELETE', path: `/v1/contacts/${a.contact}`, error: 'Contact not found' },
    { method: 'DELETE', path: `/v1/contacts/${a.contact}?hard=true`, error: 'Contact not found' },
    { method: 'POST', path: `/v1/contacts/${a.contact}/restore`, error: 'Contact not found' },
    {
      method: 'POST',
      path: `/v1/contacts/${a.contact2}/channels`,
      body: { kind: 'email', value: 'x@evil.test' },
      error: 'Contact not found',
    },
    {
      method: 'PATCH',
      path: `/v1/contacts/${a.contact2}/channels/${a.channel}`,
      body: { label: 'fax' },
      error: 'Contact not found',
    },
    { method: 'DELETE', path: `/v1/contacts/${a.contact2}/channels/${a.channel}`, error: 'Contact not found' },
    { method: 'PATCH', path: `/v1/contacts/${b.contact2}/channels/${a.channel}`, body: { label: 'fax' } },
    { method: 'DELETE', path: `/v1/contacts/${b.contact2}/channels/${a.channel}` },
    {
      method: 'POST',
      path: `/v1/contacts/${a.contact2}/links`,
      body: { client_account_id: b.ca },
      error: 'Contact not found',
    },
    {
      method: 'POST',
      path: `/v1/contacts/${b.contact2}/links`,
      body: { client_account_id: a.ca },
      error: 'client_account_id not found in this workspace',
    },
    { method: 'POST', path: `/v1/contacts/${b.contact2}/links`, body: { location_id: a.loc } },
    { method: 'DELETE', path: `/v1/contacts/${a.contact2}/links/location/${a.loc2}`, error: 'Contact not found' },
    { method: 'DELETE', path: `/v1/contacts/${b.contact2}/links/location/${a.loc2}` },
    {
      method: 'POST',
      path: '/v1/contacts',
      body: { name: 'Sneaky person', client_account_id: a.ca },
      error: 'client_account_id not found in this workspace',
    },
    {
      method: 'PATCH',
      path: `/v1/contacts/${b.contact2}`,
      body: { client_account_id: a.ca },
      error: 'client_account_id not found in this workspace',
    },
    { method: 'PATCH', path: `/v1/contacts/${b.contact2}`, body: { assigned_user_id: a.owner } },
    { method: 'GET', path: `/v1/jobs/${a.job}/contacts`, error: 'Job not found' },
    { method: 'POST', path: `/v1/jobs/${a.job}/contacts`, body: { contact_id: b.contact2 }, error: 'Job not found' },
    {
      method: 'POST',
      path: `/v1/jobs/${b.job}/contacts`,
      body: { contact_id: a.contact2 },
      error: 'Contact not found',
    },
    { method: 'GET', path: `/v1/client-accounts/${a.ca}/contacts`, error: 'Client account not found' },
    // custom fields
    {
      method: 'PATCH',
      path: `/v1/custom-fields/${a.field}`,
      body: { label: 'Hijacked' },
      error: 'Custom field not found',
    },
    {
      method: 'POST',
      path: `/v1/custom-fields/${a.field}/move`,
      body: { direction: 'down' },
      error: 'Custom field not found',
    },
    { method: 'DELETE', path: `/v1/custom-fields/${a.field}`, error: 'Custom field not found' },
    { method: 'POST', path: `/v1/custom-fields/${a.field}/restore`, error: 'Custom field not found' },
    { method: 'PATCH', path: `/v1/jobs/${a.job}/custom-fields`, body: { custom_fields: {} }, error: 'Job not found' },
    {
      method: 'PATCH',
      path: `/v1/client-accounts/${a.ca}/custom-fields`,
      body: { custom_fields: {} },
      error: 'Client account not found',
    },
    {
      method: 'PATCH',
      path: `/v1/contacts/${a.contact}/custom-fields`,
      body: { custom_fields: {} },
      error: 'Contact not found',
    },
    {
      method: 'PATCH',
      path: `/v1/locations/${a.loc}/custom-fields`,
      body: { custom_fields: {} },
      error: 'Location not found',
    },
    // notes, activities, follow-ups, the job log
    { method: 'POST', path: `/v1/jobs/${a.job}/notes`, body: { content: 'x' }, error: 'Job not found' },
    { method: 'GET', path: `/v1/jobs/${a.job}/notes`, error: 'Job not found' },
    { method: 'POST', path: `/v1/contacts/${a.contact2}/notes`, body: { content: 'x' }, error: 'Contact not found' },
    { method: 'GET', path: `/v1/contacts/${a.contact2}/notes`, error: 'Contact not found' },
    {
      method: 'POST',
      path: `/v1/client-accounts/${a.ca}/notes`,
      body: { content: 'x' },
      error: 'Client account not found',
    },
    { method: 'GET', path: `/v1/client-accounts/${a.ca}/notes`, error: 'Client account not found' },
    { method: 'GET', path: `/v1/notes/${a.note}` },
    { method: 'PATCH', path: `/v1/notes/${a.note}`, body: { content: 'Hijacked' } },
    { method: 'DELETE', path: `/v1/notes/${a.note}` },
    { method: 'GET', path: `/v1/activities/${a.activity}` },
    { method: 'POST', path: '/v1/activities', body: { type: 'call', body: 'x', associations: { job_id: a.job } } },
    {
      method: 'POST',
      path: '/v1/activities',
      body: { type: 'call', body: 'x', associations: { contact_id: a.contact2 } },
    },
    {
      method: 'POST',
      path: '/v1/activities',
      body: { type: 'call', body: 'x', associations: { client_account_id: a.ca } },
    },
    { method: 'GET', path: `/v1/tasks/${a.task}` },
    { method: 'PATCH', path: `/v1/tasks/${a.task}`, body: { title: 'Hijacked' } },
    { method: 'DELETE', path: `/v1/tasks/${a.task}` },
    { method: 'POST', path: '/v1/tasks', body: { job_id: a.job, title: 'x' }, error: 'Job not found' },
    { method: 'POST', path: '/v1/tasks', body: { job_id: b.job, title: 'x', assigned_to_user_id: a.owner } },
    { method: 'GET', path: `/v1/account-tasks/${a.accountTask}` },
    { method: 'PATCH', path: `/v1/account-tasks/${a.accountTask}`, body: { title: 'Hijacked' } },
    { method: 'DELETE', path: `/v1/account-tasks/${a.accountTask}` },
    { method: 'POST', path: '/v1/account-tasks', body: { client_account_id: a.ca } },
    { method: 'GET', path: `/v1/reminders/${a.reminder}`, error: 'Reminder not found' },
    { method: 'PATCH', path: `/v1/reminders/${a.reminder}`, body: { title: 'Hijacked' }, error: 'Reminder not found' },
    { method: 'POST', path: `/v1/reminders/${a.reminder}/complete`, body: {}, error: 'Reminder not found' },
    { method: 'POST', path: `/v1/reminders/${a.reminder}/dismiss`, body: {}, error: 'Reminder not found' },
    { method: 'POST', path: '/v1/reminders', body: { title: 'x', due: '2030-01-01', client_account_id: a.ca } },
    { method: 'POST', path: '/v1/reminders', body: { title: 'x', due: '2030-01-01', job_id: a.job } },
    { method: 'POST', path: '/v1/reminders', body: { title: 'x', due: '2030-01-01', contact_id: a.contact } },
    {
      method: 'POST',
      path: '/v1/reminders',
      body: { title: 'x', due: '2030-01-01', assigned_to_user_id: a.owner },
    },
    { method: 'PATCH', path: `/v1/reminders/${b.reminder}`, body: { assigned_to_user_id: a.owner } },
    { method: 'POST', path: '/v1/follow-ups/bulk', body: { action: 'done', reminder_ids: [a.reminder] } },
    { method: 'POST', path: '/v1/follow-ups/bulk', body: { action: 'done', task_ids: [b.task, a.task] } },
    {
      method: 'POST',
      path: '/v1/follow-ups/bulk',
      body: { action: 'snooze', snooze: '1h', account_task_ids: [a.accountTask] },
    },
    {
      method: 'POST',
      path: '/v1/follow-ups/bulk',
      body: { action: 'reassign', task_ids: [b.task], assigned_to_user_id: a.owner },
    },
    { method: 'POST', path: `/v1/client-accounts/${a.ca}/remind-me`, body: { due_date: '2030-01-01' } },
    { method: 'POST', path: `/v1/contacts/${a.contact2}/remind-me`, body: { due_date: '2030-01-01' } },
    { method: 'POST', path: `/v1/contacts/${a.contact2}/birthday-reminder`, body: {}, error: 'Contact not found' },
    { method: 'GET', path: `/v1/jobs/${a.job}/activity`, error: 'Job not found' },
    // leads
    { method: 'GET', path: `/v1/leads/${a.lead}`, error: 'Lead not found' },
    { method: 'POST', path: `/v1/leads/${a.lead}/contacted`, body: { how: 'call' }, error: 'Lead not found' },
    { method: 'POST', path: `/v1/leads/${a.lead}/assign`, body: { user_id: b.owner }, error: 'Lead not found' },
    { method: 'POST', path: `/v1/leads/${a.lead}/convert`, body: {}, error: 'Lead not found' },
    { method: 'POST', path: `/v1/leads/${a.lead}/dismiss`, body: { spam: true }, error: 'Lead not found' },
    { method: 'POST', path: `/v1/leads/${a.dismissedLead}/restore`, body: {}, error: 'Lead not found' },
    { method: 'POST', path: `/v1/leads/${b.lead}/assign`, body: { user_id: a.owner } },
    {
      method: 'POST',
      path: '/v1/activities',
      body: { type: 'call', body: 'x', associations: { lead_id: a.lead } },
      error: 'Lead not found',
    },
    // merges, in both directions
    { method: 'GET', path: `/v1/client-accounts/${a.ca}/merge-preview?into=${b.ca2}` },
    { method: 'GET', path: `/v1/client-accounts/${b.ca2}/merge-preview?into=${a.ca}` },
    { method: 'POST', path: `/v1/client-accounts/${a.ca}/merge`, body: { into_client_account_id: b.ca2 } },
    { method: 'POST', path: `/v1/client-accounts/${b.ca2}/merge`, body: { into_client_account_id: a.ca } },
    { method: 'GET', path: `/v1/contacts/${a.contact}/merge-preview?into=${b.contact2}` },
    { method: 'POST', path: `/v1/contacts/${a.contact}/merge`, body: { into_contact_id: b.contact2 } },
    { method: 'POST', path: `/v1/contacts/${b.contact2}/merge`, body: { into_contact_id: a.contact } },
    { method: 'GET', path: `/v1/locations/${a.loc}/merge-preview?into=${b.loc2}` },
    { method: 'POST', path: `/v1/locations/${a.loc}/merge`, body: { into_location_id: b.loc2 } },
    { method: 'POST', path: `/v1/locations/${b.loc2}/merge`, body: { into_location_id: a.loc } },
  ],
  async lookups({ A, B }) {
    const a = A.ids;
    const api = B.w.api;
    for (const p of [
      '/v1/jobs?external_ref=A-JOB',
      '/v1/client-accounts?external_ref=A-CUST',
      '/v1/locations?external_ref=A-SITE',
      '/v1/jobs?q=A%20Parking',
      '/v1/client-accounts?q=A%20Customer&include_archived=true',
      '/v1/locations?q=A%20Plaza&include_archived=true',
      '/v1/job-tags?q=A%20Tag',
      '/v1/contacts?q=A%20Second',
      '/v1/contacts?email=a2@p.test',
      `/v1/contacts?client_account_id=${a.ca2}`,
      `/v1/contacts?job_id=${a.job2}`,
      `/v1/activities?job_id=${a.job}`,
      `/v1/tasks?job_id=${a.job}&status=all`,
      `/v1/account-tasks?client_account_id=${a.ca}&status=all`,
      `/v1/reminders?client_account_id=${a.ca}&status=all`,
      `/v1/reminders?job_id=${a.job}&status=all`,
      '/v1/search?q=A%20Parking',
      '/v1/search?q=A%20Second%20Person',
      '/v1/search?q=A%20Other%20Customer',
      '/v1/search?q=2%20A%20Plaza',
      '/v1/search?q=A-PID',
      '/v1/leads?q=A%20Lead',
      `/v1/leads?assigned_to_user_id=${a.owner}`,
    ]) {
      const res = await api.get(p);
      expect(res.status, p).toBe(200);
      expect(res.body.data, p).toEqual([]);
    }

    const ca = await api.post('/v1/client-accounts', { name: 'A Customer', external_ref: 'A-CUST' });
    expect(ca.status).toBe(201);
    expect(ca.body.data.id).not.toBe(a.ca);
    const loc = await api.post('/v1/locations', {
      address: '1 A Plaza',
      external_ref: 'A-SITE',
      client_account_id: ca.body.data.id,
    });
    expect(loc.status).toBe(201);
    expect(loc.body.data.id).not.toBe(a.loc);
    const job = await api.post('/v1/jobs', { name: 'A Parking Lot', external_ref: 'A-JOB' });
    expect(job.status).toBe(201);
    expect(job.body.data.id).not.toBe(a.job);
    const job2 = await api.post('/v1/jobs', { name: 'A Second Job' });
    expect(job2.status).toBe(201);
    const tag = await api.post('/v1/job-tags', { name: 'A Tag' });
    expect(tag.status).toBe(201);
    expect(tag.body.data.id).not.toBe(a.tag);
    const bJob = (await api.get(`/v1/jobs/${B.ids.job}/details`)).body.data;
    const aJob = (await A.w.api.get(`/v1/jobs/${a.job}/details`)).body.data;
    const renumber = await api.patch(`/v1/jobs/${job.body.data.id}/details`, {
      job_number: aJob.job_number === bJob.job_number ? 7777 : aJob.job_number,
    });
    expect(renumber.status).toBe(200);
  },
  routes: {
    'GET /v1/leads': { needs: 'read', path: () => '/v1/leads' },
    'GET /v1/leads/{id}': { needs: 'read', path: (a) => `/v1/leads/${a.lead}` },
    'POST /v1/leads': {
      needs: 'write',
      path: () => '/v1/leads',
      body: () => ({ name: 'Read-only Lead', email: 'ro@l.test' }),
    },
    'POST /v1/leads/{id}/contacted': {
      needs: 'write',
      path: (a) => `/v1/leads/${a.lead}/contacted`,
      body: () => ({ how: 'call' }),
    },
    'POST /v1/leads/{id}/assign': {
      needs: 'write',
      path: (a) => `/v1/leads/${a.lead}/assign`,
      body: (a) => ({ user_id: a.owner }),
    },
    'POST /v1/leads/{id}/convert': { needs: 'write', path: (a) => `/v1/leads/${a.lead}/convert`, body: () => ({}) },
    'POST /v1/leads/{id}/dismiss': {
      needs: 'write',
      path: (a) => `/v1/leads/${a.lead}/dismiss`,
      body: () => ({ spam: true }),
    },
    'POST /v1/leads/{id}/restore': {
      needs: 'write',
      path: (a) => `/v1/leads/${a.dismissedLead}/restore`,
      body: () => ({}),
    },
    'GET /v1/account-tasks': { needs: 'read', path: () => '/v1/account-tasks' },
    'POST /v1/account-tasks': {
      needs: 'write',
      path: () => '/v1/account-tasks',
      body: (a) => ({ client_account_id: a.ca }),
    },
    'GET /v1/account-tasks/{id}': { needs: 'read', path: (a) => `/v1/account-tasks/${a.accountTask}` },
    'PATCH /v1/account-tasks/{id}': {
      needs: 'write',
      path: (a) => `/v1/account-tasks/${a.accountTask}`,
      body: () => ({ title: 'Changed task' }),
    },
    'DELETE /v1/account-tasks/{id}': { needs: 'delete', path: (a) => `/v1/account-tasks/${a.accountTask}` },
    'GET /v1/activities': { needs: 'read', path: () => '/v1/activities' },
    'POST /v1/activities': {
      needs: 'write',
      path: () => '/v1/activities',
      body: (a) => ({ type: 'call', body: 'x', associations: { job_id: a.job } }),
    },
    'GET /v1/activities/{id}': { needs: 'read', path: (a) => `/v1/activities/${a.activity}` },
    'POST /v1/client-accounts/{account_id}/remind-me': {
      needs: 'write',
      path: (a) => `/v1/client-accounts/${a.ca}/remind-me`,
      body: () => ({ due_date: '2030-01-01' }),
    },
    'GET /v1/client-accounts': { needs: 'read', path: () => '/v1/client-accounts' },
    'POST /v1/client-accounts': {
      needs: 'write',
      path: () => '/v1/client-accounts',
      body: () => ({ name: 'Read-only Customer' }),
    },
    'GET /v1/client-accounts/{account_id}/notes': { needs: 'read', path: (a) => `/v1/client-accounts/${a.ca}/notes` },
    'POST /v1/client-accounts/{account_id}/notes': {
      needs: 'write',
      path: (a) => `/v1/client-accounts/${a.ca}/notes`,
      body: () => ({ content: 'Read-only note' }),
    },
    'GET /v1/client-accounts/{id}': { needs: 'read', path: (a) => `/v1/client-accounts/${a.ca}` },
    'PATCH /v1/client-accounts/{id}': {
      needs: 'write',
      path: (a) => `/v1/client-accounts/${a.ca}`,
      body: () => ({ name: 'Renamed', archived: true }),
    },
    'GET /v1/client-accounts/{id}/contacts': { needs: 'read', path: (a) => `/v1/client-accounts/${a.ca}/contacts` },
    'PATCH /v1/client-accounts/{id}/custom-fields': {
      needs: 'write',
      path: (a) => `/v1/client-accounts/${a.ca}/custom-fields`,
      body: () => ({ custom_fields: {} }),
    },
    'POST /v1/client-accounts/{id}/merge': {
      needs: 'delete',
      path: (a) => `/v1/client-accounts/${a.ca}/merge`,
      body: (a) => ({ into_client_account_id: a.ca2 }),
    },
    'GET /v1/client-accounts/{id}/merge-preview': {
      needs: 'read',
      path: (a) => `/v1/client-accounts/${a.ca}/merge-preview`,
      query: (a) => `?into=${a.ca2}`,
    },
    'GET /v1/contacts': { needs: 'read', path: () => '/v1/contacts' },
    'POST /v1/contacts': { needs: 'write', path: () => '/v1/contacts', body: () => ({ name: 'Read-only person' }) },
    'POST /v1/contacts/{contact_id}/remind-me': {
      needs: 'write',
      path: (a) => `/v1/contacts/${a.contact2}/remind-me`,
      body: () => ({ due_date: '2030-01-01' }),
    },
    'POST /v1/contacts/{contact_id}/birthday-reminder': {
      needs: 'write',
      path: (a) => `/v1/contacts/${a.contact2}/birthday-reminder`,
    },
    'GET /v1/contacts/{contact_id}/notes': { needs: 'read', path: (a) => `/v1/contacts/${a.contact2}/notes` },
    'POST /v1/contacts/{contact_id}/notes': {
      needs: 'write',
      path: (a) => `/v1/contacts/${a.contact2}/notes`,
      body: () => ({ content: 'Read-only note' }),
    },
    'GET /v1/contacts/{id}': { needs: 'read', path: (a) => `/v1/contacts/${a.contact2}` },
    'PATCH /v1/contacts/{id}': {
      needs: 'write',
      path: (a) => `/v1/contacts/${a.contact2}`,
      body: () => ({ name: 'Renamed person' }),
    },
    'DELETE /v1/contacts/{id}': {
      needs: 'delete',
      path: (a) => `/v1/contacts/${a.contact2}`,
      noDelete: (a) => [{ path: `/v1/contacts/${a.contact2}` }, { path: `/v1/contacts/${a.contact2}?hard=true` }],
    },
    'POST /v1/contacts/{id}/channels': {
      needs: 'write',
      path: (a) => `/v1/contacts/${a.contact2}/channels`,
      body: () => ({ kind: 'email', value: 'read-only@p.test' }),
    },
    'PATCH /v1/contacts/{id}/channels/{ref}': {
      needs: 'write',
      path: (a) => `/v1/contacts/${a.contact2}/channels/${a.channel}`,
      body: () => ({ label: 'work' }),
    },
    'DELETE /v1/contacts/{id}/channels/{ref}': {
      needs: 'write',
      path: (a) => `/v1/contacts/${a.contact2}/channels/${a.channel}`,
    },
    'PATCH /v1/contacts/{id}/custom-fields': {
      needs: 'write',
      path: (a) => `/v1/contacts/${a.contact2}/custom-fields`,
      body: () => ({ custom_fields: {} }),
    },
    'POST /v1/contacts/{id}/links': {
      needs: 'write',
      path: (a) => `/v1/contacts/${a.contact2}/links`,
      body: (a) => ({ client_account_id: a.ca, roles: ['billing'] }),
    },
    'DELETE /v1/contacts/{id}/links/{kind}/{target_id}': {
      needs: 'write',
      path: (a) => `/v1/contacts/${a.contact2}/links/location/${a.loc2}`,
    },
    'POST /v1/contacts/{id}/merge': {
      needs: 'delete',
      path: (a) => `/v1/contacts/${a.contact2}/merge`,
      body: (a) => ({ into_contact_id: a.contact }),
    },
    'GET /v1/contacts/{id}/merge-preview': {
      needs: 'read',
      path: (a) => `/v1/contacts/${a.contact2}/merge-preview`,
      query: (a) => `?into=${a.contact}`,
    },
    'POST /v1/contacts/{id}/restore': { needs: 'write', path: (a) => `/v1/contacts/${a.contact2}/restore` },
    'GET /v1/custom-fields': { needs: 'read', path: () => '/v1/custom-fields' },
    'POST /v1/custom-fields': {
      needs: 'write',
      path: () => '/v1/custom-fields',
      body: () => ({ entity_type: 'job', label: 'Read-only field' }),
    },
    'PATCH /v1/custom-fields/{id}': {
      needs: 'write',
      path: (a) => `/v1/custom-fields/${a.field}`,
      body: () => ({ label: 'Renamed field' }),
    },
    'DELETE /v1/custom-fields/{id}': { needs: 'delete', path: (a) => `/v1/custom-fields/${a.field}` },
    'POST /v1/custom-fields/{id}/move': {
      needs: 'write',
      path: (a) => `/v1/custom-fields/${a.field}/move`,
      body: () => ({ direction: 'up' }),
    },
    'POST /v1/custom-fields/{id}/restore': { needs: 'write', path: (a) => `/v1/custom-fields/${a.field}/restore` },
    'GET /v1/job-stages': { needs: 'read', path: () => '/v1/job-stages' },
    'GET /v1/job-tags': { needs: 'read', path: () => '/v1/job-tags' },
    'POST /v1/job-tags': { needs: 'write', path: () => '/v1/job-tags', body: () => ({ name: 'Read-only tag' }) },
    'GET /v1/job-types': { needs: 'read', path: () => '/v1/job-types' },
    'GET /v1/jobs': { needs: 'read', path: () => '/v1/jobs' },
    'POST /v1/jobs': { needs: 'write', path: () => '/v1/jobs', body: () => ({ name: 'Read-only job' }) },
    'GET /v1/jobs/{id}': { needs: 'read', path: (a) => `/v1/jobs/${a.job}` },
    'PATCH /v1/jobs/{id}': { needs: 'write', path: (a) => `/v1/jobs/${a.job}`, body: () => ({ name: 'Renamed job' }) },
    'DELETE /v1/jobs/{id}': { needs: 'delete', path: (a) => `/v1/jobs/${a.job}` },
    'PATCH /v1/jobs/{id}/custom-fields': {
      needs: 'write',
      path: (a) => `/v1/jobs/${a.job}/custom-fields`,
      body: () => ({ custom_fields: {} }),
    },
    'POST /v1/jobs/{id}/merge': {
      needs: 'delete',
      path: (a) => `/v1/jobs/${a.job}/merge`,
      body: (a) => ({ into_job_id: a.job2 }),
      noDelete: (a) => [{ path: `/v1/jobs/${a.job2}/merge`, body: { into_job_id: a.job } }],
    },
    'POST /v1/jobs/{id}/move': {
      needs: 'write',
      path: (a) => `/v1/jobs/${a.job}/move`,
      body: () => ({ status: 'won' }),
    },
    'GET /v1/jobs/{job_id}/activity': { needs: 'read', path: (a) => `/v1/jobs/${a.job}/activity` },
    'GET /v1/jobs/{job_id}/contacts': { needs: 'read', path: (a) => `/v1/jobs/${a.job}/contacts` },
    'POST /v1/jobs/{job_id}/contacts': {
      needs: 'write',
      path: (a) => `/v1/jobs/${a.job}/contacts`,
      body: (a) => ({ contact_id: a.contact2 }),
    },
    'DELETE /v1/jobs/{job_id}/contacts/{contact_id}': {
      needs: 'write',
      path: (a) => `/v1/jobs/${a.job}/contacts/${a.contact}`,
    },
    'GET /v1/jobs/{job_id}/details': { needs: 'read', path: (a) => `/v1/jobs/${a.job}/details` },
    'PATCH /v1/jobs/{job_id}/details': {
      needs: 'write',
      path: (a) => `/v1/jobs/${a.job}/details`,
      body: () => ({ accounting_job_number: 'CHANGED' }),
    },
    'PUT /v1/jobs/{job_id}/location': {
      needs: 'write',
      path: (a) => `/v1/jobs/${a.job}/location`,
      body: () => ({ location_id: null }),
    },
    'GET /v1/jobs/{job_id}/notes': { needs: 'read', path: (a) => `/v1/jobs/${a.job}/notes` },
    'POST /v1/jobs/{job_id}/notes': {
      needs: 'write',
      path: (a) => `/v1/jobs/${a.job}/notes`,
      body: () => ({ content: 'Read-only note' }),
    },
    'PATCH /v1/jobs/{job_id}/operations-assignment': {
      needs: 'write',
      path: (a) => `/v1/jobs/${a.job}/operations-assignment`,
      body: () => ({ division: null }),
    },
    'POST /v1/jobs/{job_id}/tags': {
      needs: 'write',
      path: (a) => `/v1/jobs/${a.job}/tags`,
      body: (a) => ({ tag_ids: [a.tag] }),
    },
    'DELETE /v1/jobs/{job_id}/tags/{tag_id}': { needs: 'write', path: (a) => `/v1/jobs/${a.job}/tags/${a.tag}` },
    'GET /v1/locations': { needs: 'read', path: () => '/v1/locations' },
    'POST /v1/locations': { needs: 'write', path: () => '/v1/locations', body: () => ({ address: '1 Read Only Rd' }) },
    'GET /v1/locations/{id}': { needs: 'read', path: (a) => `/v1/locations/${a.loc}` },
    'PATCH /v1/locations/{id}': {
      needs: 'write',
      path: (a) => `/v1/locations/${a.loc}`,
      body: () => ({ notes: 'changed', archived: true }),
    },
    'PATCH /v1/locations/{id}/custom-fields': {
      needs: 'write',
      path: (a) => `/v1/locations/${a.loc}/custom-fields`,
      body: () => ({ custom_fields: {} }),
    },
    'POST /v1/locations/{id}/merge': {
      needs: 'delete',
      path: (a) => `/v1/locations/${a.loc}/merge`,
      body: (a) => ({ into_location_id: a.loc2 }),
    },
    'GET /v1/locations/{id}/merge-preview': {
      needs: 'read',
      path: (a) => `/v1/locations/${a.loc}/merge-preview`,
      query: (a) => `?into=${a.loc2}`,
    },
    'GET /v1/notes/{id}': { needs: 'read', path: (a) => `/v1/notes/${a.note}` },
    'PATCH /v1/notes/{id}': {
      needs: 'write',
      path: (a) => `/v1/notes/${a.note}`,
      body: () => ({ content: 'Changed note' }),
    },
    'DELETE /v1/notes/{id}': { needs: 'delete', path: (a) => `/v1/notes/${a.note}` },
    'POST /v1/follow-ups/bulk': {
      needs: 'write',
      path: () => '/v1/follow-ups/bulk',
      body: (a) => ({ action: 'done', reminder_ids: [a.reminder] }),
    },
    'GET /v1/reminders': { needs: 'read', path: () => '/v1/reminders' },
    'POST /v1/reminders': {
      needs: 'write',
      path: () => '/v1/reminders',
      body: () => ({ title: 'Read-only reminder', due: '2030-01-01' }),
    },
    'GET /v1/reminders/{reminder_id}': { needs: 'read', path: (a) => `/v1/reminders/${a.reminder}` },
    'PATCH /v1/reminders/{reminder_id}': {
      needs: 'write',
      path: (a) => `/v1/reminders/${a.reminder}`,
      body: () => ({ title: 'Changed reminder' }),
    },
    'POST /v1/reminders/{reminder_id}/complete': {
      needs: 'write',
      path: (a) => `/v1/reminders/${a.reminder}/complete`,
    },
    'POST /v1/reminders/{reminder_id}/dismiss': {
      needs: 'write',
      path: (a) => `/v1/reminders/${a.reminder}/dismiss`,
    },
    'GET /v1/search': { needs: 'read', path: () => '/v1/search', query: () => '?q=Parking' },
    'GET /v1/tasks': { needs: 'read', path: () => '/v1/tasks' },
    'POST /v1/tasks': {
      needs: 'write',
      path: () => '/v1/tasks',
      body: (a) => ({ job_id: a.job, title: 'Read-only task' }),
    },
    'GET /v1/tasks/{id}': { needs: 'read', path: (a) => `/v1/tasks/${a.task}` },
    'PATCH /v1/tasks/{id}': {
      needs: 'write',
      path: (a) => `/v1/tasks/${a.task}`,
      body: () => ({ title: 'Changed task' }),
    },
    'DELETE /v1/tasks/{id}': { needs: 'delete', path: (a) => `/v1/tasks/${a.task}` },
    'GET /v1/jobs/{job_id}/portal-messages': { needs: 'read', path: (a) => `/v1/jobs/${a.job}/portal-messages` },
    'POST /v1/jobs/{job_id}/portal-messages': {
      needs: 'write',
      path: (a) => `/v1/jobs/${a.job}/portal-messages`,
      body: () => ({ body: 'Read-only message' }),
    },
    'GET /v1/client-accounts/{id}/portal-link': {
      needs: 'read',
      path: (a) => `/v1/client-accounts/${a.ca}/portal-link`,
    },
    'POST /v1/client-accounts/{id}/portal-link': {
      needs: 'write',
      path: (a) => `/v1/client-accounts/${a.ca2}/portal-link`,
    },
    'POST /v1/client-accounts/{id}/portal-link/disable': {
      needs: 'write',
      path: (a) => `/v1/client-accounts/${a.ca}/portal-link/disable`,
    },
    'POST /v1/client-accounts/{id}/portal-link/rotate': {
      needs: 'write',
      path: (a) => `/v1/client-accounts/${a.ca}/portal-link/rotate`,
    },
    'POST /v1/jobs/{job_id}/review-request': { needs: 'write', path: (a) => `/v1/jobs/${a.job}/review-request` },
    'GET /v1/reviews': { needs: 'read', path: () => '/v1/reviews' },
    'GET /v1/follow-up-sequence-settings': { needs: 'read', path: () => '/v1/follow-up-sequence-settings' },
    'PUT /v1/follow-up-sequence-settings': {
      needs: 'write',
      path: () => '/v1/follow-up-sequence-settings',
      body: () => ({ enabled: false }),
    },
    'GET /v1/jobs/{id}/follow-up-sequence': { needs: 'read', path: (a) => `/v1/jobs/${a.job}/follow-up-sequence` },
    'POST /v1/jobs/{id}/follow-up-sequence/start': {
      needs: 'write',
      path: (a) => `/v1/jobs/${a.job2}/follow-up-sequence/start`,
    },
    'POST /v1/jobs/{id}/follow-up-sequence/stop': {
      needs: 'write',
      path: (a) => `/v1/jobs/${a.job}/follow-up-sequence/stop`,
    },
  },
};
