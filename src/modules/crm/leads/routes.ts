// /v1/leads (document 2, Leads): the inbox list and read, intake, and the lead actions.
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { bodyOptional, IdParam, ListOf, One } from '#platform/schemas.ts';
import { syncWindow } from '#platform/sync.ts';
import { JobSchema } from '#crm/jobs/serialize.ts';
import { AssignBody, ContactedBody, ConvertBody, CreateLeadBody, DismissBody, ListLeadsQuery } from './schemas.ts';
import { LeadSchema } from './serialize.ts';
import {
  assignLead,
  convertLead,
  createLead,
  dismissLead,
  getLead,
  listLeads,
  markContacted,
  restoreLead,
} from './service.ts';

const tags = ['Leads'];
const WRITE = { permissions: ['write_jobs' as const] };
const READ = { permissions: ['read_jobs' as const] };

export function leadRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/leads',
    {
      config: READ,
      schema: {
        tags,
        summary: 'List leads, newest first (with updated_after: oldest change first)',
        querystring: ListLeadsQuery,
        response: { 200: ListOf(LeadSchema) },
      },
    },
    async (request) => {
      const q = request.query;
      const page = pageOf(q);
      const { data, total } = await listLeads(
        ctx(request),
        {
          status: q.status ?? 'all',
          assignedToUserId: q.assigned_to_user_id,
          sourceKind: q.source_kind,
          q: q.q?.trim() || undefined,
          updatedAfter: syncWindow(q.updated_after, 'second'),
        },
        page,
      );
      return listEnvelope(data, total, page);
    },
  );

  app.get(
    '/v1/leads/:id',
    {
      config: READ,
      schema: { tags, summary: 'Read a lead', params: IdParam(), response: { 200: One(LeadSchema) } },
    },
    async (request) => ({ data: await getLead(ctx(request), request.params.id) }),
  );

  app.post(
    '/v1/leads',
    {
      config: WRITE,
      schema: {
        tags,
        summary:
          'Take in a lead: match or create the person and company, open a job, route it, add the Call new lead follow-up and alert the assignee (nothing is sent to the lead)',
        body: CreateLeadBody,
        response: { 201: One(LeadSchema) },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await createLead(ctx(request), request.body) }),
  );

  app.post(
    '/v1/leads/:id/contacted',
    {
      config: WRITE,
      preValidation: bodyOptional,
      schema: {
        tags,
        summary:
          'Record that someone reached out to a new lead (the follow-up closes; the outreach is noted on the person)',
        params: IdParam(),
        body: ContactedBody,
        response: { 200: One(LeadSchema) },
      },
    },
    async (request) => ({ data: await markContacted(ctx(request), request.params.id, request.body) }),
  );

  app.post(
    '/v1/leads/:id/assign',
    {
      config: WRITE,
      preValidation: bodyOptional,
      schema: {
        tags,
        summary: 'Hand a lead to an office teammate (a lead nobody has reached out to emails them the new-lead alert)',
        params: IdParam(),
        body: AssignBody,
        response: { 200: One(LeadSchema) },
      },
    },
    async (request) => ({ data: await assignLead(ctx(request), request.params.id, request.body) }),
  );

  app.post(
    '/v1/leads/:id/convert',
    {
      config: WRITE,
      preValidation: bodyOptional,
      schema: {
        tags,
        summary: 'Move a lead forward: its job goes to the chosen stage or the next open one',
        params: IdParam(),
        body: ConvertBody,
        response: { 200: One(LeadSchema, { job: JobSchema }) },
      },
    },
    async (request) => {
      const { lead, job } = await convertLead(ctx(request), request.params.id, request.body);
      return { data: lead, job };
    },
  );

  app.post(
    '/v1/leads/:id/dismiss',
    {
      config: WRITE,
      preValidation: bodyOptional,
      schema: {
        tags,
        summary:
          'Dismiss a lead, or mark it spam (archiving the contact and company it created when nothing else uses them)',
        params: IdParam(),
        body: DismissBody,
        response: { 200: One(LeadSchema, { message: Type.String() }) },
      },
    },
    async (request) => {
      const { lead, message } = await dismissLead(ctx(request), request.params.id, request.body);
      return { data: lead, message };
    },
  );

  app.post(
    '/v1/leads/:id/restore',
    {
      config: WRITE,
      preValidation: bodyOptional,
      schema: {
        tags,
        summary:
          'Bring a dismissed or spam lead back (an auto-spam lead runs intake again and comes back as a new lead with replaced_lead_id)',
        params: IdParam(),
        body: Type.Object({}, { additionalProperties: false }),
        response: { 200: One(LeadSchema) },
      },
    },
    async (request) => ({ data: await restoreLead(ctx(request), request.params.id) }),
  );
}
