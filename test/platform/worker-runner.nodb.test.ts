// The worker's runner (src/worker/runner.ts): a task's loop sleeps a poll when a sweep finds
// nothing, and wakes early when the task says its work is due (wakeWhen), including when that
// news comes while it sweeps, since the sweep may have looked too early.
import { describe, expect, it, vi } from 'vitest';
import { startRunner, type BackgroundTask } from '#worker/index.ts';

const HOUR = 3_600_000;
const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

function task() {
  let wake: () => void = () => {};
  let unsubscribed = 0;
  let sweeps = 0;
  let hold: Promise<void> | null = null;
  const t: BackgroundTask = {
    name: 'test',
    async sweep() {
      sweeps++;
      if (hold) await hold;
      return 0;
    },
    wakeWhen(w) {
      wake = w;
      return () => {
        unsubscribed++;
      };
    },
  };
  return {
    t,
    wake: () => wake(),
    sweeps: () => sweeps,
    unsubscribed: () => unsubscribed,
    holdNext() {
      let release!: () => void;
      hold = new Promise<void>((resolve) => {
        release = () => {
          hold = null;
          resolve();
        };
      });
      return release;
    },
  };
}

describe('startRunner', () => {
  it('a wake ends the sleep at once; without one the loop sleeps the poll', async () => {
    const k = task();
    const runner = startRunner([k.t], HOUR, () => {});
    await tick();
    expect(k.sweeps()).toBe(1);
    await tick();
    expect(k.sweeps()).toBe(1);
    k.wake();
    await vi.waitFor(() => expect(k.sweeps()).toBe(2));
    await tick();
    expect(k.sweeps()).toBe(2);
    await runner.stop();
    expect(k.unsubscribed()).toBe(1);
  });

  it('a wake while the task sweeps is kept: the loop sweeps again instead of sleeping', async () => {
    const k = task();
    const release = k.holdNext();
    const runner = startRunner([k.t], HOUR, () => {});
    await tick();
    expect(k.sweeps()).toBe(1);
    k.wake();
    release();
    await vi.waitFor(() => expect(k.sweeps()).toBe(2));
    await tick();
    expect(k.sweeps()).toBe(2);
    await runner.stop();
  });

  it('several wakes during one sleep make one sweep', async () => {
    const k = task();
    const runner = startRunner([k.t], HOUR, () => {});
    await tick();
    k.wake();
    k.wake();
    k.wake();
    await tick();
    expect(k.sweeps()).toBe(2);
    await runner.stop();
  });
});
