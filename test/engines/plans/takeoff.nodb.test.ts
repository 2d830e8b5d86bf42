// The plan takeoff read back from generated plans whose truth is known (docs/plan-reading.md,
// "Measured on generated plans"): the schedule's rows exactly, the unreadable row ignored with a
// reason, callout sums equal to the schedule's quantities, and one dot per symbol drawn (vector
// sheets, the rotated one included, and the scanned sheet from pixels).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  calloutTotals,
  findPlants,
  findSchedule,
  openPlan,
  type PaintedPath,
  type PlanDocument,
  type PlantSchedule,
  planText,
  readCallouts,
  readPlantTakeoff,
  readScheduleAt,
  type SheetText,
} from '#engines/plans/index.ts';
import { type SyntheticPlan, syntheticPlan, type TruthSymbol } from '#engines/plans/synthetic-plan.ts';

const SEEDS = [1, 2];
const plans: { made: SyntheticPlan; plan: PlanDocument; text: SheetText[]; schedule: PlantSchedule }[] = [];

beforeAll(async () => {
  for (const seed of SEEDS) {
    const made = await syntheticPlan(seed);
    const plan = openPlan(made.bytes);
    const text = planText(plan);
    plans.push({ made, plan, text, schedule: findSchedule(text) });
  }
});
afterAll(() => {
  for (const p of plans) p.plan.close();
});

describe('plant schedule', () => {
  it('reads every readable row exactly and ignores the unreadable one with a reason', () => {
    for (const { made, schedule } of plans) {
      expect(schedule.status).toBe('found');
      expect(schedule.page).toBe(made.truth.schedulePage);
      expect(
        schedule.rows.map((r) => ({
          code: r.code,
          botanical: r.botanical_name,
          common: r.common_name,
          size: r.size,
          quantity: r.quantity,
        })),
      ).toEqual(made.truth.rows);
      expect(schedule.rows_ignored).toHaveLength(made.truth.rowsIgnored);
      expect(schedule.rows_ignored[0]).toEqual({
        text: '(see note 7 - illegible)',
        reason: 'no plant code in the row',
      });
    }
  });

  it('each row has its symbol cell, which holds the symbol drawn there', () => {
    const { made, schedule } = plans[0];
    for (const s of made.truth.scheduleSymbols) {
      const b = schedule.rows.find((r) => r.code === s.code)?.symbol_box;
      expect(b, s.code).toBeTruthy();
      if (b) {
        expect(s.x).toBeGreaterThan(b.x);
        expect(s.x).toBeLessThan(b.x + b.width);
        expect(s.y).toBeGreaterThan(b.y);
        expect(s.y).toBeLessThan(b.y + b.height);
      }
    }
  });

  it('readScheduleAt reads the same rows from a box drawn round the table, or without its header', () => {
    const { text, schedule, made } = plans[0];
    const box = schedule.box;
    if (!box) throw new Error('no box');
    const again = readScheduleAt(text[0], box);
    expect(again.rows.map((r) => [r.code, r.quantity])).toEqual(schedule.rows.map((r) => [r.code, r.quantity]));
    expect(again.rows_ignored).toHaveLength(1);
    // Below the header: read by position (code first, quantity last).
    const header = text[0].lines.find((l) => l.text === 'QTY');
    const top = (header?.box.y ?? 0) + 30;
    const body = readScheduleAt(text[0], { ...box, y: top, height: box.y + box.height - top });
    expect(body.rows.map((r) => [r.code, r.botanical_name, r.size, r.quantity])).toEqual(
      made.truth.rows.map((r) => [r.code, r.botanical, r.size, r.quantity]),
    );
    expect(body.rows_ignored[0].reason).toMatch(/not read as a plant code/);
  });

  it('the other layout: "Plant List", KEY and QTY first, right-aligned quantities, wrapped names', async () => {
    const { bytes, truth } = await syntheticPlan(1, 'list');
    const plan = openPlan(bytes);
    try {
      const list = findSchedule(planText(plan));
      expect(list.status).toBe('found');
      expect(
        list.rows.map((r) => ({
          code: r.code,
          botanical: r.botanical_name,
          common: r.common_name,
          size: r.size,
          quantity: r.quantity,
        })),
      ).toEqual(truth.rows);
      expect(list.rows.every((r) => r.symbol_box === null)).toBe(true);
      expect(list.rows_ignored).toEqual([{ text: '(see note 7 - illegible)', reason: 'no plant code in the row' }]);
    } finally {
      plan.close();
    }
  });

  it('not_found on sheets without a schedule title', () => {
    const { text } = plans[0];
    expect(findSchedule(text.slice(1))).toEqual({
      status: 'not_found',
      page: null,
      box: null,
      rows: [],
      rows_ignored: [],
    });
  });
});

describe('callouts', () => {
  it('every callout drawn is read, at its place, and their sums equal the schedule quantities', () => {
    for (const { made, text, schedule } of plans) {
      const codes = schedule.rows.map((r) => r.code);
      if (!schedule.box || !schedule.page) throw new Error('no schedule');
      const callouts = readCallouts(text, codes, { exclude: [{ page: schedule.page, box: schedule.box }] });
      expect(callouts).toHaveLength(made.truth.callouts.length);
      for (const want of made.truth.callouts) {
        const got = callouts.find((c) => c.page === want.page && Math.hypot(c.x - want.x, c.y - want.y) < 6);
        expect(got, want.text).toMatchObject({ code: want.code, count: want.count, pattern: want.pattern });
      }
      const totals = calloutTotals(callouts);
      for (const row of schedule.rows)
        if (row.quantity !== null) expect(totals.get(row.code), row.code).toBe(row.quantity);
    }
  });
});

describe('plant symbols', () => {
  const near = (dots: { x: number; y: number }[], want: TruthSymbol[], tol: number) =>
    want.filter((w) => dots.some((d) => Math.hypot(d.x - w.x, d.y - w.y) <= tol)).length;

  it('vector sheets (the rotated one too): one dot per symbol drawn, none elsewhere', () => {
    for (const { made, plan, schedule } of plans) {
      const paths = new Map<number, PaintedPath[]>();
      for (const row of schedule.rows) {
        if (!row.symbol_box) throw new Error('no symbol cell');
        for (const page of [1, 2]) {
          const found = findPlants(
            plan,
            page,
            { page: 1, box: row.symbol_box },
            {
              exclude: page === 1 && schedule.box ? [schedule.box] : [],
              paths,
            },
          );
          const want = made.truth.symbols.filter((s) => s.code === row.code && s.page === page);
          expect(found.dots, `${row.code} p${page}`).toHaveLength(want.length);
          expect(near(found.dots, want, 1)).toBe(want.length);
          if (want.length > 0) expect(found.method).toBe('vector');
        }
      }
    }
  });

  it('a sample picked on the plan itself finds every instance, itself included', () => {
    const { made, plan, schedule } = plans[0];
    const one = made.truth.symbols.find((t) => t.code === 'AC' && t.page === 2);
    if (!one) throw new Error('no AC on page 2');
    const sample = { page: 2, box: { x: one.x - 26, y: one.y - 26, width: 52, height: 52 } };
    for (const page of [1, 2]) {
      const want = made.truth.symbols.filter((t) => t.code === 'AC' && t.page === page);
      // The schedule's own symbol is an instance too: the caller leaves the schedule out.
      const found = findPlants(plan, page, sample, { exclude: page === 1 && schedule.box ? [schedule.box] : [] });
      expect(found.dots).toHaveLength(want.length);
      expect(near(found.dots, want, 1)).toBe(want.length);
    }
  });

  it('symbols found = quantities in the schedule', () => {
    const { plan, schedule } = plans[1];
    const paths = new Map<number, PaintedPath[]>();
    for (const row of schedule.rows.filter((r) => r.quantity !== null && r.symbol_box)) {
      const dots = [1, 2].flatMap(
        (page) =>
          findPlants(
            plan,
            page,
            { page: 1, box: row.symbol_box ?? row.box },
            { exclude: page === 1 ? [schedule.box ?? row.box] : [], paths },
          ).dots,
      );
      expect(dots.length, row.code).toBe(row.quantity);
    }
  });

  it('the scanned sheet is read from pixels, with the limitation stated', () => {
    const { made, plan, schedule } = plans[0];
    for (const row of schedule.rows) {
      const found = findPlants(plan, made.truth.scannedPage, { page: 1, box: row.symbol_box ?? row.box });
      const want = made.truth.scannedSymbols.filter((s) => s.code === row.code);
      expect(found.method).toBe('raster');
      expect(found.note).toMatch(/Scanned sheet/);
      expect(found.dots, row.code).toHaveLength(want.length);
      expect(near(found.dots, want, 3)).toBe(want.length);
    }
  });
});

describe('readPlantTakeoff', () => {
  it('quantity from callouts, else dots; dots from every sheet, the scan from pixels', () => {
    const { made, plan, text } = plans[0];
    const takeoff = readPlantTakeoff(plan, { texts: text });
    expect(takeoff.scanned_pages).toEqual([made.truth.scannedPage]);
    for (const p of takeoff.plants) {
      const row = made.truth.rows.find((r) => r.code === p.code);
      const drawn = [...made.truth.symbols, ...made.truth.scannedSymbols].filter((s) => s.code === p.code);
      expect(p.dot_count, p.code).toBe(drawn.length);
      if (row?.quantity !== null) {
        expect(p).toMatchObject({
          quantity: row?.quantity,
          quantity_source: 'callouts',
          callout_quantity: row?.quantity,
        });
      } else expect(p).toMatchObject({ quantity: drawn.length, quantity_source: 'dots', callout_quantity: null });
      expect(p.methods.find((m) => m.page === made.truth.scannedPage)?.method).toBe('raster');
    }
  });
});
