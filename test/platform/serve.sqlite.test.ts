// The first-run experience, end to end in child processes: `groundwork serve` on an empty SQLite
// file seeds the demo workspace and prints a working key once, and its customer pages on every
// start; the package's bin runs the CLI.
import { spawn, execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { syntheticPlan } from '#engines/plans/synthetic-plan.ts';
import { DEMO_PLAN_SEED } from '#seed/demo-landscape.ts';
import { demoYardScene } from '#seed/demo-yard.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { mcpClient } from '#test/helpers/mcp.ts';
import { REPO_ROOT } from '#test/helpers/paths.ts';

const root = REPO_ROOT;
// A cold start (tsx compiling the whole server, migrations, the demo's seed) takes seconds alone
// and can take most of a minute while the suite's other files load the machine: generous waits,
// so a busy CI box is never a failure. The tests' own limits (300 s) cover two starts.
const START_WAIT_MS = 120_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-serve-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Starts `serve`, waits until it has printed `until`, and returns its output so far. */
async function serve(databaseUrl: string, port: number, until: RegExp) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      // Its own data directory (outbox, objects, storage secret), never the checkout's ./data.
      GROUNDWORK_DATA_DIR: path.join(dir, 'data'),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      GROUNDWORK_ADMIN_TOKEN: '',
    },
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Never leave the server running behind a failed test.
      child.kill('SIGKILL');
      reject(new Error(`serve did not print ${until}:\n${output}`));
    }, START_WAIT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (until.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code}:\n${output}`));
    });
  });
  return {
    output,
    stop: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

describe('groundwork serve', () => {
  it('seeds the demo workspace on an empty database and prints its key once', async () => {
    const db = path.join(dir, 'first.sqlite');
    const port = await freePort();
    const first = await serve(db, port, /Background worker/);
    const key = first.output.match(/gw_[A-Za-z0-9]{48}/)?.[0];
    expect(key).toBeDefined();
    try {
      const health = await fetch(`http://127.0.0.1:${port}/v1/health`);
      expect(await health.json()).toEqual({ status: 'ok', version: 'v1' });
      const jobs = await (await fetch(`http://127.0.0.1:${port}/v1/jobs`, { headers: { 'X-API-Key': key! } })).json();
      expect(jobs.pagination.total).toBeGreaterThanOrEqual(5);
      const statuses = new Set(jobs.data.map((j: { status: string }) => j.status));
      for (const s of ['lead', 'active', 'won', 'lost', 'completed']) expect(statuses).toContain(s);
      const customers = await (
        await fetch(`http://127.0.0.1:${port}/v1/client-accounts`, { headers: { 'X-API-Key': key! } })
      ).json();
      expect(customers.pagination.total).toBeGreaterThanOrEqual(3);
      // An issued estimate built from the starter catalog, and the demo tm change order's estimate from it.
      const estimates = await (
        await fetch(`http://127.0.0.1:${port}/v1/estimates`, { headers: { 'X-API-Key': key! } })
      ).json();
      // (The other jobs' estimates are the proposals their customers signed or are reading.)
      const changeOrder = estimates.data.find((e: { is_change_order: boolean }) => e.is_change_order);
      const issued = estimates.data.find((e: { id: number }) => e.id === changeOrder.parent_estimate_id);
      expect(changeOrder).toMatchObject({ status: 'change_order', is_change_order: true });
      expect(issued).toMatchObject({ status: 'estimate', current_version: 1, priced: true });
      expect(issued.totals.price).toBeGreaterThan(10_000);
      const photoTags = await (
        await fetch(`http://127.0.0.1:${port}/v1/photo-tags`, { headers: { 'X-API-Key': key! } })
      ).json();
      expect(photoTags.data.map((tag: { name: string }) => tag.name)).toContain('Pothole');
      // A completed site assessment with measured pins.
      const assessments = await (
        await fetch(`http://127.0.0.1:${port}/v1/site-assessments`, { headers: { 'X-API-Key': key! } })
      ).json();
      expect(assessments.data).toEqual([expect.objectContaining({ status: 'completed', pin_count: 5 })]);
      // Site photos with thumbnails, served by their keyless signed links.
      const photos = await (
        await fetch(`http://127.0.0.1:${port}/v1/photos`, { headers: { 'X-API-Key': key! } })
      ).json();
      expect(photos.data.map((p: { title: string }) => p.title).sort()).toEqual([
        'East entrance close-up',
        'East entrance, base failure',
        'First lane paved',
        'North row stalls',
      ]);
      // Operations: a published week on two crews, a hold, a pending date request, a submitted daily
      // log whose report has a photo, and a sealcoat re-bid coming due.
      const get = async (path: string) =>
        (await fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'X-API-Key': key! } })).json();
      const work = await get('/v1/work-orders');
      expect(work.data.filter((wo: { published: boolean }) => wo.published)).toHaveLength(2);
      expect((await get('/v1/schedule/holds')).data).toHaveLength(1);
      expect((await get('/v1/schedule/date-requests?status=pending')).data).toHaveLength(1);
      const logs = (await get('/v1/daily-logs?status=submitted')).data;
      expect(logs).toHaveLength(1);
      expect((await get(`/v1/daily-logs/${logs[0].id}`)).data.daily_reports[0].photo_count).toBe(1);
      expect((await get('/v1/rebids?status=due')).data).toHaveLength(1);
      // Condition ratings: the walked lot rated from a crew photo, PASER then PCI, which set its pci.
      const properties = (
        await (
          await fetch(`http://127.0.0.1:${port}/v1/exports/properties.jsonl`, { headers: { 'X-API-Key': key! } })
        ).text()
      )
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      const rated = properties.filter((p: { pci: number | null }) => p.pci !== null);
      expect(rated).toHaveLength(1);
      const ratings = (await get(`/v1/locations/${rated[0].id}/condition-ratings`)).data;
      expect(ratings.map((r: { rating_type: string }) => r.rating_type)).toEqual(['pci', 'paser']);
      expect(ratings[0].pci.score).toBe(rated[0].pci);
      expect(ratings[0].pci.score).toBeLessThan(86);
      // The entrance landscaping lead's aerial takeoff: lawn, beds and trees, found by a completed run.
      const takeoffs = (await get('/v1/landscape-takeoffs')).data;
      expect(takeoffs.map((t: { type: string }) => t.type).sort()).toEqual(['aerial', 'blueprint']);
      const aerial = takeoffs.find((t: { type: string }) => t.type === 'aerial');
      const takeoff = (await get(`/v1/landscape-takeoffs/${aerial.id}`)).data;
      expect(takeoff.quantities.areas.map((a: { class: string }) => a.class)).toEqual(
        expect.arrayContaining(['lawn', 'bed']),
      );
      expect(takeoff.quantities.tree_count).toBe(demoYardScene.truth.trees.length);
      expect(takeoff.ai_detection.credit_used).toBe(true);
      // …and its plan takeoff, read from the plan set on the job (a PDF made at seed time): the
      // schedule found, each plant's quantity what its callouts state, callout and symbol dots
      // from the advanced run on the two drawn sheets taken off, and the sheets served as PNGs.
      const { truth } = await syntheticPlan(DEMO_PLAN_SEED);
      const planned = (
        await get(`/v1/landscape-takeoffs/${takeoffs.find((t: { type: string }) => t.type === 'blueprint').id}`)
      ).data;
      expect(planned).toMatchObject({
        type: 'blueprint',
        name: 'Entrance planting plans',
        page_count: 3,
        pages: [1, 2],
        ai_detection: { credit_used: true },
        item_count: truth.callouts.length + truth.symbols.length,
      });
      expect(planned.schedule.status).toBe('found');
      expect(planned.schedule.rows.map((r: { code: string }) => r.code)).toEqual(truth.rows.map((r) => r.code));
      const fromCallouts = planned.quantities.plants.filter(
        (p: { quantity_source: string }) => p.quantity_source === 'callouts',
      );
      expect(fromCallouts.length).toBeGreaterThan(0);
      for (const p of fromCallouts) {
        const stated = truth.callouts.filter((c) => c.code === p.code).reduce((sum, c) => sum + c.count, 0);
        expect(p.quantity, p.code).toBe(stated);
        expect(p.dot_count, p.code).toBeGreaterThan(0);
      }
      const dotsOf = async (kind: string) =>
        (await get(`/v1/landscape-takeoffs/${planned.id}/items?kind=${kind}&limit=1`)).pagination.total;
      expect(await dotsOf('callout')).toBe(truth.callouts.length);
      expect(await dotsOf('plant')).toBe(truth.symbols.length);
      const sheet = await fetch(`http://127.0.0.1:${port}/v1/landscape-takeoffs/${planned.id}/sheets/1/image`, {
        headers: { 'X-API-Key': key! },
      });
      expect(sheet.status).toBe(200);
      expect(sheet.headers.get('content-type')).toBe('image/png');
      expect(
        Buffer.from(await sheet.arrayBuffer())
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
      for (const link of [photos.data[0].url, photos.data[0].thumbnail_url]) {
        const file = await fetch(link);
        expect(file.status).toBe(200);
        expect(file.headers.get('content-type')).toBe('image/jpeg');
      }
      // The walked job's photo report link: its page shows the photos, drawn from signed links.
      const report = await (
        await fetch(`http://127.0.0.1:${port}/v1/jobs/${photos.data[0].job_id}/photo-share-link`, {
          headers: { 'X-API-Key': key! },
        })
      ).json();
      expect(report.data).toMatchObject({ enabled: true, access_mode: 'public', is_expired: false });
      const reportPage = await fetch(report.data.share_url);
      expect(reportPage.status).toBe(200);
      const reportHtml = await reportPage.text();
      expect(reportHtml).toContain('East entrance, base failure');
      expect(reportHtml).toContain('Blacktop Brothers');
      // A file on the walked job, and a Company Library file linked to it; /download redirects.
      // (Beside them, the executed PDFs of the proposals the demo's customers signed.)
      const files = await (await fetch(`http://127.0.0.1:${port}/v1/files`, { headers: { 'X-API-Key': key! } })).json();
      const made = (f: { source: string }) => f.source !== 'proposal';
      expect(
        files.data
          .filter(made)
          .map((f: { filename: string; source: string }) => [f.filename, f.source])
          .sort(),
      ).toEqual([
        ['Crew safety checklist.txt', 'library'],
        ['Entrance planting plans.pdf', 'job'],
        ['Takeoff quantities.csv', 'job'],
      ]);
      const onJob = files.data.find((f: { filename: string }) => f.filename === 'Takeoff quantities.csv');
      const jobFiles = await (
        await fetch(`http://127.0.0.1:${port}/v1/jobs/${onJob.job_id}/files`, { headers: { 'X-API-Key': key! } })
      ).json();
      const uploaded = jobFiles.data.filter(made);
      expect(uploaded.map((f: { filename: string }) => f.filename)).toEqual([
        'Takeoff quantities.csv',
        'Crew safety checklist.txt',
      ]);
      expect(uploaded[1].attachment).toMatchObject({ job_id: onJob.job_id, attached_by_rule: null });
      const download = await fetch(`http://127.0.0.1:${port}${onJob.download_url}`, { headers: { 'X-API-Key': key! } });
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(await download.text()).toContain('Sealcoating,38500,SF');
      // The printed customer pages open without a key: the walk's report (with its pin photo) and the lot's plan.
      const pages = [
        ...first.output.matchAll(/(Assessment report|Capital plan): (http:\/\/localhost:\d+\/share\/\S+)/g),
      ];
      expect(pages.map((m) => m[1])).toEqual(['Assessment report', 'Capital plan']);
      for (const [, label, url] of pages) {
        const opened = await fetch(url!.replace('localhost', '127.0.0.1'));
        expect(opened.status, label).toBe(200);
        const html = await opened.text();
        expect(html).toContain('Lot walk with Marcus');
        if (label === 'Assessment report') expect(html).toMatch(/<img src="http:\/\/127\.0\.0\.1:\d+\/v1\/objects\//);
      }
      // The customer portal (with the office's message and the customer's answer) and a review waiting to be written.
      const portalPages = [
        ...first.output.matchAll(/(Customer portal|Review request): (http:\/\/localhost:\d+\/share\/\S+)/g),
      ];
      expect(portalPages.map((m) => m[1])).toEqual(['Customer portal', 'Review request']);
      const portalHtml = await (await fetch(portalPages[0]![2]!.replace('localhost', '127.0.0.1'))).text();
      expect(portalHtml).toContain('Your crew is booked for Monday');
      const reviewPage = await fetch(portalPages[1]![2]!.replace('localhost', '127.0.0.1'));
      expect(reviewPage.status).toBe(200);
      expect(await reviewPage.text()).toContain('name="rating"');
      // The printed MCP URL serves the demo workspace to an assistant with the printed key.
      expect(first.output).toContain(`http://localhost:${port}/v1/mcp`);
      const assistant = await mcpClient(`http://127.0.0.1:${port}`, key!, { bearer: true });
      const listed = (await assistant.callTool({ name: 'list_jobs', arguments: { limit: 1 } })) as any;
      expect(listed.structuredContent.pagination.total).toBe(jobs.pagination.total);
      await assistant.close();
      expect(fs.existsSync(db)).toBe(true);
      // Turned off before the next start: that start says so beside its link.
      const maple = customers.data.find((c: { name: string }) => c.name === 'Maple Ridge HOA');
      const off = await fetch(`http://127.0.0.1:${port}/v1/client-accounts/${maple.id}/portal-link/disable`, {
        method: 'POST',
        headers: { 'X-API-Key': key!, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(off.status).toBe(200);
    } finally {
      await first.stop();
    }

    // A second start finds the workspace: no key (only its hash is kept) but how to make one, and
    // the same customer pages, derived again from their links' salts.
    const second = await serve(db, port, /Background worker/);
    try {
      expect(second.output).not.toMatch(/gw_[A-Za-z0-9]{48}/);
      expect(second.output).toContain('npm run admin -- key create 1 --user 1');
      const linksOf = (output: string) =>
        [...output.matchAll(/^ {4}(.+?): (http:\/\/localhost:\d+\/share\/\S+)(.*)$/gm)].map((m) => [m[1], m[2], m[3]]);
      const before = linksOf(first.output);
      expect(before.map(([label]) => label)).toEqual([
        'Assessment report',
        'Capital plan',
        'Proposal (sent, ready to sign)',
        'Proposal (accepted, with the signed PDF)',
        'Invoice (online, pay with test card 4242 4242 4242 4242)',
        'Change order (sent, ready to sign)',
        'Customer portal',
        'Review request',
      ]);
      expect(linksOf(second.output)).toEqual(
        before.map(([label, url]) => [label, url, label === 'Customer portal' ? ' (turned off since)' : '']),
      );
      for (const [label, url] of linksOf(second.output)) {
        const opened = await fetch(url!.replace('localhost', '127.0.0.1'));
        expect(opened.status, label).toBe(label === 'Customer portal' ? 410 : 200);
      }
      expect(second.output).toContain('Warning: GROUNDWORK_PUBLIC_URL is not set');
    } finally {
      await second.stop();
    }
  }, 300_000);
});

describe('the package bin', () => {
  it('runs the admin CLI', async () => {
    const db = path.join(dir, 'bin.sqlite');
    const run = promisify(execFile);
    const created = await run(
      process.execPath,
      [
        path.join(root, 'bin/groundwork.js'),
        'admin',
        'workspace',
        'create',
        '--name',
        'Bin Paving',
        '--owner-name',
        'Ana',
        '--owner-email',
        'ana@bin.example',
        '--json',
      ],
      { env: { ...process.env, DATABASE_URL: db, GROUNDWORK_DATA_DIR: path.join(dir, 'bin-data') } },
    );
    const { data } = JSON.parse(created.stdout);
    expect(data).toMatchObject({ firm_id: 1, owner_user_id: 1 });
    const listed = await run(
      process.execPath,
      [path.join(root, 'bin/groundwork.js'), 'admin', 'workspace', 'list', '--json'],
      { env: { ...process.env, DATABASE_URL: db, GROUNDWORK_DATA_DIR: path.join(dir, 'bin-data') } },
    );
    expect(JSON.parse(listed.stdout).data[0]).toMatchObject({ firm_id: 1, name: 'Bin Paving', plan: 'gold' });
  }, 300_000);
});
