// The rate limiter's fixed windows (platform/window-store.ts), on a clock the test moves.
import { describe, expect, it } from 'vitest';
import { WindowStore } from '#platform/window-store.ts';

function storeAt(windowMs: number, capacity?: number) {
  const clock = { now: 1_000_000 };
  return { clock, store: new WindowStore(windowMs, capacity, () => clock.now) };
}

describe('WindowStore', () => {
  it('counts calls in a window and says how long it has left', () => {
    const { clock, store } = storeAt(60_000);
    expect(store.hit('a')).toEqual({ count: 1, remainingMs: 60_000 });
    clock.now += 15_000;
    expect(store.hit('a')).toEqual({ count: 2, remainingMs: 45_000 });
    expect(store.hit('b')).toEqual({ count: 1, remainingMs: 60_000 });
    expect(store.hit('a')).toEqual({ count: 3, remainingMs: 45_000 });
  });

  it('starts the window again at the first call once it has run its length', () => {
    const { clock, store } = storeAt(1_000);
    store.hit('a');
    store.hit('a');
    clock.now += 999;
    expect(store.hit('a').count).toBe(3);
    clock.now += 1;
    expect(store.hit('a')).toEqual({ count: 1, remainingMs: 1_000 });
  });

  it('a read counts nothing and starts no window', () => {
    const { clock, store } = storeAt(1_000);
    expect(store.hit('a', false)).toEqual({ count: 0, remainingMs: 0 });
    expect(store.size).toBe(0);
    store.hit('a');
    clock.now += 400;
    expect(store.hit('a', false)).toEqual({ count: 1, remainingMs: 600 });
    expect(store.hit('a', false)).toEqual({ count: 1, remainingMs: 600 });
    clock.now += 600;
    expect(store.hit('a', false)).toEqual({ count: 0, remainingMs: 0 });
  });

  it('past its capacity drops the bucket whose window started first', () => {
    const { clock, store } = storeAt(10_000, 3);
    store.hit('a');
    clock.now += 1;
    store.hit('b');
    clock.now += 1;
    store.hit('c');
    // More calls in a do not make its window any younger.
    store.hit('a');
    clock.now += 1;
    store.hit('d');
    expect(store.size).toBe(3);
    expect(store.hit('a', false).count).toBe(0);
    expect(store.hit('b', false).count).toBe(1);
    // b's window starting again makes it the youngest: c goes next.
    clock.now += 10_000;
    store.hit('b');
    store.hit('e');
    expect(store.hit('c', false).count).toBe(0);
    expect(store.hit('b', false).count).toBe(1);
  });
});
