// Fixed-window call counters in memory (rate-limit.ts): per bucket, the calls counted since its
// window started. A window that has run its length starts again at the next call.
//
// The store is bounded: past `capacity` buckets, the bucket whose window started first is dropped
// (it is the nearest to starting again anyway). A window that starts is moved to the end of the
// map, so the map's order is the order windows started and the first entry is the one to drop.

export interface WindowState {
  /** Calls counted in the current window (with this one, when it was counted). */
  count: number;
  /** Milliseconds until the window starts again. */
  remainingMs: number;
}

interface Window {
  count: number;
  startedAt: number;
}

/** As many buckets as @fastify/rate-limit's store held before this one replaced it. */
const DEFAULT_CAPACITY = 5_000;

export class WindowStore {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly windowMs: number,
    private readonly capacity = DEFAULT_CAPACITY,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a call in `bucket` (or, with `count` false, only reads it) and returns its window. */
  hit(bucket: string, count = true): WindowState {
    const now = this.now();
    let window = this.windows.get(bucket);
    if (window === undefined || window.startedAt + this.windowMs <= now) {
      // A read does not start a window: the caller may never make the call.
      if (!count) return { count: 0, remainingMs: 0 };
      this.windows.delete(bucket);
      window = { count: 0, startedAt: now };
      this.windows.set(bucket, window);
      if (this.windows.size > this.capacity) this.windows.delete(this.windows.keys().next().value!);
    }
    if (count) window.count++;
    return { count: window.count, remainingMs: window.startedAt + this.windowMs - now };
  }

  get size(): number {
    return this.windows.size;
  }
}
