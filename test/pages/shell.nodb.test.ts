// The shell every customer page shares (src/pages): escaping, the headers, the gone pages, and in
// a real browser that the page's own style applies while nothing else (script, outside images) can.
import Fastify, { type FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { html, trusted } from '#platform/html.ts';
import { sendGone, sendUnknownLink } from '#pages/gone.ts';
import { sendPage } from '#pages/respond.ts';
import { linkTokenHash, linkTokensFrom, LINK_TOKEN_LENGTH } from '#platform/link-tokens.ts';
import { launchBrowser } from '#test/helpers/browser.ts';

const HOSTILE = `<script>document.title="ran"</script><img src=x onerror="document.title='ran'">"'&`;

describe('html templates', () => {
  it('escape every value unless it is markup of our own', () => {
    const out = html`<p title="${HOSTILE}">${HOSTILE}</p>${trusted('<hr>')}${[html`<b>${'<i>'}</b>`, 3, null, false]}`;
    expect(out.markup).not.toContain('<script>');
    expect(out.markup).not.toContain('<img');
    expect(out.markup).toContain('&lt;script&gt;');
    expect(out.markup).toContain('&quot;&#39;&amp;');
    expect(out.markup).toContain('<hr><b>&lt;i&gt;</b>3');
  });
});

describe('link tokens', () => {
  const secret = async () => Buffer.from('a'.repeat(64));
  it('are derived again from the stored salt, and found by their hash only', async () => {
    const tokens = linkTokensFrom(secret);
    const issued = await tokens.issue('photo_report');
    expect(issued.token).toHaveLength(LINK_TOKEN_LENGTH);
    expect(await tokens.tokenOf('photo_report', issued.salt)).toBe(issued.token);
    // Another kind with the same salt is another token: a link of one kind never opens another's page.
    expect(await tokens.tokenOf('capital_plan', issued.salt)).not.toBe(issued.token);
    expect(linkTokenHash(issued.token)).toBe(issued.hash);
    expect(issued.hash).not.toContain(issued.token);
    // Another server secret makes other tokens from the same rows.
    expect(await linkTokensFrom(async () => Buffer.from('b'.repeat(64))).tokenOf('photo_report', issued.salt)).not.toBe(
      issued.token,
    );
    expect(linkTokenHash('short')).toBeNull();
    expect(linkTokenHash(`${issued.token.slice(1)}/`)).toBeNull();
  });
});

describe('page answers', () => {
  let app: FastifyInstance;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    app = Fastify();
    app.get('/page', (_request, reply) =>
      sendPage(reply, {
        title: 'Photos of 12 Main St',
        from: HOSTILE,
        body: html`<p id="text">${HOSTILE}</p><img id="far" src="https://images.example.net/a.png">`,
        images: ['https://cdn.example.com/a.png?sig=1'],
      }),
    );
    app.get('/gone', (_request, reply) => sendGone(reply, 'revoked'));
    app.get('/expired', (_request, reply) => sendGone(reply, 'expired'));
    app.get('/unknown', (_request, reply) => sendUnknownLink(reply));
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('send the strict policy, no-referrer and noindex', async () => {
    const res = await app.inject({ url: '/page' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(
      /^default-src 'none'; style-src 'nonce-[A-Za-z0-9+/=]+'; img-src 'self' https:\/\/cdn\.example\.com;/,
    );
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toContain('script-src');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('<meta name="robots" content="noindex, nofollow">');
    // A fresh nonce per answer.
    const again = await app.inject({ url: '/page' });
    expect(again.headers['content-security-policy']).not.toBe(csp);
  });

  it('in a browser: hostile text stays text, the nonce style applies, other origins are refused', async () => {
    const page = await browser.newPage();
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') refused.push(message.text());
    });
    const response = await page.goto(`${base}/page`);
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('Photos of 12 Main St');
    expect(await page.textContent('#text')).toBe(HOSTILE);
    expect(await page.locator('header p').textContent()).toBe(HOSTILE);
    // The layout's stylesheet ran (header background), under the nonce.
    const background = await page.$eval('header', (el) => getComputedStyle(el).backgroundColor);
    expect(background).toBe('rgb(36, 59, 83)');
    // An image from an origin the page did not name is blocked by the policy, not fetched.
    expect(refused.some((text) => text.includes('images.example.net'))).toBe(true);
    await page.close();
  });

  it('dead links show their page: 410 saying why, 404 for a token that never was', async () => {
    const page = await browser.newPage();
    expect((await page.goto(`${base}/gone`))?.status()).toBe(410);
    expect(await page.textContent('main')).toContain('revoked by the sender');
    expect((await page.goto(`${base}/expired`))?.status()).toBe(410);
    expect(await page.textContent('main')).toContain('expired');
    expect((await page.goto(`${base}/unknown`))?.status()).toBe(404);
    expect(await page.textContent('h1')).toBe('Link not found');
    await page.close();
  });
});
