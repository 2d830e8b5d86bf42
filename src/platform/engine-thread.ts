// The detectors' pixel work on a thread of its own. A detector (engines/paved, engines/distress,
// engines/landscape) spends 0.1–2 s of CPU on one image; run on the main thread it held the event
// loop that serves every other request for that long (a detect in the worker inside `serve`, a
// measurement or a rating in its request). Here it runs in one worker thread per process, made on
// first use and kept: calls queue there one after another, as they took turns on the main thread
// before, while the main thread goes on serving. Only pure engine functions are run (a module under
// #engines/, plain data in and out): the thread loads the engine's modules, OpenCV included, once.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

interface Answer {
  id: number;
  ok: boolean;
  result?: unknown;
  error?: unknown;
}

let thread: Worker | null = null;
let nextId = 0;
const pending = new Map<number, Pending>();

/**
 * The thread's first script: its own module loaded as TypeScript through tsx's `tsImport` (tsx is
 * the loader `npm start` uses; found from here, not from the working directory). In Node 20 a
 * worker thread gets no module hooks from `--import` or a `register()` of its own; `tsImport`
 * loads a module graph through hooks of its own, and the thread's imports of engines go through it.
 */
function bootstrap(): string {
  const require = createRequire(import.meta.url);
  const tsxPackage = require.resolve('tsx/package.json');
  const api = (require(tsxPackage) as { exports: Record<string, { import: { default: string } }> }).exports[
    './esm/api'
  ]!.import.default;
  const tsxApi = pathToFileURL(path.join(path.dirname(tsxPackage), api)).href;
  const entry = new URL('./engine-thread-worker.ts', import.meta.url).href;
  return `import(${JSON.stringify(tsxApi)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}));`;
}

function failAll(err: unknown): void {
  for (const p of pending.values()) p.reject(err);
  pending.clear();
}

function engineThread(): Worker {
  if (thread) return thread;
  const worker = new Worker(bootstrap(), { eval: true });
  worker.unref();
  worker.on('message', (a: Answer) => {
    const p = pending.get(a.id);
    if (!p) return;
    pending.delete(a.id);
    // A thread with nothing to do does not keep the process alive.
    if (pending.size === 0) worker.unref();
    if (a.ok) p.resolve(a.result);
    else p.reject(a.error);
  });
  // A thread that died (out of memory, a crash in WebAssembly) fails what it held; the next call
  // makes a new one.
  worker.on('error', (err) => {
    if (thread === worker) thread = null;
    failAll(err);
  });
  worker.on('exit', (code) => {
    if (thread === worker) thread = null;
    failAll(new Error(`the engine thread exited (code ${code})`));
  });
  thread = worker;
  return worker;
}

/** A class of error an engine throws on purpose, rebuilt as itself when it comes back from the thread. */
// biome-ignore lint/suspicious/noExplicitAny: any constructor of an Error
type ErrorClass = abstract new (...args: any[]) => Error;

export interface EngineCallOptions {
  /** The engine's own error classes the caller tells apart (instanceof): rebuilt here with their fields. */
  errors?: ErrorClass[];
}

/**
 * What an engine function opened on the thread and keeps there (a parsed PDF): `ref` stands for it
 * in the arguments of later calls on the thread (typed as the object, it is only a marker here),
 * and close() calls its close() there and forgets it.
 */
export interface EngineSession<T> {
  readonly ref: T;
  close(): Promise<void>;
}

/** The error sent back, rebuilt: one of the caller's classes by name, else as it came. */
function rebuilt(error: unknown, classes: ErrorClass[]): unknown {
  const e = error as { engineError?: boolean; name: string; message: string; stack?: string; fields?: object };
  if (!e || typeof e !== 'object' || e.engineError !== true) return error;
  const cls = classes.find((c) => c.name === e.name);
  const err = Object.create((cls ?? Error).prototype) as Error;
  Object.assign(err, e.fields, { message: e.message, name: e.name, stack: e.stack });
  return err;
}

function post(message: object, transfer: ArrayBuffer[], classes: ErrorClass[]): Promise<unknown> {
  const worker = engineThread();
  const id = nextId++;
  const answer = new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject: (err) => reject(rebuilt(err, classes)) });
  });
  worker.ref();
  try {
    worker.postMessage({ ...message, id }, transfer);
  } catch (err) {
    // Arguments that cannot be copied (a function in them): this call fails, nothing is left waiting.
    pending.get(id)?.reject(err);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
  }
  return answer;
}

function checkedEngine(specifier: string): void {
  if (!specifier.startsWith('#engines/')) throw new Error(`not an engine module: ${specifier}`);
}

/**
 * `name` of the engine module `specifier` (a `#engines/…` path), run on the engine thread with
 * `args`, which are copied to it (structured clone) except the buffers in `transfer`, which move
 * and are unusable here afterwards. Its answer is copied back; an error it throws is rethrown here
 * (built-in error types keep their type; the engine's own classes listed in `errors` are rebuilt as
 * themselves with their fields; others arrive as Error with the same name and message).
 */
export function onEngineThread<F extends (...args: never[]) => unknown>(
  specifier: string,
  name: string,
  options: EngineCallOptions = {},
) {
  checkedEngine(specifier);
  return (args: Parameters<F>, transfer: ArrayBuffer[] = []) =>
    post({ op: 'call', specifier, name, args }, transfer, options.errors ?? []) as Promise<Awaited<ReturnType<F>>>;
}

/** Like onEngineThread, but what the function returns stays on the thread, as a session. */
export function openOnEngineThread<F extends (...args: never[]) => unknown>(
  specifier: string,
  name: string,
  options: EngineCallOptions = {},
) {
  checkedEngine(specifier);
  const classes = options.errors ?? [];
  return async (args: Parameters<F>, transfer: ArrayBuffer[] = []): Promise<EngineSession<Awaited<ReturnType<F>>>> => {
    const session = (await post({ op: 'open', specifier, name, args }, transfer, classes)) as number;
    return {
      ref: { engineSession: session } as Awaited<ReturnType<F>>,
      close: async () => {
        await post({ op: 'close', session }, [], classes);
      },
    };
  };
}
