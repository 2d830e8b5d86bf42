// The engine thread (src/platform/engine-thread.ts): a detector run there gives what it gives on
// the main thread, leaves the event loop free while it works, moves only the buffers it is told to,
// and rethrows the engine's errors with their type; a plan opened there as a session serves later
// calls until it is closed, and the plan engine's own error comes back as its class.
import { describe, expect, it } from 'vitest';
import { detectLandscape } from '#engines/landscape/index.ts';
import { syntheticYard } from '#engines/landscape/synthetic-yard.ts';
import { drawYard } from '#engines/landscape/synthetic-yard-draw.ts';
import { loadMupdf, NotReadablePdf, openPlan, renderSheet, type loadAndOpenPlan } from '#engines/plans/index.ts';
import { syntheticPlan } from '#engines/plans/synthetic-plan.ts';
import { onEngineThread, openOnEngineThread } from '#platform/engine-thread.ts';

const MPP = 0.06;
const onThread = onEngineThread<typeof detectLandscape>('#engines/landscape/index.ts', 'detectLandscape');

/** Turns of the event loop (setImmediate) taken while `work` runs. */
async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let running = true;
  const spin = () => {
    if (!running) return;
    turns++;
    setImmediate(spin);
  };
  setImmediate(spin);
  await work();
  running = false;
  return turns;
}

describe('onEngineThread', () => {
  it('answers exactly what the engine answers on this thread, and the event loop runs meanwhile', async () => {
    // A yard at 0.06 m per pixel: about 700 × 600 px, a fifth of a second or more of the detector.
    const { pixels } = drawYard(syntheticYard(3), MPP);
    await onThread([pixels, { metersPerPixel: MPP }]); // the thread made and OpenCV loaded there
    await detectLandscape(pixels, { metersPerPixel: MPP }); // and here
    let here: unknown;
    let there: unknown;
    const turnsHere = await turnsDuring(async () => {
      here = await detectLandscape(pixels, { metersPerPixel: MPP });
    });
    const turnsThere = await turnsDuring(async () => {
      there = await onThread([pixels, { metersPerPixel: MPP }]);
    });
    expect(there).toEqual(here);
    expect((there as { objects: unknown[] }).objects.length).toBeGreaterThan(0);
    // On this thread the detector holds the loop from start to end; there it does not.
    expect(turnsThere).toBeGreaterThan(50);
    expect(turnsThere).toBeGreaterThan(10 * turnsHere);
  });

  it('copies the arguments unless told to move a buffer; a moved buffer is gone here', async () => {
    const { pixels } = drawYard(syntheticYard(4), 0.12);
    const copy = new Uint8Array(pixels.data);
    await onThread([{ ...pixels, data: copy }, { metersPerPixel: 0.12 }]);
    expect(copy.byteLength).toBe(pixels.data.byteLength);
    await onThread([{ ...pixels, data: copy }, { metersPerPixel: 0.12 }], [copy.buffer]);
    expect(copy.byteLength).toBe(0);
  });

  it("rethrows the engine's error with its type and message; the thread goes on", async () => {
    const bad = { width: 2, height: 2, channels: 3 as const, data: new Uint8Array(5) };
    const here = await detectLandscape(bad, { metersPerPixel: 0.1 }).catch((e: unknown) => e);
    const there = await onThread([bad, { metersPerPixel: 0.1 }]).catch((e: unknown) => e);
    expect(here).toBeInstanceOf(RangeError);
    expect(there).toBeInstanceOf(RangeError);
    expect((there as Error).message).toBe((here as Error).message);
    const blank = { width: 8, height: 8, channels: 3 as const, data: new Uint8Array(8 * 8 * 3) };
    expect(await onThread([blank, { metersPerPixel: 0.1 }])).toEqual({ areas: [], objects: [] });
  });

  it('arguments that cannot be copied fail that call alone', async () => {
    const err = await onThread([
      { width: 1, height: 1, channels: 3, data: new Uint8Array(3) },
      {
        metersPerPixel: 0.1,
        extra: () => 1,
      } as never,
    ]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).name).toBe('DataCloneError');
    const blank = { width: 8, height: 8, channels: 3 as const, data: new Uint8Array(8 * 8 * 3) };
    expect(await onThread([blank, { metersPerPixel: 0.1 }])).toEqual({ areas: [], objects: [] });
  });

  it('runs only engine modules', () => {
    expect(() => onEngineThread('#platform/outbound.ts', 'fetch')).toThrow(/not an engine module/);
  });

  it('a plan opened as a session serves later calls, then is closed; a closed one is refused', async () => {
    const made = await syntheticPlan(1);
    const open = openOnEngineThread<typeof loadAndOpenPlan>('#engines/plans/index.ts', 'loadAndOpenPlan');
    const render = onEngineThread<typeof renderSheet>('#engines/plans/index.ts', 'renderSheet');
    const session = await open([new Uint8Array(made.bytes)]);
    const there = await render([session.ref, 1, 36]);
    await loadMupdf();
    const plan = openPlan(made.bytes);
    const here = renderSheet(plan, 1, 36);
    plan.close();
    expect([there.width, there.height]).toEqual([here.width, here.height]);
    expect(Buffer.from(there.png).equals(here.png)).toBe(true);
    await session.close();
    const closed = await render([session.ref, 1, 36]).catch((e: unknown) => e);
    expect((closed as Error).message).toMatch(/engine session \d+ is closed/);
  });

  it("the engine's own error class comes back as itself, with its fields, when the caller names it", async () => {
    const words = new TextEncoder().encode('not a pdf at all');
    const named = openOnEngineThread<typeof loadAndOpenPlan>('#engines/plans/index.ts', 'loadAndOpenPlan', {
      errors: [NotReadablePdf],
    });
    const err = await named([words]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotReadablePdf);
    expect((err as NotReadablePdf).reason).toBe('not_pdf');
    expect((err as Error).message).toMatch(/Not a readable PDF \(not_pdf\)/);
    const unnamed = openOnEngineThread<typeof loadAndOpenPlan>('#engines/plans/index.ts', 'loadAndOpenPlan');
    const plain = await unnamed([words]).catch((e: unknown) => e);
    expect(plain).not.toBeInstanceOf(NotReadablePdf);
    expect((plain as Error).name).toBe('NotReadablePdf');
  });
});
