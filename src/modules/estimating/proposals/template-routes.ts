// Proposal templates (document 3, Proposals): the starter and saved templates, saving one, and
// applying one's layout, pages and switches to a draft.
import { Type } from '@sinclair/typebox';
import { contextFor, type Env } from '#platform/context.ts';
import { type ApiApp, originOf, READ, WRITE } from '#platform/routes.ts';
import { One } from '#platform/schemas.ts';
import { ApplyTemplateBody, OneProposal, ProposalParams, SaveTemplateBody, TemplateSchema } from './schemas.ts';
import { applyTemplate, listTemplates, saveTemplate } from './templates.ts';

const tags = ['Proposals'];
const params = ProposalParams;

export function proposalTemplateRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.post(
    '/v1/proposals/:id/apply-template',
    {
      config: WRITE,
      schema: {
        tags,
        summary: "Apply a template's layout, pages and display switches to a draft (wording and prices stay)",
        params,
        body: ApplyTemplateBody,
        response: { 200: OneProposal },
      },
    },
    async (request) => ({
      data: await applyTemplate(ctx(request), request.params.id, request.body.template_id, originOf(request)),
    }),
  );

  app.get(
    '/v1/proposal-templates',
    {
      config: READ,
      schema: {
        tags,
        summary: "Proposal templates: the starter set and the workspace's saved ones (string ids)",
        response: { 200: Type.Object({ data: Type.Array(TemplateSchema) }) },
      },
    },
    async (request) => ({ data: await listTemplates(ctx(request)) }),
  );

  app.post(
    '/v1/proposal-templates',
    {
      config: WRITE,
      schema: {
        tags,
        summary: "Save a proposal's layout, pages and display switches as a template",
        body: SaveTemplateBody,
        response: { 201: One(TemplateSchema) },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await saveTemplate(ctx(request), request.body) }),
  );
}
