// The engine thread's side (platform/engine-thread.ts): runs each call it is sent, one at a time
// in the order sent, and answers with the result or the error.
import { parentPort } from 'node:worker_threads';

interface Call {
  id: number;
  specifier: string;
  name: string;
  args: unknown[];
}

const port = parentPort!;
let queue: Promise<void> = Promise.resolve();

async function run(call: Call): Promise<void> {
  try {
    const engine = (await import(call.specifier)) as Record<string, (...args: unknown[]) => unknown>;
    const fn = engine[call.name];
    if (typeof fn !== 'function') throw new Error(`${call.specifier} has no function ${call.name}`);
    port.postMessage({ id: call.id, ok: true, result: await fn(...call.args) });
  } catch (error) {
    try {
      port.postMessage({ id: call.id, ok: false, error });
    } catch {
      // An error that cannot be copied (a property holding a function) goes as its message.
      port.postMessage({ id: call.id, ok: false, error: new Error(String(error)) });
    }
  }
}

port.on('message', (call: Call) => {
  queue = queue.then(() => run(call));
});
