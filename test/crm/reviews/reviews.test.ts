// Reviews (document 2: POST /v1/jobs/{job_id}/review-request, 201 with review_url, nothing sent,
// client name and email defaulting from the job; GET /v1/reviews with job_id and submitted, newest
// first). The customer's side is tested here through the page's form post and in a browser
// (test/pages/review.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock } from '#platform/time.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { account, job, logOf, ok, Z_SECONDS } from '#test/helpers/records.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const REVIEW_URL = /^http:\/\/localhost(:\d+)?\/share\/reviews\/[A-Za-z0-9_-]{43}$/;
const requestPath = (jobId: number) => `/v1/jobs/${jobId}/review-request`;

function submit(url: string, fields: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: new URL(url).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
}

describe('POST /v1/jobs/{job_id}/review-request', () => {
  it('makes a review link (201) with the client from the job contact; nothing is sent', async () => {
    const w = await t.workspace();
    const j = await job(w, { contact_name: 'Dana Reyes', contact_email: 'dana@example.com' });
    const res = await w.api.post(requestPath(j.id), {});
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: {
        id: expect.any(Number),
        job_id: j.id,
        client_name: 'Dana Reyes',
        client_email: 'dana@example.com',
        submitted: false,
        rating: null,
        content: null,
        is_public: false,
        review_url: expect.stringMatching(REVIEW_URL),
        submitted_at: null,
        created_at: expect.stringMatching(Z_SECONDS),
      },
    });
    expect(
      await t.database.db.selectFrom('outgoing_mail').selectAll().where('firm_id', '=', w.firmId).execute(),
    ).toEqual([]);
  });

  it('falls back to the bill-to, then the company and the customer email; the body wins; a bad email is 400', async () => {
    const w = await t.workspace();
    const billTo = await job(w, { bill_to_name: 'Acme Billing', bill_to_email: 'ap@acme.test' });
    expect((await ok(w.api.post(requestPath(billTo.id), {}))).data).toMatchObject({
      client_name: 'Acme Billing',
      client_email: 'ap@acme.test',
    });
    const c = await account(w, 'Corner Store', { email: 'owner@corner.test' });
    const fromCustomer = await job(w, { client_account_id: c.id });
    expect((await ok(w.api.post(requestPath(fromCustomer.id), {}))).data).toMatchObject({
      client_name: 'Corner Store',
      client_email: 'owner@corner.test',
    });
    const given = await ok(
      w.api.post(requestPath(fromCustomer.id), { client_name: 'Pat Owner', client_email: 'pat@corner.test' }),
    );
    expect(given.data).toMatchObject({ client_name: 'Pat Owner', client_email: 'pat@corner.test' });
    const cleared = await ok(w.api.post(requestPath(fromCustomer.id), { client_name: null, client_email: null }));
    expect(cleared.data).toMatchObject({ client_name: null, client_email: null });
    const bad = await w.api.post(requestPath(fromCustomer.id), { client_email: 'not-an-email' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_email', field: 'client_email' });
    const unknown = await w.api.post(requestPath(fromCustomer.id), { rating: 5 });
    expect(unknown.status).toBe(400);
    const long = await w.api.post(requestPath(fromCustomer.id), { client_name: 'x'.repeat(201) });
    expect(long.status).toBe(400);
  });

  it("is 404 for another workspace's job or a missing one; 403 for a read-only key", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const j = await job(w);
    for (const id of [j.id, 99999999]) {
      const res = await other.api.post(requestPath(id), {});
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Job not found');
    }
    const reader = await t.user(w.firmId, {}, ['read_jobs']);
    expect((await reader.api.post(requestPath(j.id), {})).status).toBe(403);
  });
});

describe('GET /v1/reviews and the review page', () => {
  it('lists newest first, filters by job and submitted; the page writes a review once', async () => {
    const w = await t.workspace();
    const a = await job(w, { contact_name: 'A', contact_email: 'a@example.com' });
    const b = await job(w);
    const first = (await ok(w.api.post(requestPath(a.id), {}))).data;
    advanceClock(1500);
    const second = (await ok(w.api.post(requestPath(b.id), {}))).data;
    advanceClock(1500);
    const third = (await ok(w.api.post(requestPath(a.id), {}))).data;
    const ids = (r: any) => r.data.map((x: any) => x.id);
    const all = await ok(w.api.get('/v1/reviews'));
    expect(ids(all)).toEqual([third.id, second.id, first.id]);
    expect(all.pagination).toEqual({ total: 3, limit: 50, offset: 0 });
    expect(all.data[2]).toEqual(first);
    expect(ids(await ok(w.api.get(`/v1/reviews?job_id=${a.id}`)))).toEqual([third.id, first.id]);

    const page = await t.app.inject({ url: new URL(first.review_url).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('name="rating"');
    const sent = await submit(first.review_url, { rating: '4', content: 'Smooth lot, on time.', is_public: 'yes' });
    expect(sent.statusCode).toBe(303);
    const again = await submit(first.review_url, { rating: '1', content: 'Changed my mind' });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('already sent');

    const written = await ok(w.api.get('/v1/reviews?submitted=true'));
    expect(written.data).toEqual([
      {
        ...first,
        submitted: true,
        rating: 4,
        content: 'Smooth lot, on time.',
        is_public: true,
        submitted_at: expect.stringMatching(Z_SECONDS),
      },
    ]);
    expect(ids(await ok(w.api.get('/v1/reviews?submitted=false')))).toEqual([third.id, second.id]);
    expect(ids(await ok(w.api.get(`/v1/reviews?submitted=false&job_id=${a.id}`)))).toEqual([third.id]);
    expect(ids(await ok(w.api.get('/v1/reviews?limit=1&offset=1')))).toEqual([second.id]);
    expect((await logOf(w, a.id)).map((e) => e.summary)).toContain('Review written: 4 of 5 stars');
    const thanks = await t.app.inject({ url: new URL(first.review_url).pathname });
    expect(thanks.body).toContain('Thank you for your review');
    expect(thanks.body).not.toContain('name="rating"');
  });

  it('the page refuses a missing or out-of-range rating (400, nothing saved); an unknown token is 404', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const r = (await ok(w.api.post(requestPath(j.id), {}))).data;
    for (const rating of ['', '0', '6', '3.5', 'five'])
      expect((await submit(r.review_url, { rating, content: 'x' })).statusCode).toBe(400);
    expect((await submit(r.review_url, { rating: '5', content: 'y'.repeat(5001) })).statusCode).toBe(400);
    expect((await ok(w.api.get('/v1/reviews?submitted=true'))).data).toEqual([]);
    const unknown = `${new URL(r.review_url).pathname.slice(0, -3)}xyz`;
    expect((await t.app.inject({ url: unknown })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/share/reviews/short' })).statusCode).toBe(404);
  });

  it('shows only reviews of the workspace (and, for a user who sees only their own jobs, of their jobs); bad filters are 400', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const j = await job(w);
    await ok(w.api.post(requestPath(j.id), {}));
    expect((await ok(other.api.get('/v1/reviews'))).data).toEqual([]);
    const own = await t.user(w.firmId, { sees_own_jobs_only: true });
    expect((await ok(own.api.get('/v1/reviews'))).data).toEqual([]);
    const mine = await job(own, {});
    await ok(own.api.post(requestPath(mine.id), {}));
    expect((await ok(own.api.get('/v1/reviews'))).data.map((r: any) => r.job_id)).toEqual([mine.id]);
    expect((await w.api.get('/v1/reviews?submitted=maybe')).status).toBe(400);
    expect((await w.api.get('/v1/reviews?job_id=abc')).status).toBe(400);
    expect((await w.api.get('/v1/reviews?limit=201')).status).toBe(400);
  });
});
