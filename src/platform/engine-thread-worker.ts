// The engine thread's side (platform/engine-thread.ts): runs each call it is sent, one at a time
// in the order sent, and answers with the result or the error. An `open` keeps what the function
// returned here as a session (answering its number); an argument `{ engineSession: n }` of a later
// call stands for it; `close` calls its close() and forgets it.
import { parentPort } from 'node:worker_threads';

type Message =
  | { id: number; op: 'call' | 'open'; specifier: string; name: string; args: unknown[] }
  | { id: number; op: 'close'; session: number };

const port = parentPort!;
const sessions = new Map<number, unknown>();
let queue: Promise<void> = Promise.resolve();

const BUILT_IN = new Set([
  'Error',
  'EvalError',
  'RangeError',
  'ReferenceError',
  'SyntaxError',
  'TypeError',
  'URIError',
]);

function sessionOf(arg: unknown): unknown {
  if (arg && typeof arg === 'object' && 'engineSession' in arg) {
    const n = (arg as { engineSession: number }).engineSession;
    if (!sessions.has(n)) throw new Error(`engine session ${n} is closed`);
    return sessions.get(n);
  }
  return arg;
}

/** An engine's own error class (NotReadablePdf) crosses as its name, message and fields. */
function sendable(error: unknown): unknown {
  if (!(error instanceof Error) || BUILT_IN.has(error.name)) return error;
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(error)) if (k !== 'name' && k !== 'message') fields[k] = v;
  return { engineError: true, name: error.name, message: error.message, stack: error.stack, fields };
}

async function run(m: Message): Promise<void> {
  try {
    let result: unknown;
    if (m.op === 'close') {
      const kept = sessions.get(m.session) as { close?: () => void } | undefined;
      sessions.delete(m.session);
      kept?.close?.();
    } else {
      const engine = (await import(m.specifier)) as Record<string, (...args: unknown[]) => unknown>;
      const fn = engine[m.name];
      if (typeof fn !== 'function') throw new Error(`${m.specifier} has no function ${m.name}`);
      result = await fn(...m.args.map(sessionOf));
      if (m.op === 'open') {
        sessions.set(m.id, result);
        result = m.id;
      }
    }
    port.postMessage({ id: m.id, ok: true, result });
  } catch (error) {
    try {
      port.postMessage({ id: m.id, ok: false, error: sendable(error) });
    } catch {
      // An error that cannot be copied (a field holding a function) goes as its message.
      port.postMessage({ id: m.id, ok: false, error: new Error(String(error)) });
    }
  }
}

port.on('message', (m: Message) => {
  queue = queue.then(() => run(m));
});
