// Reading an outside service's answer (the geocoder, the vision endpoint, an image_url): its body
// read whole up to a size, since what a service answers past its contract's size (a geocoder's few
// hundred bytes, a vision endpoint's findings, an image of at most 15 MB) is refused rather than
// buffered; and why a call failed, in words an error can carry.
import { request } from 'undici';

/** The bytes of `body`, or null (the stream destroyed) once it passes `maxBytes`. */
export async function cappedBytes(
  body: AsyncIterable<Buffer> & { destroy(): void },
  maxBytes: number,
): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * A connection the service closed while undici held it for reuse: the request never reached it.
 * Node's and most servers' keep-alive timeout closes an idle connection at the moment a new request
 * may be written to it, more often on a loaded machine whose timers run late.
 */
function closedUnderUs(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET';
}

/**
 * undici's `request`, sent a second time when the first found its kept-alive connection closed.
 * Only for questions that are safe to ask twice (a geocode, an image to segment or rate): the
 * answer of the second is the answer, and a second failure is the call's failure.
 */
export async function askOutside(url: string, options: Parameters<typeof request>[1]) {
  try {
    return await request(url, options);
  } catch (err) {
    if (!closedUnderUs(err) || (options?.signal as AbortSignal | undefined)?.aborted) throw err;
    return request(url, options);
  }
}

/** Why a call to an outside service failed: a timeout in words, else the error's code or message. */
export function whyFailed(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; code?: string; message?: string };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  return e?.code ?? e?.message ?? String(err);
}

/**
 * An operator's endpoint URL from its environment variable (GROUNDWORK_VISION_URL,
 * GROUNDWORK_SEGMENTATION_URL …): null when unset or blank; a value that is not an http(s) URL
 * stops the start at once, not at the first call that needs it.
 */
export function endpointUrl(url: string | null | undefined, variable: string): string | null {
  const raw = url?.trim();
  if (!raw) return null;
  let parsed: URL | null = null;
  try {
    parsed = new URL(raw);
  } catch {
    /* reported below */
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    throw new Error(`${variable} must be an http(s) URL, got "${url}"`);
  return parsed.toString();
}
