// The estimating part of the isolation and permission walk (test/helpers/walk/kit.ts): the catalog,
// price lists, templates and estimates. Provisioned after CRM (estimates are on its jobs).
import { ok } from '#test/helpers/records.ts';
import type { AreaWalk } from '#test/helpers/walk/kit.ts';

export const estimatingWalk: AreaWalk = {
  area: 'estimating',
  async provision({ w, ids }) {
    // Every workspace starts with the starter catalog: take its records.
    const service = (await ok(w.api.get('/v1/catalog/services?q=crack'))).data[0];
    const serviceFull = (await ok(w.api.get(`/v1/catalog/services/${service.id}`))).data;
    const item = (await ok(w.api.get('/v1/catalog/items?kind=truck'))).data[0];
    const priceList = (await ok(w.api.get('/v1/price-lists'))).data[0];
    const template = (await ok(w.api.get('/v1/estimate-templates'))).data[0];
    // A draft estimate with a detailed line (cost lines), and an issued and won one (versions, award, change orders).
    const estimate = (await ok(w.api.post('/v1/estimates', { job_id: ids.job }))).data;
    const overlay = (await ok(w.api.get('/v1/catalog/services?q=mill'))).data[0];
    const added = await ok(
      w.api.post(`/v1/estimates/${estimate.id}/line-items`, { service_id: overlay.id, quantity: 1000 }),
    );
    const lineFull = (await ok(w.api.get(`/v1/estimates/${estimate.id}/line-items/${added.line_item_id}`))).data;
    const issued = (await ok(w.api.post('/v1/estimates', { job_id: ids.job2, template_id: template.id }))).data;
    await ok(w.api.post(`/v1/estimates/${issued.id}/line-items`, { service_id: overlay.id, quantity: 500 }));
    await ok(w.api.post(`/v1/estimates/${issued.id}/issue`, {}));
    await ok(w.api.post(`/v1/estimates/${issued.id}/mark-won`, {}));
    // The draft estimate's proposal (a draft: every edit route takes it).
    const proposal = (await ok(w.api.post(`/v1/estimates/${estimate.id}/proposal`, {}))).data;
    return {
      proposal: proposal.id,
      service: service.id,
      serviceCostLine: serviceFull.cost_lines[0].id,
      item: item.id,
      priceList: priceList.id,
      template: template.id,
      estimate: estimate.id,
      estimateLine: added.line_item_id,
      estimateCostLine: lineFull.cost_lines[0].id,
      issuedEstimate: issued.id,
    };
  },
  snapshot: (ids) => [
    '/v1/catalog/services?include_archived=true',
    `/v1/catalog/services/${ids.service}`,
    '/v1/catalog/items?include_archived=true',
    `/v1/catalog/items/${ids.item}`,
    '/v1/price-lists?include_archived=true',
    `/v1/price-lists/${ids.priceList}`,
    '/v1/estimate-templates?include_archived=true',
    `/v1/estimate-templates/${ids.template}`,
    '/v1/estimates?include_archived=true',
    `/v1/estimates/${ids.estimate}`,
    `/v1/estimates/${ids.issuedEstimate}`,
    `/v1/estimates/${ids.issuedEstimate}?version=1`,
    `/v1/estimates/${ids.estimate}/line-items/${ids.estimateLine}`,
    `/v1/estimates/${ids.issuedEstimate}/versions`,
    `/v1/estimates/${ids.estimate}/revisions`,
    '/v1/exports/estimates.jsonl',
    '/v1/exports/estimate_lines.jsonl',
    '/v1/proposals',
    `/v1/proposals/${ids.proposal}`,
    `/v1/proposals/${ids.proposal}/signature`,
    '/v1/proposal-templates',
  ],
  foreignIds: (a, b) => [
    // the catalog
    { method: 'GET', path: `/v1/catalog/services/${a.service}` },
    { method: 'PATCH', path: `/v1/catalog/services/${a.service}`, body: { cost_code: 'HIJACK' } },
    { method: 'DELETE', path: `/v1/catalog/services/${a.service}` },
    {
      method: 'POST',
      path: `/v1/catalog/services/${a.service}/cost-lines`,
      body: { type: 'misc', name: 'm', unit: 'EA', unit_cost: 1 },
    },
    {
      method: 'PATCH',
      path: `/v1/catalog/services/${a.service}/cost-lines/${a.serviceCostLine}`,
      body: { waste_factor: 0.5 },
    },
    { method: 'DELETE', path: `/v1/catalog/services/${a.service}/cost-lines/${a.serviceCostLine}` },
    {
      method: 'PATCH',
      path: `/v1/catalog/services/${b.service}/cost-lines/${a.serviceCostLine}`,
      body: { waste_factor: 0.5 },
    },
    {
      method: 'POST',
      path: `/v1/catalog/services/${b.service}/cost-lines`,
      body: { type: 'equipment', catalog_item_id: a.item, name: 'e', unit: 'HR', unit_cost: 1 },
    },
    { method: 'GET', path: `/v1/catalog/items/${a.item}` },
    { method: 'PATCH', path: `/v1/catalog/items/${a.item}`, body: { unit_cost: 2 } },
    { method: 'DELETE', path: `/v1/catalog/items/${a.item}` },
    { method: 'GET', path: `/v1/price-lists/${a.priceList}` },
    { method: 'PATCH', path: `/v1/price-lists/${a.priceList}`, body: { description: 'x' } },
    { method: 'DELETE', path: `/v1/price-lists/${a.priceList}` },
    { method: 'GET', path: `/v1/estimate-templates/${a.template}` },
    { method: 'PATCH', path: `/v1/estimate-templates/${a.template}`, body: { description: 'x' } },
    { method: 'DELETE', path: `/v1/estimate-templates/${a.template}` },
    {
      method: 'POST',
      path: '/v1/estimate-templates',
      body: { name: 'Sneaky tpl', areas: [{ name: 'A', services: [{ service_id: a.service, quantity: 1 }] }] },
    },
    // estimates
    { method: 'POST', path: '/v1/estimates', body: { job_id: a.job }, error: 'Job not found' },
    { method: 'POST', path: '/v1/estimates', body: { job_id: b.job, template_id: a.template } },
    { method: 'GET', path: `/v1/estimates/${a.estimate}`, error: 'Estimate not found' },
    { method: 'GET', path: `/v1/estimates/${a.issuedEstimate}?version=1`, error: 'Estimate not found' },
    { method: 'PATCH', path: `/v1/estimates/${a.estimate}`, body: { markup_rate: 0.9 }, error: 'Estimate not found' },
    { method: 'PATCH', path: `/v1/estimates/${b.estimate}`, body: { price_list_id: a.priceList } },
    { method: 'DELETE', path: `/v1/estimates/${a.estimate}`, error: 'Estimate not found' },
    { method: 'GET', path: `/v1/estimates/${a.issuedEstimate}/versions`, error: 'Estimate not found' },
    { method: 'GET', path: `/v1/estimates/${a.estimate}/revisions`, error: 'Estimate not found' },
    { method: 'GET', path: `/v1/estimates/${a.issuedEstimate}/award`, error: 'Estimate not found' },
    {
      method: 'POST',
      path: `/v1/estimates/${a.estimate}/line-items`,
      body: { service_id: b.service, quantity: 1 },
      error: 'Estimate not found',
    },
    {
      method: 'POST',
      path: `/v1/estimates/${b.estimate}/line-items`,
      body: { service_id: a.service, quantity: 1 },
      error: 'Catalog service not found',
    },
    { method: 'GET', path: `/v1/estimates/${a.estimate}/line-items/${a.estimateLine}`, error: 'Estimate not found' },
    { method: 'GET', path: `/v1/estimates/${b.estimate}/line-items/${a.estimateLine}`, error: 'Line item not found' },
    {
      method: 'PATCH',
      path: `/v1/estimates/${a.estimate}/line-items/${a.estimateLine}`,
      body: { quantity: 1 },
      error: 'Estimate not found',
    },
    {
      method: 'PATCH',
      path: `/v1/estimates/${b.estimate}/line-items/${a.estimateLine}`,
      body: { quantity: 1 },
      error: 'Line item not found',
    },
    {
      method: 'PATCH',
      path: `/v1/estimates/${b.estimate}/line-items/${b.estimateLine}`,
      body: { cost_lines: [{ id: a.estimateCostLine, manual_quantity: 1 }] },
      error: 'Cost line not found',
    },
    {
      method: 'PATCH',
      path: `/v1/estimates/${b.estimate}/line-items/${b.estimateLine}`,
      body: { cost_lines: [{ type: 'equipment', catalog_item_id: a.item }] },
      error: 'Catalog item not found',
    },
    { method: 'DELETE', path: `/v1/estimates/${a.estimate}/line-items/${a.estimateLine}`, error: 'Estimate not found' },
    {
      method: 'DELETE',
      path: `/v1/estimates/${b.estimate}/line-items/${a.estimateLine}`,
      error: 'Line item not found',
    },
    { method: 'POST', path: `/v1/estimates/${a.estimate}/issue`, body: {}, error: 'Estimate not found' },
    { method: 'POST', path: `/v1/estimates/${a.issuedEstimate}/mark-won`, error: 'Estimate not found' },
    { method: 'POST', path: `/v1/estimates/${a.issuedEstimate}/mark-lost`, body: {}, error: 'Estimate not found' },
    { method: 'POST', path: `/v1/estimates/${a.issuedEstimate}/reopen`, error: 'Estimate not found' },
    { method: 'POST', path: `/v1/estimates/${a.estimate}/recalculate`, error: 'Estimate not found' },
    { method: 'POST', path: `/v1/estimates/${a.issuedEstimate}/change-orders`, body: {}, error: 'Estimate not found' },
    // proposals
    { method: 'POST', path: `/v1/estimates/${a.estimate}/proposal`, body: {}, error: 'Estimate not found' },
    { method: 'GET', path: `/v1/proposals/${a.proposal}`, error: 'Proposal not found' },
    { method: 'GET', path: `/v1/proposals/${a.proposal}/signature`, error: 'Proposal not found' },
    { method: 'GET', path: `/v1/proposals/${a.proposal}/pdf`, error: 'Proposal not found' },
    { method: 'PATCH', path: `/v1/proposals/${a.proposal}`, body: { title: 'Hijack' }, error: 'Proposal not found' },
    {
      method: 'POST',
      path: `/v1/proposals/${a.proposal}/share-link`,
      body: { regenerate: true },
      error: 'Proposal not found',
    },
    {
      method: 'PATCH',
      path: `/v1/proposals/${a.proposal}/link`,
      body: { enabled: false },
      error: 'Proposal not found',
    },
    {
      method: 'POST',
      path: `/v1/proposals/${a.proposal}/apply-template`,
      body: { template_id: 'simple' },
      error: 'Proposal not found',
    },
    {
      method: 'POST',
      path: `/v1/proposals/${a.proposal}/send`,
      body: { to: 'x@example.com' },
      error: 'Proposal not found',
    },
    {
      method: 'POST',
      path: `/v1/proposals/${a.proposal}/approval`,
      body: { decision: 'approve' },
      error: 'Proposal not found',
    },
    { method: 'POST', path: `/v1/proposals/${a.proposal}/void`, body: {}, error: 'Proposal not found' },
    {
      method: 'POST',
      path: '/v1/proposal-templates',
      body: { name: 'Stolen layout', proposal_id: a.proposal },
      error: 'Proposal not found',
    },
  ],
  routes: {
    'GET /v1/catalog/items': { needs: 'read', path: () => '/v1/catalog/items' },
    'POST /v1/catalog/items': {
      needs: 'write',
      path: () => '/v1/catalog/items',
      body: () => ({ kind: 'other', name: 'RO item', unit: 'EA', unit_cost: 1 }),
    },
    'GET /v1/catalog/items/{id}': { needs: 'read', path: (a) => `/v1/catalog/items/${a.item}` },
    'PATCH /v1/catalog/items/{id}': {
      needs: 'write',
      path: (a) => `/v1/catalog/items/${a.item}`,
      body: () => ({ unit_cost: 2 }),
    },
    'DELETE /v1/catalog/items/{id}': { needs: 'delete', path: (a) => `/v1/catalog/items/${a.item}` },
    'GET /v1/catalog/services': { needs: 'read', path: () => '/v1/catalog/services' },
    'POST /v1/catalog/services': {
      needs: 'write',
      path: () => '/v1/catalog/services',
      body: () => ({ name: 'RO svc', unit: 'EA', estimating_mode: 'unit_costing' }),
    },
    'GET /v1/catalog/services/{id}': { needs: 'read', path: (a) => `/v1/catalog/services/${a.service}` },
    'PATCH /v1/catalog/services/{id}': {
      needs: 'write',
      path: (a) => `/v1/catalog/services/${a.service}`,
      body: () => ({ cost_code: 'X' }),
    },
    'DELETE /v1/catalog/services/{id}': { needs: 'delete', path: (a) => `/v1/catalog/services/${a.service}` },
    'POST /v1/catalog/services/{id}/cost-lines': {
      needs: 'write',
      path: (a) => `/v1/catalog/services/${a.service}/cost-lines`,
      body: () => ({ type: 'misc', name: 'm', unit: 'EA', unit_cost: 1 }),
    },
    'PATCH /v1/catalog/services/{id}/cost-lines/{line_id}': {
      needs: 'write',
      path: (a) => `/v1/catalog/services/${a.service}/cost-lines/${a.serviceCostLine}`,
      body: () => ({ waste_factor: 0.1 }),
    },
    'DELETE /v1/catalog/services/{id}/cost-lines/{line_id}': {
      needs: 'delete',
      path: (a) => `/v1/catalog/services/${a.service}/cost-lines/${a.serviceCostLine}`,
    },
    'GET /v1/estimate-templates': { needs: 'read', path: () => '/v1/estimate-templates' },
    'POST /v1/estimate-templates': {
      needs: 'write',
      path: () => '/v1/estimate-templates',
      body: () => ({ name: 'RO tpl', areas: [{ name: 'A', services: [] }] }),
    },
    'GET /v1/estimate-templates/{id}': { needs: 'read', path: (a) => `/v1/estimate-templates/${a.template}` },
    'PATCH /v1/estimate-templates/{id}': {
      needs: 'write',
      path: (a) => `/v1/estimate-templates/${a.template}`,
      body: () => ({ description: 'x' }),
    },
    'DELETE /v1/estimate-templates/{id}': { needs: 'delete', path: (a) => `/v1/estimate-templates/${a.template}` },
    'GET /v1/estimates': { needs: 'read', path: () => '/v1/estimates' },
    'POST /v1/estimates': { needs: 'write', path: () => '/v1/estimates', body: (a) => ({ job_id: a.job }) },
    'POST /v1/estimates/{estimate_id}/change-orders': {
      needs: 'write',
      path: (a) => `/v1/estimates/${a.issuedEstimate}/change-orders`,
    },
    'GET /v1/estimates/{id}': { needs: 'read', path: (a) => `/v1/estimates/${a.estimate}` },
    'PATCH /v1/estimates/{id}': {
      needs: 'write',
      path: (a) => `/v1/estimates/${a.estimate}`,
      body: () => ({ markup_rate: 0.5 }),
    },
    'DELETE /v1/estimates/{id}': { needs: 'delete', path: (a) => `/v1/estimates/${a.estimate}` },
    'GET /v1/estimates/{id}/award': { needs: 'read', path: (a) => `/v1/estimates/${a.issuedEstimate}/award` },
    'POST /v1/estimates/{id}/issue': { needs: 'write', path: (a) => `/v1/estimates/${a.estimate}/issue` },
    'POST /v1/estimates/{id}/line-items': {
      needs: 'write',
      path: (a) => `/v1/estimates/${a.estimate}/line-items`,
      body: (a) => ({ service_id: a.service, quantity: 10 }),
    },
    'GET /v1/estimates/{id}/line-items/{line_item_id}': {
      needs: 'read',
      path: (a) => `/v1/estimates/${a.estimate}/line-items/${a.estimateLine}`,
    },
    'PATCH /v1/estimates/{id}/line-items/{line_item_id}': {
      needs: 'write',
      path: (a) => `/v1/estimates/${a.estimate}/line-items/${a.estimateLine}`,
      body: () => ({ quantity: 5 }),
    },
    'DELETE /v1/estimates/{id}/line-items/{line_item_id}': {
      needs: 'delete',
      path: (a) => `/v1/estimates/${a.estimate}/line-items/${a.estimateLine}`,
    },
    'POST /v1/estimates/{id}/mark-lost': { needs: 'write', path: (a) => `/v1/estimates/${a.issuedEstimate}/mark-lost` },
    'POST /v1/estimates/{id}/mark-won': { needs: 'write', path: (a) => `/v1/estimates/${a.issuedEstimate}/mark-won` },
    'POST /v1/estimates/{id}/recalculate': { needs: 'write', path: (a) => `/v1/estimates/${a.estimate}/recalculate` },
    'POST /v1/estimates/{id}/reopen': { needs: 'write', path: (a) => `/v1/estimates/${a.issuedEstimate}/reopen` },
    'GET /v1/estimates/{id}/revisions': { needs: 'read', path: (a) => `/v1/estimates/${a.estimate}/revisions` },
    'GET /v1/estimates/{id}/versions': { needs: 'read', path: (a) => `/v1/estimates/${a.issuedEstimate}/versions` },
    'GET /v1/price-lists': { needs: 'read', path: () => '/v1/price-lists' },
    'POST /v1/price-lists': { needs: 'write', path: () => '/v1/price-lists', body: () => ({ name: 'RO list' }) },
    'GET /v1/price-lists/{id}': { needs: 'read', path: (a) => `/v1/price-lists/${a.priceList}` },
    'PATCH /v1/price-lists/{id}': {
      needs: 'write',
      path: (a) => `/v1/price-lists/${a.priceList}`,
      body: () => ({ description: 'x' }),
    },
    'DELETE /v1/price-lists/{id}': { needs: 'delete', path: (a) => `/v1/price-lists/${a.priceList}` },
    'POST /v1/estimates/{id}/proposal': { needs: 'write', path: (a) => `/v1/estimates/${a.estimate}/proposal` },
    'GET /v1/proposals': { needs: 'read', path: () => '/v1/proposals' },
    'GET /v1/proposals/{id}': { needs: 'read', path: (a) => `/v1/proposals/${a.proposal}` },
    'GET /v1/proposals/{id}/signature': { needs: 'read', path: (a) => `/v1/proposals/${a.proposal}/signature` },
    'GET /v1/proposals/{id}/pdf': { needs: 'read', path: (a) => `/v1/proposals/${a.proposal}/pdf` },
    'PATCH /v1/proposals/{id}': {
      needs: 'write',
      path: (a) => `/v1/proposals/${a.proposal}`,
      body: () => ({ title: 'Read-only edit' }),
    },
    'POST /v1/proposals/{id}/share-link': { needs: 'write', path: (a) => `/v1/proposals/${a.proposal}/share-link` },
    'PATCH /v1/proposals/{id}/link': {
      needs: 'write',
      path: (a) => `/v1/proposals/${a.proposal}/link`,
      body: () => ({ enabled: true }),
    },
    'POST /v1/proposals/{id}/apply-template': {
      needs: 'write',
      path: (a) => `/v1/proposals/${a.proposal}/apply-template`,
      body: () => ({ template_id: 'standard' }),
    },
    'POST /v1/proposals/{id}/send': {
      needs: 'write',
      path: (a) => `/v1/proposals/${a.proposal}/send`,
      body: () => ({ to: 'walk@example.com' }),
    },
    'POST /v1/proposals/{id}/approval': {
      needs: 'write',
      path: (a) => `/v1/proposals/${a.proposal}/approval`,
      body: () => ({ decision: 'approve' }),
    },
    'POST /v1/proposals/{id}/void': { needs: 'write', path: (a) => `/v1/proposals/${a.proposal}/void` },
    'GET /v1/proposal-templates': { needs: 'read', path: () => '/v1/proposal-templates' },
    'POST /v1/proposal-templates': {
      needs: 'write',
      path: () => '/v1/proposal-templates',
      body: (a) => ({ name: 'RO layout', proposal_id: a.proposal }),
    },
  },
};
