// A real browser for customer-page tests (GUIDE "Customer pages"): Debian's Chromium driven by
// Playwright (playwright-core, which brings no browser of its own). `.ci/run` installs Chromium
// when it is missing; elsewhere install it (`apt-get install chromium`) or point CHROMIUM_PATH at
// one. A page test fails, it never skips, when there is no browser.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { TestApp } from './harness.ts';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

function chromiumPath(): string {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return configured;
  const found = CANDIDATES.find((candidate) => fs.existsSync(candidate));
  if (!found)
    throw new Error('Customer-page tests need Chromium: install it (apt-get install chromium) or set CHROMIUM_PATH');
  return found;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    // The flags keep a headless Chromium from reaching for Google's services: the machines that
    // run the suite have no outside network, and those attempts only slow a start.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The app listening on loopback (pages need a real origin: signed image links point at it). */
export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** What a page loaded, for assertions: its status and the images it could actually draw. */
export async function open(page: Page, url: string): Promise<{ status: number }> {
  const response = await page.goto(url);
  if (!response) throw new Error(`no response for ${url}`);
  return { status: response.status() };
}

/** The natural widths of the page's images: 0 for one the browser could not load (or was refused). */
export function drawnImages(page: Page): Promise<{ src: string; width: number }[]> {
  return page.$$eval('img', (images) =>
    images.map((img) => ({ src: (img as HTMLImageElement).src, width: (img as HTMLImageElement).naturalWidth })),
  );
}

/** Draws a zigzag on a signing page's pad with the mouse, as a customer would with a finger. */
export async function drawSignature(page: Page): Promise<void> {
  const pad = page.locator('#signature-canvas');
  // The mouse works in the viewport: the pad, at the foot of a long page, comes into view first.
  await pad.scrollIntoViewIfNeeded();
  const box = await pad.boundingBox();
  if (!box) throw new Error('the signature pad is not shown');
  await page.mouse.move(box.x + 20, box.y + box.height * 0.7);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++)
    await page.mouse.move(box.x + 20 + i * ((box.width - 40) / 12), box.y + box.height * (i % 2 === 0 ? 0.7 : 0.3), {
      steps: 4,
    });
  await page.mouse.up();
}

/** A phone's screen: the width customer pages must fit without scrolling sideways. */
export const PHONE = { width: 390, height: 844 };

/**
 * How a page fits the width it is shown at: how far the page itself scrolls sideways (0 when it
 * fits) and, for each element named by `inside` (a table's scroll box), how far its content reaches
 * past the box (cut off unless the box scrolls).
 */
export function sidewaysOverflow(page: Page, inside?: string): Promise<{ page: number; inside: number[] }> {
  return page.evaluate((selector) => {
    const root = document.documentElement;
    const boxes = selector ? [...document.querySelectorAll(selector)] : [];
    return {
      page: root.scrollWidth - root.clientWidth,
      inside: boxes.map((box) => Math.max(0, box.scrollWidth - box.clientWidth)),
    };
  }, inside);
}
