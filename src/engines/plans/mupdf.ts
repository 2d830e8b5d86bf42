// MuPDF's WebAssembly build, loaded on first use rather than when the server starts: it holds about
// 40 MB of a process's memory (docs/performance.md, "Server memory"), which a server whose
// workspaces never read a plan need not carry. Whatever opens a plan awaits loadMupdf() first;
// everything after works on the opened PlanDocument, synchronously, as before.
import type * as Mupdf from 'mupdf';

let loaded: typeof Mupdf | undefined;
let loading: Promise<typeof Mupdf> | undefined;

/** Loads MuPDF once per process; later calls share the same promise. */
export function loadMupdf(): Promise<typeof Mupdf> {
  loading ??= import('mupdf').then((m) => {
    // MuPDF prints every repair and font warning to the console; the engine reports what it finds
    // through its answers instead.
    m.setLog(null);
    loaded = m;
    return m;
  });
  return loading;
}

/** The loaded module. */
export function mupdf(): typeof Mupdf {
  if (!loaded) throw new Error('MuPDF is not loaded yet: await loadMupdf() before opening a plan');
  return loaded;
}
