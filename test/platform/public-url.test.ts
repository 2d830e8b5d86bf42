// GROUNDWORK_PUBLIC_URL (config.ts, platform/routes.ts originOf): with it, every link in customer
// mail, API answers and MCP tool answers is made on the public origin, whatever Host the caller
// reached the server by (an integration calling an internal name); without it, links follow the
// caller's Host as before.
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOutbox, readOutboxMessage } from '#platform/mail/outbox.ts';
import { type Client, startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job, ok } from '#test/helpers/records.ts';
import { image, uploadPhoto } from '#test/field/photos/upload.ts';
import { uploadJobFile } from '#test/field/files/upload.ts';
import { proposalOnJob } from '#test/helpers/scenarios/proposal.ts';
import { changeOrder, wonJob } from '#test/helpers/scenarios/change-order.ts';

const PUBLIC = 'https://app.example.com';
const INTERNAL_HOST = 'groundwork.internal:8080';

/** The client with every call sent to the internal host name. */
function viaInternalHost(api: Client): Client {
  const h = (headers: Record<string, string> = {}) => ({ host: INTERNAL_HOST, ...headers });
  return {
    request: (method, path, body, headers) => api.request(method, path, body, h(headers)),
    get: (path, headers) => api.get(path, h(headers)),
    post: (path, body, headers) => api.post(path, body, h(headers)),
    patch: (path, body, headers) => api.patch(path, body, h(headers)),
    put: (path, body, headers) => api.put(path, body, h(headers)),
    delete: (path, headers) => api.delete(path, h(headers)),
    raw: {
      get: (path, headers) => api.raw.get(path, h(headers)),
      post: (path, body, headers) => api.raw.post(path, body, h(headers)),
      patch: (path, body, headers) => api.raw.patch(path, body, h(headers)),
      put: (path, body, headers) => api.raw.put(path, body, h(headers)),
      delete: (path, headers) => api.raw.delete(path, h(headers)),
    },
  };
}

/** The outbox's messages to `address`, parsed, oldest first. */
async function mailsTo(t: TestApp, address: string): Promise<ParsedMail[]> {
  const parsed = await Promise.all(
    (await listOutbox(t.dataDir)).map(async (m) => simpleParser((await readOutboxMessage(t.dataDir, m.name))!)),
  );
  return parsed.filter((m) => m.to && !Array.isArray(m.to) && m.to.value.some((v) => v.address === address));
}

/** The absolute links in a text. */
const linksIn = (text: string) => [...text.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((m) => m[0]);

/** A tool call through /v1/mcp, sent to the internal host name. */
async function toolCall(t: TestApp, key: string, name: string, args: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/mcp?toolsets=all',
    headers: {
      host: INTERNAL_HOST,
      'x-api-key': key,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result.structuredContent;
}

describe('with GROUNDWORK_PUBLIC_URL', () => {
  let t: TestApp;
  let w: Workspace;
  let api: Client;
  beforeAll(async () => {
    t = await startApp({ publicUrl: PUBLIC });
    w = await t.workspace({
      name: 'Acme Paving',
      settings: {
        operations_enabled: true,
        online_payments_connected: true,
        remit_to: { name: 'Acme Paving LLC', address: '1 Yard Rd, Springfield' },
      },
    });
    api = viaInternalHost(w.api);
  });
  afterAll(() => t.close());

  it('a proposal send: the answer and the email link to the public origin', async () => {
    const made = await proposalOnJob({ ...w, api });
    expect(made.proposal.share_url!.startsWith(`${PUBLIC}/share/proposals/`)).toBe(true);
    expect(made.proposal.link.preview_url.startsWith(`${PUBLIC}/`)).toBe(true);
    const [mail] = await mailsTo(t, made.job.contact_email!);
    expect(mail!.text).toContain(made.proposal.share_url);
    expect(mail!.html).toContain(made.proposal.share_url);
    expect(linksIn(`${mail!.text} ${mail!.html}`).filter((l) => !l.startsWith(PUBLIC))).toEqual([]);
    // The link opens the page.
    expect((await t.app.inject({ method: 'GET', url: made.path })).statusCode).toBe(200);
  });

  it("an invoice send and a payment request: the customer's links are on the public origin", async () => {
    const j = await job({ api }, { name: 'Maple HOA lot' });
    const inv = await ok(
      api.post('/v1/invoices', {
        job_id: j.id,
        line_items: [{ description: 'Sealcoat lot', amount: 1200 }],
        client_name: 'Maple HOA',
        client_email: 'ap@maple.test',
      }),
    );
    await ok(api.post(`/v1/invoices/${inv.data.id}/send`));
    const [sent] = await mailsTo(t, 'ap@maple.test');
    const invoiceLinks = linksIn(sent!.text ?? '').filter((l) => l.includes('/share/invoices/'));
    expect(invoiceLinks.length).toBeGreaterThan(0);
    expect(invoiceLinks.every((l) => l.startsWith(`${PUBLIC}/share/invoices/`))).toBe(true);

    const made = await proposalOnJob({ ...w, api });
    const requested = await ok(api.post(`/v1/estimates/${made.proposal.estimate_id}/request-payment`, {}));
    expect(requested.data.payment_url.startsWith(`${PUBLIC}/share/invoices/`)).toBe(true);
    const mails = await mailsTo(t, made.job.contact_email!);
    expect(mails.some((m) => m.text?.includes(requested.data.payment_url))).toBe(true);
  });

  it('a change-order send: the answer and the email link to the public origin', async () => {
    const { job: j } = await wonJob(api);
    const co = await changeOrder(api, { job_id: j.id, title: 'Extra patch', amount_delta: 500 });
    const sent = await ok(api.post(`/v1/change-orders/${co.id}/send`));
    expect(sent.data.share_url!.startsWith(`${PUBLIC}/share/change-orders/`)).toBe(true);
    const [mail] = await mailsTo(t, j.contact_email!);
    expect(mail!.text).toContain(sent.data.share_url);
    expect(linksIn(mail!.text ?? '').filter((l) => !l.startsWith(PUBLIC))).toEqual([]);
  });

  it("other answers' links: a photo's file links, its report link, a file's download redirect", async () => {
    const j = await job({ api });
    const photo = await uploadPhoto(t, w, j.id, await image('jpeg'));
    expect(photo.status).toBe(201);
    const read = await ok(api.get(`/v1/photos/${photo.body.data.id}`));
    expect(read.data.url.startsWith(`${PUBLIC}/v1/objects/`)).toBe(true);
    expect(read.data.thumbnail_url!.startsWith(`${PUBLIC}/v1/objects/`)).toBe(true);
    const report = await ok(api.post(`/v1/jobs/${j.id}/photo-share-link`, {}));
    expect(report.data.share_url!.startsWith(`${PUBLIC}/share/photos/`)).toBe(true);
    const file = await uploadJobFile(t, w, j.id, Buffer.from('a,b\n1,2\n'), 'takeoff.csv');
    expect(file.status).toBe(201);
    const download = await api.get(`/v1/files/${file.body.data.id}/download`);
    expect(download.status).toBe(302);
    expect(String(download.headers.location).startsWith(`${PUBLIC}/v1/objects/`)).toBe(true);
  });

  it('a tool call through /v1/mcp answers links on the public origin', async () => {
    const j = await job({ api });
    const answer = await toolCall(t, w.key, 'create_job_photo_share_link', { job_id: j.id });
    expect(answer.data.share_url.startsWith(`${PUBLIC}/share/photos/`)).toBe(true);
  });
});

describe('without it', () => {
  let t: TestApp;
  let w: Workspace;
  beforeAll(async () => {
    t = await startApp();
    w = await t.workspace();
  });
  afterAll(() => t.close());

  it('links follow the Host the caller reached the server by, through /v1/mcp too', async () => {
    const api = viaInternalHost(w.api);
    const j = await job({ api });
    const report = await ok(api.post(`/v1/jobs/${j.id}/photo-share-link`, {}));
    expect(report.data.share_url!.startsWith(`http://${INTERNAL_HOST}/share/photos/`)).toBe(true);
    const other = await job({ api });
    const answer = await toolCall(t, w.key, 'create_job_photo_share_link', { job_id: other.id });
    expect(answer.data.share_url.startsWith(`http://${INTERNAL_HOST}/share/photos/`)).toBe(true);
  });
});
