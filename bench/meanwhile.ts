// What the server answers while it does something long: a cheap keyed read
// (`GET /v1/landscape/classes`) back to back the whole time, and the event loop's longest delay
// (Node's monitorEventLoopDelay, 5 ms resolution) in this process, where the server runs.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { call } from './api-call.ts';
import { median } from './rounds.ts';

export interface Meanwhile {
  calls: number;
  p50: number;
  max: number;
  /** The event loop's longest delay during the work, ms. */
  loopDelayMax: number;
}

export async function readsMeanwhile(api: string, key: string, work: () => Promise<unknown>): Promise<Meanwhile> {
  const times: number[] = [];
  let working = true;
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const reads = (async () => {
    while (working) {
      const t = performance.now();
      await call(api, key, 'GET', '/v1/landscape/classes', 200);
      times.push(performance.now() - t);
    }
  })();
  try {
    await work();
  } finally {
    working = false;
    delay.disable();
    await reads;
  }
  return { calls: times.length, p50: median(times), max: Math.max(0, ...times), loopDelayMax: delay.max / 1e6 };
}
