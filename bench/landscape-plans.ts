// Landscape benchmark, the plan half (docs/performance.md, "Landscape"; issue 28: "a 20-page plan
// stored and read against rendering its pages with the PDF library alone (≤ 2×)"). Run by
// bench/landscape.ts after the detect half, on the same database.
//
// - The plan set: engines/plans' synthetic plans (synthetic-plan.ts) cut and joined with MuPDF
//   into one PDF of PLAN_PAGES sheets: the planting plan with the plant schedule (seed 1's sheet 1),
//   then planting sheets with callouts and symbols (sheet 2 of seeds 1, 2, …: stored portrait with
//   /Rotate 90, as CAD programs write them), then SCANS scanned sheets (sheet 3 of seeds 1, 2, …:
//   one noisy greyscale JPEG each, no text layer). Mostly vector sheets and a couple of scans, as a
//   landscape architect's set is; the scans are the costly sheets to render (a 2448 × 1584 px PNG
//   of scanner noise). Served from memory by a local HTTP server.
// - Stored and read: POST /v1/jobs/{job_id}/landscape-takeoffs {type: blueprint, file_url} (202, a
//   pending `plan` run: the PDF fetched, opened and stored in the request), then the worker task
//   (landscapeRunTask(env).sweep(), in this process) until the run is done (every sheet rendered at
//   144 dpi and stored, its text read, the schedule and callouts read, the takeoff written), then
//   GET the run and GET the takeoff. Each call makes a new takeoff and uses one credit.
// - Its baseline: MuPDF rendering every sheet at 144 dpi to PNG alone (renderSheet from
//   engines/plans, the PDF opened once a call), in the same process and run.
// - An advanced run on the stored plan: POST /v1/landscape-takeoffs/{id}/advanced-run (202), the
//   worker until done (the stored PDF opened, every sheet's callouts and symbols read again, the
//   found dots replaced in one save), GET the run; against readPlantTakeoff alone on the same sheets
//   (the PDF opened a call, given the sheets' text and the schedule, as the run reads them from the
//   takeoff). The same takeoff every call: each run replaces the dots of the one before.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as mupdf from 'mupdf';
import { buildApp } from '#src/app.ts';
import { startEnv } from '#src/env.ts';
import type { Database } from '#db/database.ts';
import {
  findSchedule,
  openPlan,
  type PlantSchedule,
  planText,
  readPlantTakeoff,
  renderSheet,
  SHEET_DPI,
  type SheetText,
} from '#engines/plans/index.ts';
import { syntheticPlan } from '#engines/plans/synthetic-plan.ts';
import { updateWorkspace } from '#admin/workspaces.ts';
import { landscapeRunTask } from '#measurement/index.ts';
import { systemClock } from '#platform/clock.ts';
import { call } from './api-call.ts';
import { readsMeanwhile } from './meanwhile.ts';
import { jobBody } from './job-body.ts';
import { fmt, listen, ms } from './load.ts';
import { sized } from './mode.ts';
import {
  alternate,
  median,
  p50Of,
  type Row,
  type RoundPlan,
  ratioLine,
  ratios,
  roundTable,
  verdict,
} from './rounds.ts';

/** Sheets in the plan set, and how many of them are scans (smoke: three drawn sheets, no scan: seconds). */
export const PLAN_PAGES = sized(20, 20, 3);
export const PLAN_SCANS = sized(2, 2, 0);
const PLAN: RoundPlan = {
  warmup: sized(1, 1, 0),
  rounds: sized(5, 3, 1),
  /** A call takes seconds: 2 of each side a round, no minimum time. */
  perRound: sized(2, 2, 1),
  minSideS: 0,
};
export const PLAN_TARGET = 2;

/** Per round, the measured side's CPU time a call over the baseline's; and their median (steadier than wall time on a shared machine). */
function cpuRatios(rows: Row[], measured: string, baseline: string): { each: number[]; median: number } {
  const each = [...new Set(rows.map((r) => r.round))].map((round) => {
    const m = rows.find((r) => r.round === round && r.label === measured)!;
    const b = rows.find((r) => r.round === round && r.label === baseline)!;
    return m.cpuMs / b.cpuMs;
  });
  return { each, median: median(each) };
}

export interface PlanSet {
  bytes: Buffer;
  /** The sheets that are scans, from 1. */
  scanned: number[];
}

/**
 * A plan set of `pages` sheets, `scans` of them scanned: the schedule sheet, then pages − scans − 1
 * planting sheets, then the scans, cut from synthetic plans of seeds 1, 2, … and joined with MuPDF.
 */
export async function planSet(pages: number, scans: number): Promise<PlanSet> {
  const vector = pages - scans - 1;
  if (vector < 0 || scans < 0) throw new Error(`a ${pages}-sheet set cannot hold ${scans} scans and a schedule`);
  const sources: mupdf.PDFDocument[] = [];
  for (let seed = 1; seed <= Math.max(1, vector, scans); seed++) {
    const doc = mupdf.Document.openDocument((await syntheticPlan(seed)).bytes, 'application/pdf').asPDF();
    if (!doc) throw new Error('a synthetic plan is not a PDF');
    sources.push(doc);
  }
  const out = new mupdf.PDFDocument();
  try {
    // graftPage(-1, …) appends; the synthetic plan's sheets are 0 (schedule), 1 (rotated), 2 (scan).
    out.graftPage(-1, sources[0]!, 0);
    for (let i = 0; i < vector; i++) out.graftPage(-1, sources[i]!, 1);
    for (let i = 0; i < scans; i++) out.graftPage(-1, sources[i]!, 2);
    const bytes = Buffer.from(out.saveToBuffer('compress').asUint8Array());
    return { bytes, scanned: Array.from({ length: scans }, (_, i) => pages - scans + 1 + i) };
  } finally {
    out.destroy();
    for (const s of sources) s.destroy();
  }
}

/** A local HTTP server handing out the plan set at /plan.pdf (the app is allowed private networks). */
async function servePlan(bytes: Buffer): Promise<{ url: string; requests: number; close(): Promise<void> }> {
  const state = { requests: 0 };
  const server = http.createServer((req, res) => {
    if (req.url !== '/plan.pdf') {
      res.writeHead(404).end();
      return;
    }
    state.requests++;
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(bytes.length) }).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/plan.pdf`,
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function planBench(database: Database, ws: { firmId: number; key: string }) {
  const t0 = performance.now();
  const set = await planSet(PLAN_PAGES, PLAN_SCANS);
  const generatedMs = performance.now() - t0;
  const pages = Array.from({ length: PLAN_PAGES }, (_, i) => i + 1);
  // Every plan takeoff stores its pages for a credit.
  await updateWorkspace(database, ws.firmId, { settings: { takeoff_credits: 100_000 } });
  const server = await servePlan(set.bytes);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-bench-landscape-plans-'));
  const env = startEnv(database, { dataDir, allowPrivateNetwork: true });
  const worker = landscapeRunTask(env, { clock: systemClock, leaseMs: 10 * 60_000 });
  const app = await buildApp(database, {
    env,
    adminToken: null,
    rateLimit: { max: 1e9, windowMs: 1000 },
    logLevel: false,
  });
  try {
    const api = await listen(app);
    const { key } = ws;
    const job = (await call(api, key, 'POST', '/v1/jobs', 201, jobBody())).data;

    /** Runs the worker until nothing is pending: the sweeps that did a run. */
    const work = async () => {
      let swept = 0;
      while ((await worker.sweep()) > 0) swept++;
      return swept;
    };
    const finished = async (run: Record<string, unknown>, swept: number) => {
      const done = (await call(api, key, 'GET', `/v1/landscape-runs/${run.id}`, 200)).data;
      if (done.status !== 'completed' || swept !== 1)
        throw new Error(
          `run ${run.id} (${run.kind}): ${done.status} after ${swept} sweeps ${JSON.stringify(done.failure)}`,
        );
      return done;
    };

    // Stored and read, end to end; each call's parts kept, to tell the request, the worker and the reads apart.
    const storeParts = { post: [] as number[], sweep: [] as number[], get: [] as number[] };
    const storeAndRead = async () => {
      const a = performance.now();
      const run = (
        await call(api, key, 'POST', `/v1/jobs/${job.id}/landscape-takeoffs`, 202, {
          type: 'blueprint',
          file_url: server.url,
        })
      ).data;
      const b = performance.now();
      const swept = await work();
      const c = performance.now();
      const done = await finished(run, swept);
      const takeoff = (await call(api, key, 'GET', `/v1/landscape-takeoffs/${done.takeoff_id}`, 200)).data;
      const d = performance.now();
      storeParts.post.push(b - a);
      storeParts.sweep.push(c - b);
      storeParts.get.push(d - c);
      return { run: done, takeoff };
    };
    const first = await storeAndRead();
    const firstResult = first.run.result as {
      pages_stored: number;
      scanned_pages: number[];
      schedule: { status: string; rows: number };
      callouts: number;
    };
    if (firstResult.pages_stored !== PLAN_PAGES || firstResult.schedule.status !== 'found')
      throw new Error(`the plan run stored ${firstResult.pages_stored} pages, schedule ${firstResult.schedule.status}`);
    if (JSON.stringify(firstResult.scanned_pages) !== JSON.stringify(set.scanned))
      throw new Error(`scanned pages ${firstResult.scanned_pages}, the set's ${set.scanned}`);

    // The baseline's inputs, and what the advanced run reads from the takeoff: the text, the schedule.
    let texts: SheetText[];
    let schedule: PlantSchedule;
    let pngBytes = 0;
    {
      const plan = openPlan(set.bytes);
      try {
        texts = planText(plan);
        schedule = findSchedule(texts);
        for (const p of pages) pngBytes += renderSheet(plan, p).png.length;
      } finally {
        plan.close();
      }
    }

    const RENDER = `MuPDF renders the ${PLAN_PAGES} sheets at ${SHEET_DPI} dpi to PNG alone, the PDF opened once (baseline)`;
    const STORE = `POST …/landscape-takeoffs {blueprint, file_url}, the worker until completed, GET the run and the takeoff`;
    const storeRows = await alternate(
      'plan stored and read',
      [
        {
          label: RENDER,
          run: async () => {
            const plan = openPlan(set.bytes);
            try {
              for (const p of pages) renderSheet(plan, p);
            } finally {
              plan.close();
            }
          },
        },
        {
          label: STORE,
          run: async () => {
            await storeAndRead();
          },
        },
      ],
      PLAN,
    );

    // The advanced run, on the first takeoff (its sheets stored): again and again, each replacing the last one's dots.
    const takeoffId = first.takeoff.id as number;
    const advancedParts = { post: [] as number[], sweep: [] as number[], get: [] as number[] };
    let lastAdvanced: Record<string, unknown> = {};
    const advanced = async () => {
      const a = performance.now();
      const run = (await call(api, key, 'POST', `/v1/landscape-takeoffs/${takeoffId}/advanced-run`, 202, {})).data;
      const b = performance.now();
      const swept = await work();
      const c = performance.now();
      lastAdvanced = await finished(run, swept);
      const d = performance.now();
      advancedParts.post.push(b - a);
      advancedParts.sweep.push(c - b);
      advancedParts.get.push(d - c);
    };
    await advanced();
    const READ = `readPlantTakeoff alone on the ${PLAN_PAGES} sheets (the PDF opened, the text and schedule given) (baseline)`;
    const ADVANCED = 'POST …/advanced-run, the worker until completed, GET the run';
    let engineRead: ReturnType<typeof readPlantTakeoff> | null = null;
    const advancedRows = await alternate(
      'advanced run',
      [
        {
          label: READ,
          run: async () => {
            const plan = openPlan(set.bytes);
            try {
              engineRead = readPlantTakeoff(plan, { pages, texts, schedule });
            } finally {
              plan.close();
            }
          },
        },
        { label: ADVANCED, run: advanced },
      ],
      PLAN,
    );
    const advancedResult = lastAdvanced.result as { dots: number; callouts: number; removed: number };
    const read = engineRead as ReturnType<typeof readPlantTakeoff> | null;
    const engineDots = read ? read.plants.reduce((s, p) => s + p.dots.length, 0) + read.callouts.length : 0;
    if (advancedResult.dots !== engineDots)
      throw new Error(`the advanced run placed ${advancedResult.dots} dots, readPlantTakeoff ${engineDots}`);
    // The server's other answers while one more plan is stored and read (the run on the worker
    // task, in this process as inside `serve`; MuPDF's work on the engine thread).
    const meanwhile = await readsMeanwhile(api, key, storeAndRead);
    // The warm-up calls left out.
    const timed = (xs: number[], skip: number) => median(xs.slice(skip));
    return {
      generatedMs,
      pdfBytes: set.bytes.length,
      scanned: set.scanned,
      pngBytes,
      first: firstResult,
      plants: first.takeoff.quantities as {
        plants: { code: string; quantity: number; quantity_source: string }[];
        plant_total: number;
      },
      store: {
        meanwhile,
        rows: storeRows,
        ratio: ratios(storeRows, STORE, RENDER),
        cpuRatio: cpuRatios(storeRows, STORE, RENDER),
        apiMs: p50Of(storeRows, STORE),
        baseMs: p50Of(storeRows, RENDER),
        // The first (untimed) call and the warm-up ones left out.
        parts: {
          post: timed(storeParts.post, 1 + PLAN.warmup),
          sweep: timed(storeParts.sweep, 1 + PLAN.warmup),
          get: timed(storeParts.get, 1 + PLAN.warmup),
        },
      },
      advanced: {
        rows: advancedRows,
        ratio: ratios(advancedRows, ADVANCED, READ),
        cpuRatio: cpuRatios(advancedRows, ADVANCED, READ),
        apiMs: p50Of(advancedRows, ADVANCED),
        baseMs: p50Of(advancedRows, READ),
        parts: {
          post: timed(advancedParts.post, 1 + PLAN.warmup),
          sweep: timed(advancedParts.sweep, 1 + PLAN.warmup),
          get: timed(advancedParts.get, 1 + PLAN.warmup),
        },
        dots: advancedResult.dots,
        callouts: advancedResult.callouts,
      },
      pdfRequests: server.requests,
    };
  } finally {
    await app.close();
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function planReport(p: Awaited<ReturnType<typeof planBench>>): string[] {
  const s = p.store;
  const a = p.advanced;
  return [
    `## A ${PLAN_PAGES}-sheet plan stored and read`,
    '',
    `The plan set: ${PLAN_PAGES} tabloid sheets (${fmt(p.pdfBytes / 1024)} KiB), joined from engines/plans' synthetic plans: ` +
      `the schedule sheet, ${PLAN_PAGES - PLAN_SCANS - 1} planting sheets with callouts and vector symbols (stored portrait, /Rotate 90), ` +
      `${PLAN_SCANS} scanned sheet(s) (sheets ${p.scanned.join(', ')}: a greyscale JPEG each, no text); made in ${fmt(p.generatedMs / 1000, 1)} s before the runs. ` +
      `Served from memory by a local HTTP server (file_url). Every sheet renders to a 2448 × 1584 px PNG; the ${PLAN_PAGES} come to ${fmt(p.pngBytes / 1024 / 1024, 1)} MiB. ` +
      `The plan run stored ${p.first.pages_stored} sheets, found the schedule (${p.first.schedule.rows} rows), read ${p.first.callouts} callouts; ` +
      `plants: ${p.plants.plants.map((x) => `${x.code} ${x.quantity} (${x.quantity_source})`).join(', ')}. ` +
      `One untimed call first, ${PLAN.warmup} warm-up call(s) of each side, then ${PLAN.rounds} round(s) of ${PLAN.perRound} call(s) of each, order reversed every other round.`,
    '',
    ...roundTable(s.rows),
    '',
    `- Stored and read ÷ MuPDF rendering the sheets alone (p50), each round → median: ${ratioLine(s.ratio)}; ${verdict(s.ratio, PLAN_TARGET)}.`,
    `- The same in this process's CPU time a call (app, worker, client and server together): ${ratioLine(s.cpuRatio)}.`,
    `- p50s over the rounds: stored and read ${ms(s.apiMs)} ms, the sheets rendered alone ${ms(s.baseMs)} ms.`,
    `- While one more plan was stored and read, \`GET /v1/landscape/classes\` back to back on the same server: ${fmt(s.meanwhile.calls)} answers, p50 ${ms(s.meanwhile.p50)} ms, slowest ${ms(s.meanwhile.max)} ms; the event loop's longest delay ${ms(s.meanwhile.loopDelayMax)} ms (MuPDF on the engine thread).`,
    `- Inside a takeoff (medians of the timed ones): POST (fetch, open, store the PDF, queue the run) ${ms(s.parts.post)} ms, ` +
      `the worker's sweep ${ms(s.parts.sweep)} ms, GET the run and the takeoff ${ms(s.parts.get)} ms; ` +
      `the sweep beyond rendering (text, schedule, callouts, storing the PNGs, the transaction) ≈ ${ms(s.parts.sweep - s.baseMs)} ms.`,
    '',
    `## An advanced run on the stored ${PLAN_PAGES}-sheet plan`,
    '',
    `Each run reads every sheet's callouts and symbols again (vector paths on the drawn sheets, grey-level matching on the scans) and replaces the dots before it: ` +
      `${a.dots} dots (${a.callouts} callouts) a run.`,
    '',
    ...roundTable(a.rows),
    '',
    `- Advanced run ÷ readPlantTakeoff alone (p50), each round → median: ${ratioLine(a.ratio)}; in CPU time a call: ${ratioLine(a.cpuRatio)}.`,
    `- p50s over the rounds: advanced run ${ms(a.apiMs)} ms, readPlantTakeoff ${ms(a.baseMs)} ms.`,
    `- Inside a run (medians of the timed ones): POST …/advanced-run ${ms(a.parts.post)} ms, the worker's sweep ${ms(a.parts.sweep)} ms, GET the run ${ms(a.parts.get)} ms; ` +
      `the sweep beyond the engine (the stored PDF and texts read, the save of the dots) ≈ ${ms(a.parts.sweep - a.baseMs)} ms.`,
  ];
}
