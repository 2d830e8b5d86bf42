// The billing part of the isolation and permission walk (test/helpers/walk/kit.ts): check invoices
// on the CRM's jobs (one billed from the estimating walk's estimate) and the payments they record,
// and change orders (a quick one, and a tm one from the estimating walk's won estimate).
import { ok } from '#test/helpers/records.ts';
import type { AreaWalk } from '#test/helpers/walk/kit.ts';

const LINES = [{ description: 'Sealcoat', amount: 1500 }];
const QUICK = { title: 'Extra patching', amount_delta: 450 };

export const billingWalk: AreaWalk = {
  area: 'billing',
  workspace: { settings: { operations_enabled: true } },
  async provision({ w, ids }) {
    // A draft billed from the estimate (giving the workspace its remit-to), and a paid one.
    const invoice = (
      await ok(
        w.api.post('/v1/invoices', {
          job_id: ids.job,
          estimate_id: ids.estimate,
          line_items: LINES,
          remit_to_name: 'Walk Paving',
          remit_to_address: '1 Yard Rd',
        }),
      )
    ).data;
    const paid = (await ok(w.api.post('/v1/invoices', { job_id: ids.job2, line_items: LINES }))).data;
    await ok(w.api.post(`/v1/invoices/${paid.id}/mark-sent`));
    await ok(w.api.post(`/v1/invoices/${paid.id}/mark-paid`));
    // A sent one for mark-paid to take.
    const sent = (await ok(w.api.post('/v1/invoices', { job_id: ids.job2, line_items: LINES }))).data;
    await ok(w.api.post(`/v1/invoices/${sent.id}/mark-sent`));
    // Change orders: a quick draft on the job, a sent one, and a tm one from job2's won estimate.
    const requestKey = crypto.randomUUID();
    const quick = (await ok(w.api.post('/v1/change-orders', { job_id: ids.job, ...QUICK }))).data;
    const sentCo = (await ok(w.api.post('/v1/change-orders', { job_id: ids.job, ...QUICK }))).data;
    await ok(w.api.post(`/v1/change-orders/${sentCo.id}/send`));
    const tm = (
      await ok(
        w.api.post('/v1/change-orders', {
          job_id: ids.job2,
          kind: 'tm',
          title: 'Added drainage',
          request_key: requestKey,
        }),
      )
    ).data;
    return {
      invoice: invoice.id,
      paidInvoice: paid.id,
      sentInvoice: sent.id,
      changeOrder: quick.id,
      sentChangeOrder: sentCo.id,
      tmChangeOrder: tm.id,
      changeOrderKey: requestKey,
    };
  },
  snapshot: (ids) => [
    '/v1/invoices',
    `/v1/invoices/${ids.invoice}`,
    `/v1/invoices/${ids.paidInvoice}`,
    `/v1/invoices/${ids.sentInvoice}`,
    `/v1/jobs/${ids.job}/invoices`,
    `/v1/jobs/${ids.job2}/invoices`,
    '/v1/payments',
    '/v1/exports/invoices.jsonl',
    '/v1/change-orders',
    `/v1/change-orders/${ids.changeOrder}`,
    `/v1/change-orders/${ids.sentChangeOrder}`,
    `/v1/change-orders/${ids.tmChangeOrder}`,
    `/v1/estimates/${ids.issuedEstimate}`,
    '/v1/change-order-stages',
    '/v1/exports/change_orders.jsonl',
  ],
  foreignIds: (a, b) => [
    { method: 'POST', path: '/v1/invoices', body: { job_id: a.job, line_items: LINES }, error: 'Job not found' },
    {
      method: 'POST',
      path: '/v1/invoices',
      body: { job_id: b.job, estimate_id: a.estimate, line_items: LINES },
      error: 'Estimate not found',
    },
    { method: 'GET', path: `/v1/invoices/${a.invoice}`, error: 'Invoice not found' },
    { method: 'PATCH', path: `/v1/invoices/${a.invoice}`, body: { memo: 'Hijack' }, error: 'Invoice not found' },
    { method: 'POST', path: `/v1/invoices/${a.invoice}/mark-sent`, error: 'Invoice not found' },
    { method: 'POST', path: `/v1/invoices/${a.sentInvoice}/mark-paid`, error: 'Invoice not found' },
    { method: 'POST', path: `/v1/invoices/${a.invoice}/void`, error: 'Invoice not found' },
    { method: 'POST', path: `/v1/invoices/${a.paidInvoice}/mark-draft`, error: 'Invoice not found' },
    { method: 'GET', path: `/v1/jobs/${a.job}/invoices`, error: 'Job not found' },
    { method: 'POST', path: `/v1/invoices/${a.sentInvoice}/send`, error: 'Invoice not found' },
    { method: 'GET', path: `/v1/invoices/${a.invoice}/pdf`, error: 'Invoice not found' },
    // The estimating walk's estimate has a proposal: only the workspace check stands in the way.
    { method: 'POST', path: `/v1/estimates/${a.estimate}/request-payment`, body: {}, error: 'Estimate not found' },
    { method: 'POST', path: '/v1/change-orders', body: { job_id: a.job, ...QUICK }, error: 'Job not found' },
    { method: 'POST', path: '/v1/change-orders', body: { job_id: a.job2, kind: 'tm' }, error: 'Job not found' },
    { method: 'GET', path: `/v1/change-orders/${a.changeOrder}`, error: 'Change order not found' },
    { method: 'GET', path: `/v1/change-orders/${a.tmChangeOrder}`, error: 'Change order not found' },
    {
      method: 'PATCH',
      path: `/v1/change-orders/${a.changeOrder}`,
      body: { title: 'Hijack' },
      error: 'Change order not found',
    },
    { method: 'POST', path: `/v1/change-orders/${a.changeOrder}/send`, error: 'Change order not found' },
    { method: 'POST', path: `/v1/change-orders/${a.sentChangeOrder}/approve`, error: 'Change order not found' },
    { method: 'POST', path: `/v1/change-orders/${a.sentChangeOrder}/decline`, error: 'Change order not found' },
    {
      method: 'POST',
      path: `/v1/change-orders/${a.changeOrder}/stage`,
      body: { stage: 'review' },
      error: 'Change order not found',
    },
    { method: 'POST', path: `/v1/change-orders/${a.changeOrder}/void`, error: 'Change order not found' },
  ],
  async lookups({ A, B }) {
    // B's lists filtered by A's job show nothing of A's.
    for (const path of [`/v1/invoices?job_id=${A.ids.job}`, `/v1/payments?job_id=${A.ids.job2}`]) {
      const body = await ok(B.w.api.get(path));
      if (body.data.length !== 0) throw new Error(`${path} showed another workspace's rows`);
    }
    const cos = await ok(B.w.api.get(`/v1/change-orders?job_id=${A.ids.job}`));
    if (cos.change_orders.length !== 0 || cos.total !== 0) throw new Error("B's list showed A's change orders");
    // A's request_key in B makes B's own change order: keys are per workspace.
    const res = await B.w.api.post('/v1/change-orders', {
      job_id: B.ids.job2,
      kind: 'tm',
      request_key: A.ids.changeOrderKey,
    });
    if (res.status !== 201 || res.body.data.job_id !== B.ids.job2)
      throw new Error(`A's request_key in B answered ${res.status} ${JSON.stringify(res.body)}`);
  },
  routes: {
    'GET /v1/invoices': { needs: 'read', path: () => '/v1/invoices' },
    'POST /v1/invoices': {
      needs: 'write',
      path: () => '/v1/invoices',
      body: (a) => ({ job_id: a.job, line_items: LINES }),
    },
    'GET /v1/invoices/{id}': { needs: 'read', path: (a) => `/v1/invoices/${a.invoice}` },
    'PATCH /v1/invoices/{id}': {
      needs: 'write',
      path: (a) => `/v1/invoices/${a.invoice}`,
      body: () => ({ memo: 'Read-only' }),
    },
    'POST /v1/invoices/{id}/mark-sent': { needs: 'write', path: (a) => `/v1/invoices/${a.invoice}/mark-sent` },
    'POST /v1/invoices/{id}/mark-paid': { needs: 'write', path: (a) => `/v1/invoices/${a.sentInvoice}/mark-paid` },
    'POST /v1/invoices/{id}/void': { needs: 'write', path: (a) => `/v1/invoices/${a.invoice}/void` },
    'POST /v1/invoices/{id}/mark-draft': { needs: 'write', path: (a) => `/v1/invoices/${a.paidInvoice}/mark-draft` },
    'GET /v1/jobs/{id}/invoices': { needs: 'read', path: (a) => `/v1/jobs/${a.job}/invoices` },
    'GET /v1/payments': { needs: 'read', path: () => '/v1/payments' },
    'POST /v1/invoices/{id}/send': { needs: 'write', path: (a) => `/v1/invoices/${a.sentInvoice}/send` },
    'GET /v1/invoices/{id}/pdf': { needs: 'read', path: (a) => `/v1/invoices/${a.invoice}/pdf` },
    'POST /v1/estimates/{id}/request-payment': {
      needs: 'write',
      path: (a) => `/v1/estimates/${a.estimate}/request-payment`,
      body: () => ({}),
    },
    'GET /v1/change-orders': { needs: 'read', path: () => '/v1/change-orders' },
    'POST /v1/change-orders': {
      needs: 'write',
      path: () => '/v1/change-orders',
      body: (a) => ({ job_id: a.job, ...QUICK }),
    },
    'GET /v1/change-orders/{id}': { needs: 'read', path: (a) => `/v1/change-orders/${a.changeOrder}` },
    'PATCH /v1/change-orders/{id}': {
      needs: 'write',
      path: (a) => `/v1/change-orders/${a.changeOrder}`,
      body: () => ({ title: 'Read-only' }),
    },
    'POST /v1/change-orders/{id}/send': { needs: 'write', path: (a) => `/v1/change-orders/${a.changeOrder}/send` },
    'POST /v1/change-orders/{id}/approve': {
      needs: 'write',
      path: (a) => `/v1/change-orders/${a.sentChangeOrder}/approve`,
    },
    'POST /v1/change-orders/{id}/decline': {
      needs: 'write',
      path: (a) => `/v1/change-orders/${a.sentChangeOrder}/decline`,
    },
    'POST /v1/change-orders/{id}/stage': {
      needs: 'write',
      path: (a) => `/v1/change-orders/${a.changeOrder}/stage`,
      body: () => ({ stage: 'review' }),
    },
    'POST /v1/change-orders/{id}/void': { needs: 'write', path: (a) => `/v1/change-orders/${a.changeOrder}/void` },
    'GET /v1/change-order-stages': { needs: 'read', path: () => '/v1/change-order-stages' },
  },
};
