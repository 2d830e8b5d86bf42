// Estimating benchmark: re-pricing an estimate of 500 detailed lines with 5 cost lines each, and
// the API's add-line round trip, against the pricing engine alone (priceEstimate on the same tree,
// loaded once) in the same run.
//
//   node --import tsx bench/estimates.ts                SQLite file database in a temp dir
//   DATABASE_URL=postgres://… node --import tsx bench/estimates.ts    PostgreSQL (fresh schema, dropped)
//   node --import tsx bench/estimates.ts --quick        100 lines, 10 timed rounds
//   node --import tsx bench/estimates.ts --smoke        seconds, for CI (bench/mode.ts): 20 lines, 2 rounds
//
// Setup goes through the API: catalog items and one detailed catalog service with 5 cost lines
// (crew, equipment, material with waste, an asphalt haul on a truck with capacity_tons, misc), a
// job, an estimate, then one POST …/line-items per line (timed too: add-line as the estimate
// grows). Then rounds of every scenario, one request at a time through app.inject, with the
// scenarios' order rotated each round so none always runs on the warmest caches. In-process rows
// (the engine, loadTree, serialization, the service calls without HTTP) break the API time down.
// The report is printed as markdown and written to bench/results/estimates-<engine>.md. See
// docs/performance.md.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { buildApp } from '#src/app.ts';
import { buildDeps } from '#platform/deps.ts';
import { isPostgresUrl } from '#src/config.ts';
import { priceEstimate } from '#engines/pricing/index.ts';
import { calculationDocument, engineInput, linesInBid, storedCalculation } from '#estimating/estimates/calculation.ts';
import {
  findEstimate,
  findEstimateToWrite,
  loadTree,
  reloadLines,
  type EstimateTree,
} from '#estimating/estimates/repo.ts';
import { estimateObject } from '#estimating/estimates/serialize.ts';
import { getEstimate, recalculate } from '#estimating/estimates/service.ts';
import { actingAs } from '#platform/auth.ts';
import { noGeocoder } from '#platform/geocoding.ts';
import { settingsOf } from '#platform/workspace.ts';
import { dropOnInterrupt, openBenchDatabase } from './database.ts';
import { benchWorkspace } from './workspace.ts';
import { MODE_LABEL, QUICK, saveReport, sized } from './mode.ts';

const LINES = sized(500, 100, 20);
const COST_LINES = 5;
const ROUNDS = sized(40, 10, 2);
const WARMUP = sized(5, 3, 1);
const databaseUrl =
  process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;
const engine = databaseUrl ? 'postgres' : 'sqlite';
const started = Date.now();
const log = (m: string) =>
  console.error(`[estimates bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${m}`);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
};
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const kb = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en-US')} KB`;
const ratio = (a: number, b: number) => (a / b).toFixed(a / b >= 10 ? 0 : a / b >= 1 ? 1 : 2);

async function main(): Promise<void> {
  const { database, describe, drop } = await openBenchDatabase({ url: databaseUrl, label: 'estimates' });
  dropOnInterrupt(drop);
  try {
    log(`engine: ${describe}`);
    const { firmId, ownerId, key } = await benchWorkspace(database);
    const app = await buildApp(database, {
      adminToken: null,
      rateLimit: { max: 1e9, windowMs: 1000 },
      logLevel: false,
    });
    const headers = { 'x-api-key': key };

    /** One request, timed; refuses anything but the expected status. */
    const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body: unknown, expect: number) => {
      const t0 = performance.now();
      const res = await app.inject({
        method,
        url,
        headers,
        ...(body === undefined ? {} : { payload: body as object }),
      });
      const took = performance.now() - t0;
      if (res.statusCode !== expect) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 500)}`);
      return { took, body: JSON.parse(res.body) as any, bytes: res.rawPayload.length };
    };

    // ---- setup through the API ----
    const item = async (body: object) => (await call('POST', '/v1/catalog/items', body, 201)).body.data.id as number;
    const crew = await item({
      kind: 'crew',
      name: 'Bench paving crew',
      unit: 'DAY',
      unit_cost: 1850,
      attributes: { crew_size: 6 },
    });
    const roller = await item({ kind: 'equipment', name: 'Bench roller', unit: 'HR', unit_cost: 55, attributes: {} });
    const hma = await item({ kind: 'material', name: 'Bench HMA surface', unit: 'TON', unit_cost: 78, attributes: {} });
    const truck = await item({
      kind: 'truck',
      name: 'Bench tri-axle',
      unit: 'HR',
      unit_cost: 105,
      attributes: { capacity_tons: 16 },
    });
    const service = (
      await call(
        'POST',
        '/v1/catalog/services',
        {
          name: 'Bench overlay, 2"',
          category: 'Paving',
          unit: 'SY',
          estimating_mode: 'detailed',
          cost_lines: [
            { type: 'crew', catalog_item_id: crew, quantity_formula: 'ceil(quantity / 2500)' },
            { type: 'equipment', catalog_item_id: roller, quantity_formula: 'ceil(quantity / 2500) * 8' },
            { type: 'material', catalog_item_id: hma, quantity_formula: 'quantity * 2 * 0.0575', waste_factor: 0.05 },
            {
              type: 'trucking',
              catalog_item_id: truck,
              name: 'Haul asphalt',
              quantity_formula: 'quantity * 2 * 0.0575 * 1.05',
              haul_material: 'asphalt',
            },
            {
              type: 'misc',
              name: 'Traffic control',
              unit: 'EA',
              unit_cost: 250,
              quantity_formula: 'ceil(quantity / 5000)',
            },
          ],
        },
        201,
      )
    ).body.data;
    if (service.cost_lines.length !== COST_LINES) throw new Error('the catalog service should have 5 cost lines');
    const job = (await call('POST', '/v1/jobs', { name: 'Bench estimating job', address: '1 Bench St, Riverton' }, 201))
      .body.data;
    const estimateId = (await call('POST', '/v1/estimates', { job_id: job.id, name: 'Bench estimate' }, 201)).body.data
      .id as number;
    const base = `/v1/estimates/${estimateId}`;
    // Quantities vary per line (800 to 12,700 SY) so lines price differently and loads round differently.
    const quantity = (i: number) => 800 + ((i * 37) % 120) * 100;

    log(`adding ${LINES} lines (each add re-prices the whole estimate)`);
    const growth: { lines: number; took: number }[] = [];
    const lineIds: number[] = [];
    for (let i = 0; i < LINES; i++) {
      const r = await call('POST', `${base}/line-items`, { service_id: service.id, quantity: quantity(i) }, 201);
      growth.push({ lines: i + 1, took: r.took });
      lineIds.push(r.body.line_item_id);
      if ((i + 1) % 100 === 0) log(`  ${i + 1} lines, last add ${r.took.toFixed(1)} ms`);
    }
    const buildMs = growth.reduce((a, g) => a + g.took, 0);

    // ---- checks: the estimate is what we meant to measure ----
    const costLineCount = await database.db
      .selectFrom('estimate_cost_lines')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('estimate_id', '=', estimateId)
      .executeTakeFirstOrThrow();
    if (Number(costLineCount.n) !== LINES * COST_LINES)
      throw new Error(`expected ${LINES * COST_LINES} cost lines, found ${costLineCount.n}`);
    const firm = await database.db.selectFrom('firms').selectAll().where('id', '=', firmId).executeTakeFirstOrThrow();
    const settings = settingsOf(firm);
    const auth = await actingAs(database.db, firmId, ownerId);
    const ctx = { database, auth, deps: buildDeps({ geocoder: noGeocoder }) };
    const row = await findEstimate(database.db, firmId, estimateId, auth.user);
    if (!row) throw new Error('estimate not found');
    const tree: EstimateTree = await loadTree(database.db, row);
    if (linesInBid(tree).length !== LINES) throw new Error(`expected ${LINES} lines in the bid`);
    const input = engineInput(tree, settings);
    const result = priceEstimate(input);
    // What a write prices and stores: the numbers, the lines' explain texts left to the line read.
    const numbers = priceEstimate(input, { explain: false });
    const read = await call('GET', base, undefined, 200);
    if (read.body.totals.price !== result.totals.price)
      throw new Error(`stored price ${read.body.totals.price} ≠ engine ${result.totals.price}`);
    if (read.body.areas[0].services.length !== LINES) throw new Error('GET should show every line');
    const hauls = result.lines[0]!.cost_lines.filter((cl) => cl.haul !== null);
    if (hauls.length !== 1 || !(hauls[0]!.haul!.loads > 0)) throw new Error('each line should carry one priced haul');
    const calculationBytes = Buffer.byteLength(
      storedCalculation(numbers, LINES, calculationDocument(numbers, input)).calculation,
    );
    log(
      `built: ${LINES} lines, ${Number(costLineCount.n)} cost lines, price $${result.totals.price.toLocaleString('en-US')}; ` +
        `calculation ${kb(calculationBytes)}, GET ${kb(read.bytes)}`,
    );

    // ---- the scenarios ----
    const patchLine = lineIds[Math.floor(LINES / 2)]!;
    let patchFlip = false;
    const deleteTimes: number[] = [];
    const answer = estimateObject(tree);
    // A tree as a write leaves it: its calculation as built (write.ts), so the answer needs no parse.
    const document = calculationDocument(numbers, input);
    const stored = storedCalculation(numbers, LINES, document);
    const written: EstimateTree = { ...tree, priced: { text: row.calculation!, document } };
    // A second tree, for reloadLines to update in place.
    const reloaded = await loadTree(database.db, row);
    const bytes: Record<string, number> = { GET: read.bytes };
    type Scenario = { name: string; api: boolean; run: () => Promise<number> };
    const timed = (work: () => unknown) => async () => {
      const t0 = performance.now();
      await work();
      return performance.now() - t0;
    };
    const scenarios: Scenario[] = [
      {
        name: 'engine: priceEstimate(engineInput(tree, settings))',
        api: false,
        run: timed(() => priceEstimate(engineInput(tree, settings))),
      },
      {
        name: 'engine, numbers only: priceEstimate(…, { explain: false }) (what a write runs)',
        api: false,
        run: timed(() => priceEstimate(engineInput(tree, settings), { explain: false })),
      },
      { name: 'engineInput alone (rows → engine input)', api: false, run: timed(() => engineInput(tree, settings)) },
      {
        name: 'findEstimate alone (the estimate row, calculation included: reads)',
        api: false,
        run: timed(() => findEstimate(database.db, firmId, estimateId, auth.user)),
      },
      {
        name: 'findEstimateToWrite alone (the estimate row but its calculation: writes)',
        api: false,
        run: timed(() => findEstimateToWrite(database.db, firmId, estimateId, auth.user)),
      },
      { name: 'loadTree alone (3 queries, no transaction)', api: false, run: timed(() => loadTree(database.db, row)) },
      {
        name: 'reloadLines alone (one line and its cost lines read again, after a line write)',
        api: false,
        run: timed(() => reloadLines(database.db, reloaded, new Set([patchLine]))),
      },
      {
        name: 'storedCalculation alone (result → stored JSON)',
        api: false,
        run: timed(() => storedCalculation(numbers, LINES, calculationDocument(numbers, input))),
      },
      {
        // What repriceAndLog writes to the estimate row (same values again), in a transaction of its own.
        name: 'UPDATE estimates with the stored calculation alone',
        api: false,
        run: timed(() =>
          database.db.transaction().execute((trx) =>
            trx
              .updateTable('estimates')
              .set({ ...stored, updated_at: row.updated_at })
              .where('id', '=', estimateId)
              .execute(),
          ),
        ),
      },
      {
        name: 'estimateObject alone (stored rows → answer object: reads parse the calculation)',
        api: false,
        run: timed(() => estimateObject(tree)),
      },
      {
        name: 'estimateObject alone, on the calculation a write just built (no parse)',
        api: false,
        run: timed(() => estimateObject(written)),
      },
      { name: 'JSON.stringify of the answer alone', api: false, run: timed(() => JSON.stringify({ data: answer })) },
      { name: 'recalculate service call (no HTTP)', api: false, run: timed(() => recalculate(ctx, estimateId)) },
      { name: 'getEstimate service call (no HTTP)', api: false, run: timed(() => getEstimate(ctx, estimateId)) },
      {
        name: 'POST /v1/estimates/:id/recalculate',
        api: true,
        run: async () => {
          const r = await call('POST', `${base}/recalculate`, {}, 200);
          bytes.recalculate = r.bytes;
          return r.took;
        },
      },
      {
        name: 'POST /v1/estimates/:id/line-items (add one catalog line)',
        api: true,
        run: async () => {
          const r = await call('POST', `${base}/line-items`, { service_id: service.id, quantity: 4321 }, 201);
          bytes.add = r.bytes;
          // Take it off again, timed as its own row, so every round starts from the same estimate.
          const d = await call('DELETE', `${base}/line-items/${r.body.line_item_id}`, undefined, 200);
          deleteTimes.push(d.took);
          return r.took;
        },
      },
      {
        name: 'PATCH /v1/estimates/:id/line-items/:id (quantity)',
        api: true,
        run: async () => {
          patchFlip = !patchFlip;
          const r = await call('PATCH', `${base}/line-items/${patchLine}`, { quantity: patchFlip ? 5000 : 5200 }, 200);
          return r.took;
        },
      },
      {
        name: 'GET /v1/estimates/:id/line-items/:id (the line, its explain texts built)',
        api: true,
        run: async () => (await call('GET', `${base}/line-items/${patchLine}`, undefined, 200)).took,
      },
      {
        name: 'GET /v1/estimates/:id (stored numbers, no engine)',
        api: true,
        run: async () => (await call('GET', base, undefined, 200)).took,
      },
    ];

    log(`warming up (${WARMUP} rounds)`);
    for (let w = 0; w < WARMUP; w++) for (const s of scenarios) await s.run();
    deleteTimes.length = 0;
    const times = new Map<string, number[]>(scenarios.map((s) => [s.name, []]));
    const loads: number[] = [];
    log(`measuring (${ROUNDS} rounds)`);
    for (let round = 0; round < ROUNDS; round++) {
      loads.push(os.loadavg()[0]!);
      for (let k = 0; k < scenarios.length; k++) {
        const s = scenarios[(k + round) % scenarios.length]!;
        times.get(s.name)!.push(await s.run());
      }
      if ((round + 1) % 10 === 0) log(`  round ${round + 1}`);
    }
    await app.close();
    const lineCount = await database.db
      .selectFrom('estimate_lines')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('estimate_id', '=', estimateId)
      .executeTakeFirstOrThrow();
    if (Number(lineCount.n) !== LINES)
      throw new Error(`the estimate should be back at ${LINES} lines, has ${lineCount.n}`);

    // ---- the report ----
    const enginePs = times.get(scenarios[0]!.name)!;
    const e50 = pct(enginePs, 0.5),
      e95 = pct(enginePs, 0.95);
    const rowOf = (name: string, xs: number[]) =>
      `| ${name} | ${xs.length} | ${ms(pct(xs, 0.5))} | ${ms(pct(xs, 0.95))} | ${ratio(pct(xs, 0.5), e50)} | ${ratio(pct(xs, 0.95), e95)} |`;
    const lines: string[] = [];
    lines.push(`### Estimates (${engine})${MODE_LABEL}`, '');
    lines.push(
      `- ${new Date().toISOString()}, Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, ${describe}`,
    );
    lines.push(
      `- 1-min load average during the rounds: ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}`,
    );
    lines.push(
      `- one estimate, ${LINES} detailed lines × ${COST_LINES} cost lines (${(LINES * COST_LINES).toLocaleString('en-US')}; crew, equipment, ` +
        `material with 5% waste, asphalt haul on a 16-ton truck, misc), one area, workspace default pricing; stored calculation ` +
        `${kb(calculationBytes)}, GET answer ${kb(bytes.GET!)}, write answers ${kb(bytes.recalculate ?? 0)}`,
    );
    lines.push(`- built through the API: ${LINES} × POST …/line-items in ${(buildMs / 1000).toFixed(1)} s`);
    lines.push(
      `- ${ROUNDS} rounds after ${WARMUP} warm-up rounds, scenario order rotated each round, one request at a time (app.inject); ` +
        `the add-line row adds a ${LINES + 1}st line and the DELETE row takes it off again, so every round sees ${LINES} lines; ` +
        `every write also appends an edit-log row (${LINES + 1} from the build, ${(WARMUP + ROUNDS) * 5} more by the end)`,
      '',
    );
    lines.push('| scenario | n | p50 ms | p95 ms | ÷ engine p50 | ÷ engine p95 |', '|---|---:|---:|---:|---:|---:|');
    for (const s of scenarios.filter((x) => x.api)) lines.push(rowOf(s.name, times.get(s.name)!));
    lines.push(rowOf('DELETE /v1/estimates/:id/line-items/:id', deleteTimes));
    lines.push(rowOf('**engine alone (baseline)**', enginePs));
    lines.push('', 'In process, same rounds (where the API time goes):', '');
    lines.push('| step | n | p50 ms | p95 ms | ÷ engine p50 | ÷ engine p95 |', '|---|---:|---:|---:|---:|---:|');
    for (const s of scenarios.filter((x) => !x.api)) lines.push(rowOf(s.name, times.get(s.name)!));
    lines.push('', 'Add-line while building (each add re-prices the whole estimate):', '');
    lines.push(
      "| lines in the estimate after the add (the first adds are the run's first requests) | adds | p50 ms | p95 ms |",
      '|---|---:|---:|---:|',
    );
    const buckets = sized(
      [
        [1, 10],
        [91, 100],
        [241, 250],
        [491, 500],
      ],
      [
        [1, 10],
        [41, 50],
        [91, 100],
      ],
      [
        [1, 10],
        [11, 20],
      ],
    );
    for (const [from, to] of buckets) {
      const xs = growth.filter((g) => g.lines >= from! && g.lines <= to!).map((g) => g.took);
      lines.push(`| ${from}–${to} | ${xs.length} | ${ms(pct(xs, 0.5))} | ${ms(pct(xs, 0.95))} |`);
    }
    const report = lines.join('\n') + '\n';
    console.log(report);
    saveReport(`estimates-${engine}${QUICK ? '-quick' : ''}.md`, report);
  } finally {
    await drop();
  }
}

await main();
