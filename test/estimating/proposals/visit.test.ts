// The proposal page's rules over HTTP (document 3, Proposal state table; estimating/proposals/
// visit.ts): what a customer open counts and the office preview does not, the accept form's
// refusals (400 with what was typed), a drawn signature that is not a PNG, a document changed
// since the page was rendered, answering twice, declining after accepting, a draft and a lapsed
// offer that cannot be accepted, and the 404/410 pages. The browser test is proposal.test.ts.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { pageVisitor } from '#test/helpers/page-visitor.ts';
import { readPdf } from '#test/helpers/pdf-text.ts';
import { ok } from '#test/helpers/records.ts';
import { documentHashIn, proposalEvents, proposalOnJob } from '#test/helpers/scenarios/proposal.ts';

let t: TestApp;
let w: Workspace;

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ name: 'Blacktop Brothers' });
});
afterAll(() => t?.close());

const UA = 'Mozilla/5.0 (proposal-visit test)';

const { getPage, post } = pageVisitor(() => t, UA);

const proposalOf = async (id: number) => (await ok(w.api.get(`/v1/proposals/${id}`))).data;
const signatureOf = async (id: number) => (await ok(w.api.get(`/v1/proposals/${id}/signature`))).data;
const executedFiles = async (jobId: number) =>
  (await ok(w.api.get(`/v1/jobs/${jobId}/files`))).data.filter((f: any) => f.document_type === 'executed_proposal');

/** A valid accept form for the page as it was rendered. */
function signing(page: string, over: Record<string, string> = {}): Record<string, string> {
  return {
    document_hash: documentHashIn(page),
    signer_name: 'Robin Vega',
    signer_email: 'robin@example.com',
    consent: 'yes',
    signature: '',
    ...over,
  };
}

async function pngDataUrl(width = 300, height = 90): Promise<string> {
  const png = await sharp({ create: { width, height, channels: 4, background: { r: 16, g: 42, b: 67, alpha: 1 } } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

describe('opening the page', () => {
  it('a customer open counts, the first moves sent to viewed with one proposal_viewed; the preview counts nothing', async () => {
    const m = await proposalOnJob(w);
    expect(m.proposal.status).toBe('sent');

    const first = await getPage(m.path);
    expect(first.status).toBe(200);
    expect(first.headers['content-security-policy']).toMatch(/script-src 'nonce-[^']+'/);
    expect(first.headers['referrer-policy']).toBe('no-referrer');
    expect(first.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(first.text).toContain('Accept and sign');
    expect(first.text).toContain('esign-2026-11');
    let p = await proposalOf(m.proposal.id);
    expect(p).toMatchObject({ status: 'viewed', view_count: 1 });
    expect(p.first_viewed_at).not.toBeNull();

    await getPage(m.path);
    p = await proposalOf(m.proposal.id);
    expect(p.view_count).toBe(2);
    expect((await proposalEvents(t, m.job.id)).map((e) => e.event_type)).toEqual(['proposal_sent', 'proposal_viewed']);

    const preview = await getPage(m.previewPath);
    expect(preview.status).toBe(200);
    expect(preview.text).toContain('Office preview');
    expect(preview.text).not.toContain('name="signer_name"');
    // No form, so no script: the preview's policy is every other page's.
    expect(preview.headers['content-security-policy']).not.toContain('script-src');
    expect((await proposalOf(m.proposal.id)).view_count).toBe(2);

    // A wrong preview token is an ordinary customer open.
    await getPage(`${m.path}?preview=${'x'.repeat(43)}`);
    expect((await proposalOf(m.proposal.id)).view_count).toBe(3);

    const trail = (await signatureOf(m.proposal.id)).envelope.audit_trail;
    expect(trail.map((a: any) => a.kind)).toEqual(['opened', 'opened', 'opened']);
    expect(trail[0]).toMatchObject({ user_agent: UA, ip: '127.0.0.1' });
    expect(trail[0].at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('opens of a draft link count nothing on the proposal (the trail keeps them): first_viewed_at is never before sent_at', async () => {
    const m = await proposalOnJob(w, { send: false });
    expect(m.proposal.status).toBe('draft');
    // The link of a draft is shared early (or a teammate opens it, not the preview): twice.
    expect((await getPage(m.path)).status).toBe(200);
    await getPage(m.path);
    let p = await proposalOf(m.proposal.id);
    expect(p).toMatchObject({ status: 'draft', view_count: 0, first_viewed_at: null, last_viewed_at: null });

    expect((await w.api.post(`/v1/proposals/${m.proposal.id}/send`, {})).status).toBe(200);
    await getPage(m.path);
    p = await proposalOf(m.proposal.id);
    expect(p).toMatchObject({ status: 'viewed', view_count: 1 });
    expect(p.first_viewed_at! >= p.sent_at!).toBe(true);
    expect(p.last_viewed_at).toBe(p.first_viewed_at);
    const trail = (await signatureOf(m.proposal.id)).envelope.audit_trail;
    expect(trail.map((a: any) => [a.kind, a.data])).toEqual([
      ['opened', { before_send: true }],
      ['opened', { before_send: true }],
      ['opened', null],
    ]);
    expect((await proposalEvents(t, m.job.id)).map((e) => e.event_type)).toEqual(['proposal_sent', 'proposal_viewed']);
  });

  it('two first opens at once: one proposal_viewed', async () => {
    const m = await proposalOnJob(w);
    const both = await Promise.all([getPage(m.path), getPage(m.path), getPage(m.path)]);
    expect(both.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await proposalEvents(t, m.job.id)).filter((e) => e.event_type === 'proposal_viewed')).toHaveLength(1);
    expect((await proposalOf(m.proposal.id)).view_count).toBe(3);
  });

  it('other pages keep their policy without script', async () => {
    const unknown = await getPage(`/share/proposals/${'A'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-security-policy']).not.toContain('script-src');
  });

  it('a replaced link is 410; a link turned off is 410 and on again works; a void proposal says it was withdrawn', async () => {
    const m = await proposalOnJob(w);
    const regenerated = (await ok(w.api.post(`/v1/proposals/${m.proposal.id}/share-link`, { regenerate: true }))).url;
    const old = await getPage(m.path);
    expect(old.status).toBe(410);
    expect(old.text).toContain('replaced');
    const path = new URL(regenerated).pathname;
    expect((await getPage(path)).status).toBe(200);

    await ok(w.api.patch(`/v1/proposals/${m.proposal.id}/link`, { enabled: false }));
    const off = await getPage(path);
    expect(off.status).toBe(410);
    expect(off.text).toContain('turned off');
    expect((await post(`${path}/accept`, { signer_name: 'X' })).status).toBe(410);
    await ok(w.api.patch(`/v1/proposals/${m.proposal.id}/link`, { enabled: true }));
    expect((await getPage(path)).status).toBe(200);

    await ok(w.api.post(`/v1/proposals/${m.proposal.id}/void`));
    const withdrawn = await getPage(path);
    expect(withdrawn.status).toBe(410);
    expect(withdrawn.text).toContain('withdrawn');
    expect((await proposalOf(m.proposal.id)).status).toBe('void');
  });
});

describe('accepting', () => {
  it('refuses a missing name, email or consent (400, with what was typed) and changes nothing', async () => {
    const m = await proposalOnJob(w);
    const page = (await getPage(m.path)).text;
    const noName = await post(
      `${m.path}/accept`,
      signing(page, { signer_name: '  ', signer_email: 'typed@example.com' }),
    );
    expect(noName.status).toBe(400);
    expect(noName.text).toContain('Type your full name to sign.');
    expect(noName.text).toContain('value="typed@example.com"');

    const badEmail = await post(`${m.path}/accept`, signing(page, { signer_email: 'not-an-email' }));
    expect(badEmail.status).toBe(400);
    expect(badEmail.text).toContain('Enter a valid email address');
    expect(badEmail.text).toContain('value="Robin Vega"');

    const noEmail = await post(`${m.path}/accept`, signing(page, { signer_email: '' }));
    expect(noEmail.status).toBe(400);
    expect(noEmail.text).toContain('Enter your email address.');

    const hostile = '<script>alert(1)</script> Vega';
    const noConsent = await post(`${m.path}/accept`, signing(page, { consent: '', signer_name: hostile }));
    expect(noConsent.status).toBe(400);
    expect(noConsent.text).toContain('agree to sign electronically.');
    expect(noConsent.text).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt; Vega"');
    expect(noConsent.text).not.toContain('<script>alert(1)');

    const tooLong = await post(`${m.path}/accept`, signing(page, { signer_name: 'n'.repeat(201) }));
    expect(tooLong.status).toBe(400);

    expect((await proposalOf(m.proposal.id)).status).toBe('viewed');
    expect(await executedFiles(m.job.id)).toEqual([]);
    expect((await signatureOf(m.proposal.id)).envelope.audit_trail.map((a: any) => a.kind)).toEqual(['opened']);
  });

  it('refuses a drawn signature that is not a PNG within 500 KB', async () => {
    const m = await proposalOnJob(w);
    const page = (await getPage(m.path)).text;
    const fakePng = `data:image/png;base64,${Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from('not really a png at all'),
    ]).toString('base64')}`;
    const jpeg = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#000' } })
      .jpeg()
      .toBuffer();
    const huge = await sharp(
      Buffer.alloc(430 * 430 * 3, 0).map((_, i) => (i * 7919) % 251),
      {
        raw: { width: 430, height: 430, channels: 3 },
      },
    )
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(huge.length).toBeGreaterThan(500 * 1024);
    for (const signature of [
      'data:image/png;base64,!!!',
      fakePng,
      `data:image/jpeg;base64,${jpeg.toString('base64')}`,
      `data:image/png;base64,${jpeg.toString('base64')}`,
      `data:image/png;base64,${huge.toString('base64')}`,
      'javascript:alert(1)',
    ]) {
      const r = await post(`${m.path}/accept`, signing(page, { signature }));
      expect(r.status, signature.slice(0, 40)).toBe(400);
      expect(r.text).toContain('The drawn signature could not be read.');
    }
    expect((await proposalOf(m.proposal.id)).status).toBe('viewed');
    expect(await executedFiles(m.job.id)).toEqual([]);
  });

  it('a document changed since the page was rendered is refused; the fresh page signs', async () => {
    const m = await proposalOnJob(w);
    const page = (await getPage(m.path)).text;
    await ok(w.api.patch(`/v1/jobs/${m.job.id}`, { name: 'Renamed lot' }));
    const refused = await post(`${m.path}/accept`, signing(page));
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('Review it again');
    expect(refused.text).toContain('Renamed lot');
    expect(refused.text).toContain('value="Robin Vega"');
    expect((await proposalOf(m.proposal.id)).status).toBe('viewed');
    expect(documentHashIn(refused.text)).not.toBe(documentHashIn(page));

    const signed = await post(`${m.path}/accept`, signing(refused.text, { signature: await pngDataUrl() }));
    expect(signed.status).toBe(303);
    expect(signed.headers.location).toBe(m.path);
    const sig = await signatureOf(m.proposal.id);
    expect(sig).toMatchObject({
      proposal_status: 'accepted',
      signer_name: 'Robin Vega',
      signer_email: 'robin@example.com',
    });
    expect(sig.envelope).toMatchObject({
      document_sha256: documentHashIn(refused.text),
      consent_version: 'esign-2026-11',
      drawn_signature: true,
    });
  });

  it('accepting twice: the second sees the outcome; one proposal_accepted, one executed PDF, the job moved once', async () => {
    const m = await proposalOnJob(w);
    const page = (await getPage(m.path)).text;
    const first = await post(`${m.path}/accept`, signing(page));
    expect(first.status).toBe(303);
    const second = await post(`${m.path}/accept`, signing(page, { signer_name: 'Someone Else' }));
    expect(second.status).toBe(409);
    expect(second.text).toContain('Accepted.');
    expect(second.text).toContain('Robin Vega');
    expect(second.text).not.toContain('name="signer_name"');

    const p = await proposalOf(m.proposal.id);
    expect(p.status).toBe('accepted');
    expect((await ok(w.api.get(`/v1/jobs/${m.job.id}`))).data.status).toBe('won');
    const events = await proposalEvents(t, m.job.id);
    const accepted = events.filter((e) => e.event_type === 'proposal_accepted');
    expect(accepted).toHaveLength(1);
    expect(accepted[0].data).toMatchObject({
      status_changed: true,
      current_status: 'won',
      proposal: { id: m.proposal.id, status: 'accepted', actor_user_id: null },
    });
    const files = await executedFiles(m.job.id);
    expect(files).toHaveLength(1);
    const sig = await signatureOf(m.proposal.id);
    expect(sig.envelope.executed_file_id).toBe(files[0].id);
    expect(sig.envelope.audit_trail.map((a: any) => a.kind)).toEqual(['opened', 'consented', 'signed']);

    // The page now shows the outcome (an open still counts).
    const after = await getPage(m.path);
    expect(after.status).toBe(200);
    expect(after.text).toContain('Accepted.');
    expect(after.headers['content-security-policy']).not.toContain('script-src');

    // Declining after accepting: the outcome, no event, nothing changed.
    const decline = await post(`${m.path}/decline`, { reason: 'Changed my mind' });
    expect(decline.status).toBe(409);
    expect(decline.text).toContain('Accepted.');
    expect((await proposalOf(m.proposal.id)).status).toBe('accepted');
    expect((await proposalEvents(t, m.job.id)).filter((e) => e.event_type === 'proposal_declined')).toEqual([]);
  });

  it('the accepted page offers the executed PDF through its token, and shows times in the workspace’s zone', async () => {
    const denver = await t.workspace({ name: 'Front Range Paving', timezone: 'America/Denver' });
    const m = await proposalOnJob(denver);
    const before = await getPage(`${m.path}/signed.pdf`);
    expect(before.status).toBe(404);
    expect(before.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(before.text).toContain('has not been signed');
    const page = (await getPage(m.path)).text;
    expect(page).not.toContain('signed.pdf');
    expect((await post(`${m.path}/accept`, signing(page))).status).toBe(303);

    const accepted = await getPage(m.path);
    expect(accepted.text).toContain(`href="${m.path}/signed.pdf"`);
    // The signing time in Denver's zone, named, never as UTC.
    expect(accepted.text).toMatch(
      /Signed by Robin Vega \(robin@example\.com\) on \w{3}, \w{3} \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M \(America\/Denver\)/,
    );
    expect(accepted.text).not.toContain(' UTC');

    const pdf = await getPage(`${m.path}/signed.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(/^inline; filename="proposal-\d+-signed\.pdf"$/);
    expect(pdf.headers['referrer-policy']).toBe('no-referrer');
    expect(pdf.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(pdf.headers['cache-control']).toBe('no-store');
    const served = Buffer.from((await t.app.inject({ method: 'GET', url: `${m.path}/signed.pdf` })).rawPayload);
    // Exactly the copy stored at acceptance, the job's executed_proposal file.
    const [file] = (await ok(denver.api.get(`/v1/jobs/${m.job.id}/files`))).data.filter(
      (f: any) => f.document_type === 'executed_proposal',
    );
    const link = new URL((await ok(denver.api.get(`/v1/files/${file.id}`))).data.signed_url!);
    const stored = (await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` })).rawPayload;
    expect(served.equals(stored)).toBe(true);
    expect((await readPdf(served)).flat).toContain('Robin Vega');
    // Downloading it counts no open.
    const opens = (await ok(denver.api.get(`/v1/proposals/${m.proposal.id}`))).data.view_count;
    await getPage(`${m.path}/signed.pdf`);
    expect((await ok(denver.api.get(`/v1/proposals/${m.proposal.id}`))).data.view_count).toBe(opens);

    // The office deleted the job file: the page still offers the signed document, made again.
    expect((await denver.api.delete(`/v1/files/${file.id}`)).status).toBe(204);
    const again = await getPage(`${m.path}/signed.pdf`);
    expect(again.status).toBe(200);
    expect(
      (await readPdf(Buffer.from((await t.app.inject({ url: `${m.path}/signed.pdf` })).rawPayload))).flat,
    ).toContain('Robin Vega');
  });

  it('two acceptances at once: one wins, the loser stores no PDF', async () => {
    const m = await proposalOnJob(w);
    const page = (await getPage(m.path)).text;
    const both = await Promise.all([
      post(`${m.path}/accept`, signing(page, { signer_name: 'First Signer' })),
      post(`${m.path}/accept`, signing(page, { signer_name: 'Second Signer' })),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([303, 409]);
    expect((await proposalEvents(t, m.job.id)).filter((e) => e.event_type === 'proposal_accepted')).toHaveLength(1);
    const files = await executedFiles(m.job.id);
    expect(files).toHaveLength(1);
    expect((await signatureOf(m.proposal.id)).envelope.executed_file_id).toBe(files[0].id);
  });

  it('moves the job to the stage the workspace maps acceptance to', async () => {
    const mapped = await t.workspace({ name: 'Mapped Paving' });
    await ok(
      t.admin.post(`/admin/v1/workspaces/${mapped.firmId}/job-stages`, {
        key: 'contracted',
        label: 'Contracted',
        type: 'won',
      }),
    );
    await ok(
      t.admin.patch(`/admin/v1/workspaces/${mapped.firmId}`, { settings: { proposal_acceptance_stage: 'contracted' } }),
    );
    const m = await proposalOnJob(mapped);
    const page = (await getPage(m.path)).text;
    expect((await post(`${m.path}/accept`, signing(page))).status).toBe(303);
    expect((await ok(mapped.api.get(`/v1/jobs/${m.job.id}`))).data.status).toBe('contracted');
    const changed = (await proposalEvents(t, m.job.id)).find((e) => e.event_type === 'proposal_accepted');
    expect(changed?.data).toMatchObject({
      status_changed: true,
      previous_status: 'lead',
      current_status: 'contracted',
    });
  });

  it('a sender who sees only their own jobs, whose job was reassigned since: the executed PDF is stored as the owner', async () => {
    const rep = await t.user(w.firmId, {
      name: 'Own Jobs Rep',
      email: 'ownjobs@example.com',
      sees_own_jobs_only: true,
    });
    const n = Date.now();
    const job = (await ok(rep.api.post('/v1/jobs', { name: `Rep lot ${n}`, contact_email: `rep${n}@example.com` })))
      .data;
    const estimate = (await ok(rep.api.post('/v1/estimates', { job_id: job.id }))).data;
    await ok(
      rep.api.post(`/v1/estimates/${estimate.id}/line-items`, {
        name: 'Seal',
        unit: 'SF',
        quantity: 100,
        unit_cost: 1,
      }),
    );
    const proposal = (await ok(rep.api.post(`/v1/estimates/${estimate.id}/proposal`))).data;
    expect((await rep.api.post(`/v1/proposals/${proposal.id}/send`, {})).status).toBe(200);
    await ok(w.api.patch(`/v1/jobs/${job.id}`, { assigned_to_user_id: w.ownerId }));
    const path = new URL(proposal.share_url!).pathname;
    const page = (await getPage(path)).text;
    expect((await post(`${path}/accept`, signing(page))).status).toBe(303);
    const files = await executedFiles(job.id);
    expect(files).toHaveLength(1);
    expect(files[0].uploaded_by?.id).toBe(w.ownerId);
  });

  it('a draft opened through its link can be read, not accepted or declined', async () => {
    const m = await proposalOnJob(w, { send: false });
    const page = await getPage(m.path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('has not been sent yet');
    expect(page.text).not.toContain('name="signer_name"');
    expect((await proposalOf(m.proposal.id)).status).toBe('draft');
    const r = await post(`${m.path}/accept`, {
      document_hash: '0'.repeat(64),
      signer_name: 'Robin',
      signer_email: 'robin@example.com',
      consent: 'yes',
    });
    expect(r.status).toBe(409);
    expect((await post(`${m.path}/decline`, {})).status).toBe(409);
    expect((await proposalOf(m.proposal.id)).status).toBe('draft');
    expect((await proposalEvents(t, m.job.id)).map((e) => e.event_type)).toEqual([]);
  });

  it('an offer past valid_until cannot be accepted', async () => {
    const m = await proposalOnJob(w, { patch: { valid_until: '2020-01-31' } });
    const page = await getPage(m.path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('was valid until January 31, 2020');
    expect(page.text).not.toContain('name="signer_name"');
    const r = await post(`${m.path}/accept`, {
      document_hash: '0'.repeat(64),
      signer_name: 'Robin',
      signer_email: 'robin@example.com',
      consent: 'yes',
    });
    expect(r.status).toBe(409);
    expect(r.text).toContain('can no longer be accepted');
    expect((await proposalOf(m.proposal.id)).status).toBe('viewed');
  });
});

describe('declining', () => {
  it('takes an optional reason (at most 2,000 characters) once', async () => {
    const m = await proposalOnJob(w);
    await getPage(m.path);
    const long = await post(`${m.path}/decline`, { reason: 'x'.repeat(2001) });
    expect(long.status).toBe(400);
    expect(long.text).toContain('at most 2,000 characters');
    expect(long.text).toContain('<details class="decline" open>');

    const r = await post(`${m.path}/decline`, { reason: 'Went with a cheaper bid' });
    expect(r.status).toBe(303);
    const p = await proposalOf(m.proposal.id);
    expect(p.status).toBe('rejected');
    expect(p.rejected_at).not.toBeNull();
    const sig = await signatureOf(m.proposal.id);
    expect(sig.envelope.decline_reason).toBe('Went with a cheaper bid');
    expect(sig.envelope.audit_trail.map((a: any) => a.kind)).toEqual(['opened', 'declined']);
    expect(sig.envelope.audit_trail[1].data).toEqual({ reason: 'Went with a cheaper bid' });

    const again = await post(`${m.path}/decline`, { reason: 'again' });
    expect(again.status).toBe(409);
    const accept = await post(`${m.path}/accept`, {
      document_hash: '0'.repeat(64),
      signer_name: 'Robin',
      signer_email: 'robin@example.com',
      consent: 'yes',
    });
    expect(accept.status).toBe(409);
    expect(accept.text).toContain('Declined');
    const events = (await proposalEvents(t, m.job.id)).map((e) => e.event_type);
    expect(events).toEqual(['proposal_sent', 'proposal_viewed', 'proposal_declined']);
    expect((await proposalOf(m.proposal.id)).status).toBe('rejected');
  });
});
