// The integrations' part of the isolation and permission walk (test/helpers/walk/kit.ts): webhook
// subscriptions and deliveries, the event feed and exports. Provisioned after CRM (it moves a job
// so a subscription has a delivery, and its exports hold the CRM records).
import { expect } from 'vitest';
import { ok } from '#test/helpers/records.ts';
import type { AreaWalk } from '#test/helpers/walk/kit.ts';

export const integrationsWalk: AreaWalk = {
  area: 'integrations',
  async provision({ w, label, ids }) {
    // A subscription that received the job events below (nothing sends them: no worker runs here).
    const webhook = (
      await ok(
        w.api.post('/v1/webhooks', {
          target_url: `https://${label.toLowerCase()}.example.com/hook`,
          event_type: '*',
          secret: 'x',
        }),
      )
    ).data;
    await ok(w.api.post(`/v1/jobs/${ids.job2}/move`, { status: 'won' }));
    const delivery = (await ok(w.api.get('/v1/webhooks/deliveries'))).data[0];
    const feedEvent = (await ok(w.api.get('/v1/events?limit=1'))).data[0];
    const exportFile = (await ok(w.api.post('/v1/exports', { kind: 'workspace_data' }), [202])).data;
    return { webhook: webhook.id, delivery: delivery.id, eventId: feedEvent.event_id, exportFile: exportFile.id };
  },
  snapshot: (ids) => [
    '/v1/webhooks',
    '/v1/webhooks/deliveries?limit=200',
    `/v1/webhooks/deliveries/${ids.delivery}`,
    '/v1/events?limit=200',
    `/v1/exports/files/${ids.exportFile}`,
    '/v1/exports/jobs.jsonl',
    '/v1/exports/customers.jsonl',
    '/v1/exports/properties.jsonl',
    '/v1/exports/events.jsonl',
  ],
  foreignIds: (a, b) => [
    {
      method: 'PATCH',
      path: `/v1/webhooks/${a.webhook}`,
      body: { target_url: 'https://evil.example.com/', active: true },
      error: 'Webhook subscription not found',
    },
    { method: 'DELETE', path: `/v1/webhooks/${a.webhook}`, error: 'Webhook subscription not found' },
    { method: 'GET', path: `/v1/webhooks/deliveries/${a.delivery}`, error: 'Webhook delivery not found' },
    { method: 'POST', path: `/v1/webhooks/deliveries/${a.delivery}/redeliver`, error: 'Webhook delivery not found' },
    { method: 'POST', path: '/v1/webhooks/replay', body: { event_id: a.eventId }, error: 'Event not found' },
    { method: 'POST', path: '/v1/webhooks/replay', body: { event_id: b.eventId, webhook_id: a.webhook } },
    { method: 'GET', path: `/v1/exports/files/${a.exportFile}`, error: 'Export not found' },
  ],
  async lookups({ A, B }) {
    const a = A.ids;
    const api = B.w.api;
    for (const p of [
      '/v1/exports/jobs.jsonl',
      '/v1/exports/customers.jsonl',
      '/v1/exports/properties.jsonl',
      '/v1/exports/events.jsonl',
    ]) {
      const res = await api.get(p);
      expect(res.status, p).toBe(200);
      for (const line of (res.body === null
        ? ''
        : String(typeof res.body === 'string' ? res.body : JSON.stringify(res.body))
      )
        .split('\n')
        .filter(Boolean)) {
        const row = JSON.parse(line);
        expect(p.includes('events') ? row.entity_id : row.id, p).not.toBe(undefined);
        if (p.includes('jobs')) expect([a.job, a.job2]).not.toContain(row.id);
        if (p.includes('customers')) expect(row.id).not.toBe(a.ca);
        if (p.includes('properties')) expect(row.id).not.toBe(a.loc);
        if (p.includes('events')) expect(row.event_id).not.toBe(a.eventId);
      }
    }
    for (const p of [
      `/v1/events?job_id=${a.job}`,
      `/v1/webhooks/deliveries?webhook_id=${a.webhook}`,
      `/v1/webhooks/deliveries?event_id=${a.eventId}`,
    ]) {
      const res = await api.get(p);
      expect(res.status, p).toBe(200);
      expect(res.body.data, p).toEqual([]);
    }
    expect((await api.get('/v1/webhooks')).body.data.map((s: any) => s.id)).not.toContain(a.webhook);
  },
  routes: {
    'GET /v1/events': { needs: 'read', path: () => '/v1/events' },
    'GET /v1/export-downloads/{token}': { needs: 'public', noForeign: 'the link is the credential' },
    'GET /v1/exports': { needs: 'read', path: () => '/v1/exports' },
    'POST /v1/exports': {
      needs: 'read-post',
      path: () => '/v1/exports',
      body: () => ({ kind: 'workspace_data' }),
      ok: 202,
    },
    'GET /v1/exports/files/{id}': { needs: 'read', path: (a) => `/v1/exports/files/${a.exportFile}` },
    'GET /v1/exports/{file}': {
      needs: 'read',
      path: () => '/v1/exports/jobs.jsonl',
      noForeign: 'names a dataset, not a record',
    },
    'GET /v1/webhooks': { needs: 'any-key', path: () => '/v1/webhooks' },
    'POST /v1/webhooks': {
      needs: 'write',
      path: () => '/v1/webhooks',
      body: () => ({ target_url: 'https://read-only.example.com/hook' }),
    },
    'GET /v1/webhooks/deliveries': { needs: 'read', path: () => '/v1/webhooks/deliveries' },
    'GET /v1/webhooks/deliveries/{id}': { needs: 'read', path: (a) => `/v1/webhooks/deliveries/${a.delivery}` },
    'POST /v1/webhooks/deliveries/{id}/redeliver': {
      needs: 'write',
      path: (a) => `/v1/webhooks/deliveries/${a.delivery}/redeliver`,
    },
    'POST /v1/webhooks/replay': {
      needs: 'write',
      path: () => '/v1/webhooks/replay',
      body: (a) => ({ event_id: a.eventId }),
    },
    'PATCH /v1/webhooks/{id}': {
      needs: 'write',
      path: (a) => `/v1/webhooks/${a.webhook}`,
      body: () => ({ active: false }),
    },
    'DELETE /v1/webhooks/{id}': { needs: 'write', path: (a) => `/v1/webhooks/${a.webhook}` },
  },
};
