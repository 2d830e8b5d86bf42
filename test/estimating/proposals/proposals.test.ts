// Proposals over HTTP (document 3, Proposal, its state table and the Proposals endpoints): making
// one from an estimate (201, defaults, customer link, shared doc_number; refresh of a draft, frozen
// once sent; the 404 and 409s), reading (summary rows, filters, updated_after), editing (HTML
// cleaned, aliases, every listed 400, 409 while out for signature), the link calls, templates and
// void. Sending (mail) is in send.test.ts; the customer's page in test/pages/proposal*.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, startApp, type Client, type TestApp, type Workspace } from '#test/helpers/harness.ts';

let t: TestApp;
let w: Workspace;

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ name: 'Acme Paving' });
});
afterAll(() => t.close());

let serial = 0;

/** A job with a contact, an estimate with two priced unit lines (one optional) and a grouped pair. */
async function pricedEstimate(api: Client = w.api, opts: { unitCost?: number } = {}) {
  const n = ++serial;
  const job = (
    await api.post('/v1/jobs', {
      name: `Lot ${n} sealcoat`,
      company: `Customer ${n}`,
      contact_name: `Pat ${n}`,
      contact_email: `pat${n}@example.com`,
      address: `${n} Main St, Columbus, OH 43215`,
    })
  ).body.data;
  const e = (await api.post('/v1/estimates', { job_id: job.id })).body.data;
  const line = async (body: Record<string, unknown>) => {
    const r = await api.post(`/v1/estimates/${e.id}/line-items`, { unit: 'SF', quantity: 1000, ...body });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.line_item_id as number;
  };
  const seal = await line({ name: 'Sealcoat', unit_cost: opts.unitCost ?? 0.2 });
  const stripe = await line({ name: 'Restripe', unit: 'EA', quantity: 40, unit_cost: 10 });
  const crack = await line({ name: 'Crack fill', unit: 'LF', quantity: 500, unit_cost: 1 });
  await api.patch(`/v1/estimates/${e.id}/line-items/${crack}`, { is_optional: true });
  return { job, estimateId: e.id as number, lines: { seal, stripe, crack } };
}

async function proposalFor(api: Client = w.api) {
  const made = await pricedEstimate(api);
  const r = await api.post(`/v1/estimates/${made.estimateId}/proposal`);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { ...made, proposal: r.body.data };
}

describe('POST /v1/estimates/{id}/proposal', () => {
  it('makes a draft with default wording, 30 days validity, its link, totals and the estimate doc_number', async () => {
    const { job, estimateId, proposal } = await proposalFor();
    const estimate = (await w.api.get(`/v1/estimates/${estimateId}`)).body;
    expect(proposal).toMatchObject({
      estimate_id: estimateId,
      job_id: job.id,
      doc_number: estimate.doc_number,
      status: 'draft',
      client_name: job.contact_name,
      client_email: job.contact_email,
      client_company: job.company,
      is_customer_copy: false,
      approval_status: 'not_required',
      view_count: 0,
      sent_at: null,
      pdf_url: `/v1/proposals/${proposal.id}/pdf`,
      link: { has_link: true, enabled: true, expires_on: null, active: true },
      totals: {
        total: estimate.totals!.price,
        subtotal: estimate.totals!.subtotal,
        tax: estimate.totals!.tax,
        optional_total: estimate.totals!.optional_total,
        deposit: null,
      },
    });
    expect(proposal.share_url).toMatch(/^http:\/\/[^/]+\/share\/proposals\/[A-Za-z0-9_-]{43}$/);
    expect(proposal.link.preview_url).toBe(`${proposal.share_url}?preview=${proposal.link.preview_url.split('=')[1]}`);
    const today = new Date();
    const valid = new Date(`${proposal.valid_until}T00:00:00Z`);
    const days = Math.round(
      (valid.getTime() - Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate())) / 86_400_000,
    );
    expect(days).toBeGreaterThanOrEqual(29);
    expect(days).toBeLessThanOrEqual(31);
    expect(proposal.content.cover_html).toContain('Acme Paving');
    expect(proposal.content.intro_html).toContain('<p>');
    expect(proposal.sections.section_order).toEqual([
      'overview',
      'about',
      'scope',
      'service_info',
      'pricing',
      'photos',
      'authorization',
      'terms',
      'acceptance',
    ]);
    expect(proposal.sections.terms.items.length).toBeGreaterThan(0);
    expect(proposal.signature).toMatchObject({ proposal_id: proposal.id, proposal_status: 'draft', signer_name: null });
  });

  it('a second call refreshes the draft from the estimate (200); a sent proposal keeps what the customer saw', async () => {
    const { estimateId, lines, proposal } = await proposalFor();
    await w.api.patch(`/v1/estimates/${estimateId}/line-items/${lines.seal}`, { quantity: 2000 });
    const estimate = (await w.api.get(`/v1/estimates/${estimateId}`)).body;
    const again = await w.api.post(`/v1/estimates/${estimateId}/proposal`);
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(proposal.id);
    expect(again.body.data.totals.total).toBe(estimate.totals!.price);
    expect(again.body.data.totals.total).toBeGreaterThan(proposal.totals.total);

    // Once out for signature (marked sent directly: sending is tested with a mail server elsewhere).
    await t.database.db.updateTable('proposals').set({ status: 'sent' }).where('id', '=', proposal.id).execute();
    await w.api.patch(`/v1/estimates/${estimateId}/line-items/${lines.seal}`, { quantity: 5000 });
    const frozen = await w.api.post(`/v1/estimates/${estimateId}/proposal`);
    expect(frozen.status).toBe(200);
    expect(frozen.body.data.totals.total).toBe(again.body.data.totals.total);
  });

  it('404 for a missing or another workspace’s estimate; 409 with the reason when it cannot go yet', async () => {
    expect((await w.api.post('/v1/estimates/999999/proposal')).body).toEqual({ error: 'Estimate not found' });
    const other = await t.workspace();
    const { estimateId } = await pricedEstimate();
    expect((await other.api.post(`/v1/estimates/${estimateId}/proposal`)).status).toBe(404);

    const job = (await w.api.post('/v1/jobs', { name: 'Empty estimate job' })).body.data;
    const empty = (await w.api.post('/v1/estimates', { job_id: job.id })).body.data;
    const noLines = await w.api.post(`/v1/estimates/${empty.id}/proposal`);
    expect(noLines.status).toBe(409);
    expect(noLines.body).toMatchObject({ error: 'Estimate cannot go to a proposal yet' });
    expect(['estimate_has_no_lines', 'estimate_not_priced']).toContain(noLines.body.code);
    expect(noLines.body.message).toEqual(expect.any(String));

    await w.api.delete(`/v1/estimates/${estimateId}`);
    const archived = await w.api.post(`/v1/estimates/${estimateId}/proposal`);
    expect(archived.status).toBe(409);
    expect(archived.body.code).toBe('estimate_archived');
  });

  it('needs pricing access and an owner, estimating admin or estimator', async () => {
    const { estimateId } = await pricedEstimate();
    const noPricing = await t.user(w.firmId, {
      name: 'No Prices',
      email: 'noprices@example.com',
      pricing_access: false,
    });
    const r1 = await noPricing.api.post(`/v1/estimates/${estimateId}/proposal`);
    expect(r1.status).toBe(403);
    expect(r1.body.code).toBe('pricing_access_required');
    const sales = await t.user(w.firmId, { name: 'Sales', email: 'sales@example.com', estimating_role: 'sales' });
    const r2 = await sales.api.post(`/v1/estimates/${estimateId}/proposal`);
    expect(r2.status).toBe(403);
    expect(r2.body).toMatchObject({ code: 'estimating_role_required', estimating_role: 'sales' });
    const reader = t.as(await t.key(w.firmId, w.ownerId, ['read_jobs']));
    expect((await reader.post(`/v1/estimates/${estimateId}/proposal`)).status).toBe(403);
    expect(
      await t.database.db.selectFrom('proposals').select('id').where('estimate_id', '=', estimateId).execute(),
    ).toEqual([]);
  });
});

describe('GET /v1/proposals and /v1/proposals/{id}', () => {
  it('lists summary rows, filters, and pages updated_after oldest first', async () => {
    const a = await proposalFor();
    const b = await proposalFor();
    const list = await w.api.get(`/v1/proposals?job_id=${a.job.id}`);
    expect(list.status).toBe(200);
    expect(list.body.pagination).toEqual({ total: 1, limit: 50, offset: 0 });
    const row = list.body.data[0];
    expect(row.id).toBe(a.proposal.id);
    for (const hidden of ['totals', 'content', 'signature', 'pdf_url', 'link', 'sections'])
      expect(row).not.toHaveProperty(hidden);
    expect(row.share_url).toBe(a.proposal.share_url);
    expect((await w.api.get(`/v1/proposals?estimate_id=${b.estimateId}`)).body.data.map((p: any) => p.id)).toEqual([
      b.proposal.id,
    ]);
    expect((await w.api.get('/v1/proposals?status=draft&limit=200')).body.data.length).toBeGreaterThanOrEqual(2);
    const bad = await w.api.get('/v1/proposals?status=signed');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('status must be one of draft, sent, viewed, accepted, rejected, void');
    expect((await w.api.get('/v1/proposals?updated_after=yesterday')).status).toBe(400);
    const newest = (await w.api.get('/v1/proposals')).body.data;
    expect(newest[0].updated_at >= newest[newest.length - 1].updated_at).toBe(true);
    const synced = (await w.api.get('/v1/proposals?updated_after=2000-01-01T00:00:00Z&limit=200')).body.data;
    const stamps = synced.map((p: any) => p.updated_at);
    expect([...stamps].sort()).toEqual(stamps);
  });

  it('another workspace’s proposal is 404 everywhere', async () => {
    const { proposal } = await proposalFor();
    const other = await t.workspace();
    for (const path of ['', '/signature', '/pdf']) {
      const r = await other.api.get(`/v1/proposals/${proposal.id}${path}`);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'Proposal not found' });
    }
    expect((await other.api.patch(`/v1/proposals/${proposal.id}`, { title: 'x' })).status).toBe(404);
    expect((await other.api.post(`/v1/proposals/${proposal.id}/send`, {})).status).toBe(404);
    expect((await other.api.get('/v1/proposals')).body.data).toEqual([]);
  });
});

describe('PATCH /v1/proposals/{id}', () => {
  it('changes fields and sections; HTML is cleaned', async () => {
    const { proposal } = await proposalFor();
    const r = await w.api.patch(`/v1/proposals/${proposal.id}`, {
      title: 'Parking lot maintenance',
      client_name: 'Dana Smith',
      client_email: 'dana@example.com',
      valid_until: '2027-03-01',
      cover_html: '<p onclick="x()">Hello <script>alert(1)</script><b>there</b></p><img src="http://evil/x.png">',
      about_us: { title: 'Who we are', body_html: '<p>Since 1990</p><style>p{}</style>' },
      scope: { title: 'The work', intro: 'We seal the whole lot.', notes_html: '<ul><li>Clean</li></ul>' },
      terms: {
        footer: 'Thank you',
        items: [
          { text: 'Net 30', on: true },
          { text: 'No pets', on: false },
        ],
      },
      custom_sections: [
        { title: 'Warranty', body: 'One year.\n\nParts and labor.', items: [{ text: 'Cracks', on: true }] },
      ],
      section_order: ['pricing', 'custom:warranty', 'scope'],
      pages: { photos: false, video: true },
      display: { show_line_numbers: true },
      deposit_percent: 25,
      payment_due_days: 15,
      photo_layout: 'detail',
      show_photos: false,
      accent_color: '#AA3300',
      closing_html: '<a href="javascript:alert(1)">x</a><a href="https://example.com">site</a>',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const p = r.body.data;
    expect(p).toMatchObject({ title: 'Parking lot maintenance', client_name: 'Dana Smith', valid_until: '2027-03-01' });
    expect(p.content.cover_html).toBe('<p>Hello <b>there</b></p>');
    expect(p.content.intro_html).toBe('<p>Since 1990</p>');
    expect(p.sections.about_us).toEqual({ title: 'Who we are', body_html: '<p>Since 1990</p>' });
    expect(p.sections.scope).toEqual({
      title: 'The work',
      intro: 'We seal the whole lot.',
      notes_html: '<ul><li>Clean</li></ul>',
    });
    expect(p.content.scope_html).toBe('<ul><li>Clean</li></ul>');
    expect(p.sections.terms.items).toEqual([
      { text: 'Net 30', on: true },
      { text: 'No pets', on: false },
    ]);
    expect(p.sections.terms.footer).toBe('Thank you');
    expect(p.content.closing_html).not.toContain('javascript');
    expect(p.content.closing_html).toContain('href="https://example.com"');
    expect(p.sections.custom_sections).toEqual([
      {
        id: 'warranty',
        title: 'Warranty',
        body: 'One year.\n\nParts and labor.',
        items: [{ text: 'Cracks', on: true }],
        enabled: true,
      },
    ]);
    expect(p.sections.section_order.slice(0, 3)).toEqual(['pricing', 'custom:warranty', 'scope']);
    expect(p.sections.section_order).toHaveLength(10);
    expect(p.sections.pages).toMatchObject({ photos: false, video: true, cover: true });
    expect(p.sections.display.show_line_numbers).toBe(true);
    expect(p.sections).toMatchObject({
      deposit_percent: 25,
      payment_due_days: 15,
      photo_layout: 'detail',
      show_photos: false,
      accent_color: '#aa3300',
    });
    expect(p.totals.deposit).toBe(Math.round(p.totals.total * 25) / 100);

    const reset = await w.api.patch(`/v1/proposals/${proposal.id}`, { terms: { reset: true } });
    expect(reset.body.data.sections.terms.items.length).toBeGreaterThan(2);
  });

  it('answers every listed 400 and changes nothing', async () => {
    const { proposal } = await proposalFor();
    const cases: [Record<string, unknown>, RegExp | string][] = [
      [{ valid_until: '2027-02-30' }, 'valid_until must be a date (YYYY-MM-DD) or null'],
      [{ valid_until: 'next week' }, 'valid_until must be a date (YYYY-MM-DD) or null'],
      [{ valid_until: 5 }, 'valid_until must be a date (YYYY-MM-DD) or null'],
      [{ colour: 'red' }, 'Unknown fields: colour'],
      [{ about_us: { items: [] } }, 'Unknown fields: about_us.items'],
      [{ pages: { brochure: true } }, 'Unknown fields: pages.brochure'],
      [{ display: { show_prices: true } }, 'Unknown fields: display.show_prices'],
      [{ deposit_percent: 120 }, /deposit_percent must be from 0 to 100/],
      [{ deposit_percent: -1 }, /deposit_percent must be from 0 to 100/],
      [
        { intro_html: '<p>a</p>', about_us: { body_html: '<p>b</p>' } },
        'Send intro_html or about_us.body_html, not both',
      ],
      [{ terms_html: 'a', terms: { body_html: 'b' } }, 'Send terms_html or terms.body_html, not both'],
      [{ section_order: ['pricing', 'gallery'] }, 'Unknown section in section_order: gallery'],
      [{ accent_color: 'blue' }, /accent_color/],
      [{ client_email: 'not-an-email' }, /client_email/],
      [
        { custom_sections: Array.from({ length: 33 }, (_, i) => ({ title: `S${i}` })) },
        /custom_sections must have at most 32 items/,
      ],
      [{ terms: { items: [{ text: 'a', on: true }], reset: true } }, 'Send terms.items or terms.reset, not both'],
    ];
    for (const [body, error] of cases) {
      const r = await w.api.patch(`/v1/proposals/${proposal.id}`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      if (typeof error === 'string') expect(r.body.error).toBe(error);
      else expect(r.body.error).toMatch(error);
    }
    const photo = await w.api.patch(`/v1/proposals/${proposal.id}`, { photo_ids: [999999] });
    expect(photo.status).toBe(404);
    expect(photo.body.error).toBe('Photo not found on this job');
    const after = (await w.api.get(`/v1/proposals/${proposal.id}`)).body.data;
    expect(after.updated_at).toBe(proposal.updated_at);
    expect(after.sections).toEqual(proposal.sections);
  });

  it('is 409 while out for signature and once decided', async () => {
    const { proposal } = await proposalFor();
    for (const [status, code] of [
      ['sent', 'out_for_signature'],
      ['viewed', 'out_for_signature'],
      ['accepted', 'proposal_decided'],
      ['rejected', 'proposal_decided'],
      ['void', 'proposal_void'],
    ] as const) {
      await t.database.db.updateTable('proposals').set({ status }).where('id', '=', proposal.id).execute();
      const r = await w.api.patch(`/v1/proposals/${proposal.id}`, { title: 'Changed' });
      expect(r.status).toBe(409);
      expect(r.body.code).toBe(code);
    }
  });
});

describe('the customer link', () => {
  it('share-link answers the link; regenerate replaces it; a void proposal goes back to draft; never marks sent', async () => {
    const { proposal } = await proposalFor();
    const same = await w.api.post(`/v1/proposals/${proposal.id}/share-link`);
    expect(same.status).toBe(200);
    expect(same.body.url).toBe(proposal.share_url);
    expect(same.body.data.status).toBe('draft');
    const fresh = await w.api.post(`/v1/proposals/${proposal.id}/share-link`, { regenerate: true });
    expect(fresh.body.url).not.toBe(proposal.share_url);
    expect(fresh.body.data.share_url).toBe(fresh.body.url);
    const retired = await t.database.db
      .selectFrom('retired_links')
      .selectAll()
      .where('kind', '=', 'proposal')
      .execute();
    expect(retired.map((r) => r.reason)).toContain('replaced');

    const voided = await w.api.post(`/v1/proposals/${proposal.id}/void`);
    expect(voided.body.data).toMatchObject({ status: 'void', link: { active: false } });
    expect(voided.body.data.voided_at).toEqual(expect.any(String));
    const reopened = await w.api.post(`/v1/proposals/${proposal.id}/share-link`, {});
    expect(reopened.body.data).toMatchObject({ status: 'draft', voided_at: null, sent_at: null });
  });

  it('PATCH …/link turns the same link off and on and sets its expiry; a later valid_until moves an earlier expiry', async () => {
    const { proposal } = await proposalFor();
    const off = await w.api.patch(`/v1/proposals/${proposal.id}/link`, { enabled: false });
    expect(off.body.data).toMatchObject({ share_url: null, link: { enabled: false, active: false } });
    const on = await w.api.patch(`/v1/proposals/${proposal.id}/link`, { enabled: true });
    expect(on.body.data.share_url).toBe(proposal.share_url);
    const past = await w.api.patch(`/v1/proposals/${proposal.id}/link`, { expires_on: '2020-01-01' });
    expect(past.body.data).toMatchObject({
      share_url: null,
      link: { expires_on: '2020-01-01', active: false, enabled: true },
    });
    expect((await w.api.patch(`/v1/proposals/${proposal.id}/link`, { expires_on: 'soon' })).body.error).toBe(
      'expires_on must be a date (YYYY-MM-DD) or null',
    );
    await w.api.patch(`/v1/proposals/${proposal.id}/link`, { expires_on: '2027-01-10' });
    const moved = await w.api.patch(`/v1/proposals/${proposal.id}`, { valid_until: '2027-02-01' });
    expect(moved.body.data.link.expires_on).toBe('2027-02-01');
    const earlier = await w.api.patch(`/v1/proposals/${proposal.id}`, { valid_until: '2027-01-20' });
    expect(earlier.body.data.link.expires_on).toBe('2027-02-01');
  });

  it('void: an accepted proposal cannot be voided; voiding twice is harmless', async () => {
    const { proposal } = await proposalFor();
    expect((await w.api.post(`/v1/proposals/${proposal.id}/void`)).status).toBe(200);
    expect((await w.api.post(`/v1/proposals/${proposal.id}/void`)).body.data.status).toBe('void');
    await t.database.db.updateTable('proposals').set({ status: 'accepted' }).where('id', '=', proposal.id).execute();
    const r = await w.api.post(`/v1/proposals/${proposal.id}/void`);
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('proposal_decided');
  });
});

describe('templates', () => {
  it('lists the starter set; applies a layout to a draft; saves a proposal’s layout as a template', async () => {
    const list = await w.api.get('/v1/proposal-templates');
    expect(list.status).toBe(200);
    const ids = list.body.data.map((x: any) => x.id);
    expect(ids).toEqual(expect.arrayContaining(['standard', 'lump_sum', 'detailed', 'simple']));
    expect(list.body.data.every((x: any) => typeof x.id === 'string' && x.starter === true)).toBe(true);

    const { proposal } = await proposalFor();
    const applied = await w.api.post(`/v1/proposals/${proposal.id}/apply-template`, { template_id: 'simple' });
    expect(applied.status).toBe(200);
    expect(applied.body.data.template_id).toBe('simple');
    expect(applied.body.data.sections.pages).toMatchObject({ cover: false, photos: false, pricing: true });
    expect(applied.body.data.sections.section_order.slice(0, 2)).toEqual(['scope', 'pricing']);
    expect(applied.body.data.content).toEqual(proposal.content);

    const unknown = await w.api.post(`/v1/proposals/${proposal.id}/apply-template`, { template_id: 'fancy' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: 'Unknown template_id: fancy', code: 'unknown_template' });
    expect((await w.api.raw.post(`/v1/proposals/${proposal.id}/apply-template`, {})).status).toBe(400);

    const saved = await w.api.post('/v1/proposal-templates', { name: 'Our simple', proposal_id: proposal.id });
    expect(saved.status).toBe(201);
    expect(saved.body.data).toMatchObject({ name: 'Our simple', starter: false, layout: { pages: { cover: false } } });
    expect(saved.body.data.id).toMatch(/^tpl_\d+$/);
    expect((await w.api.get('/v1/proposal-templates')).body.data.map((x: any) => x.id)).toContain(saved.body.data.id);
    const other = await t.workspace();
    expect((await other.api.get('/v1/proposal-templates')).body.data.map((x: any) => x.id)).not.toContain(
      saved.body.data.id,
    );

    await t.database.db.updateTable('proposals').set({ status: 'sent' }).where('id', '=', proposal.id).execute();
    const locked = await w.api.post(`/v1/proposals/${proposal.id}/apply-template`, { template_id: 'standard' });
    expect(locked.status).toBe(409);
  });
});

describe('job merge', () => {
  it('moves the merged-away job’s proposals to the kept job', async () => {
    const a = await proposalFor();
    const keep = (await w.api.post('/v1/jobs', { name: 'Kept job for proposals' })).body.data;
    const merged = await w.api.post(`/v1/jobs/${a.job.id}/merge`, { into_job_id: keep.id });
    expect([200, 204], JSON.stringify(merged.body)).toContain(merged.status);
    expect((await w.api.get(`/v1/proposals/${a.proposal.id}`)).body.data.job_id).toBe(keep.id);
    expect((await eventsOf(t.database, keep.id)).length).toBeGreaterThan(0);
  });
});
