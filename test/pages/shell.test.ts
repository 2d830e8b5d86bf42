// What every customer page answers through the pages' shell (src/pages/pages.ts, errors.ts):
// params and form posts are validated by their schemas and a failure is an HTML page with the
// pages' headers, never the API's JSON; a token longer than any we make is the unknown-link 404;
// a form field the page does not have is a 400 page and changes nothing; /favicon.ico is the
// pages' icon.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { pageVisitor, type PageAnswer } from '#test/helpers/page-visitor.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t?.close());

const { getPage, post } = pageVisitor(() => t, 'Mozilla/5.0 (page shell test)');

/** An HTML page with the pages' headers (respond.ts), never the API's JSON. */
function htmlPage(r: PageAnswer, status: number, title: string) {
  expect(r.status).toBe(status);
  expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(r.headers['referrer-policy']).toBe('no-referrer');
  expect(r.headers['x-robots-tag']).toBe('noindex, nofollow');
  expect(r.headers['cache-control']).toBe('no-store');
  expect(r.text).toContain(`<title>${title}</title>`);
}

describe('page params and forms', () => {
  it('a token longer than any link is the unknown-link page, on every page kind', async () => {
    const long = 'x'.repeat(100);
    for (const kind of ['proposals', 'invoices', 'change-orders', 'portal', 'reviews', 'photos', 'plans']) {
      htmlPage(await getPage(`/share/${kind}/${long}`), 404, 'Link not found');
    }
  });

  it('a form with a field the page does not have is a 400 page', async () => {
    const r = await post('/share/proposals/some-token/decline', { reason: 'Too dear', colour: 'red' });
    htmlPage(r, 400, 'The form could not be read');
    expect(r.text).toContain('does not match this page');
  });

  it('a portal job id that is not a number names no job: the unknown-link page', async () => {
    htmlPage(await post('/share/portal/some-token/jobs/abc/messages', { body: 'Hello' }), 404, 'Link not found');
  });
});

describe('/favicon.ico', () => {
  it('answers the pages’ 32 px icon as an ICO, cached for a day', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/favicon.ico' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('image/x-icon');
    expect(r.headers['cache-control']).toBe('public, max-age=86400');
    const ico = r.rawPayload;
    // ICONDIR: reserved 0, type 1 (icon), one image; its entry: 32 × 32, 32 bits, the PNG after the header.
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 1]);
    expect([ico.readUInt8(6), ico.readUInt8(7), ico.readUInt16LE(12)]).toEqual([32, 32, 32]);
    const offset = ico.readUInt32LE(18);
    const png = ico.subarray(offset, offset + ico.readUInt32LE(14));
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 32, 32]);
  });
});
