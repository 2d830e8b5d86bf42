// GET of a URL a user gave us (a photo to copy in; plan images later), under the outbound rules of
// outbound.ts: https only and public addresses only (names checked as they resolve, at connect
// time), unless the operator allows private networks (GROUNDWORK_ALLOW_PRIVATE_NETWORK), which
// also allows plain http to reach a local test server. Up to three redirects are followed, each
// hop checked the same way. The body comes back as a stream: the caller caps its size as it reads.
import type { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { assertPublicHost, publicOnlyLookup } from './outbound.ts';

export const FETCH_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 3;

/** Why a URL could not be fetched, in words a caller can pass on. */
/** The message of a FetchFailed for a server that did not answer in time. */
export const TIMED_OUT = 'The server did not answer in time';

export class FetchFailed extends Error {
  /** The HTTP status of a non-2xx answer; null when no answer came (refused, unreachable, timed out). */
  readonly status: number | null;
  constructor(message: string, status: number | null = null) {
    super(message);
    this.status = status;
  }
}

export interface Fetched {
  body: Readable;
  /** The Content-Length the server announced, if any (a hint: the caller still counts). */
  announcedBytes: number | null;
  /** 200, or 204 and the other 2xx answers (a tile server's "nothing here"). */
  status: number;
  /** The answer's headers, names lower-cased (a tile's capture date rides in one). */
  headers: Record<string, string | string[] | undefined>;
}

export interface FetchOptions {
  allowPrivate: boolean;
  /** Who is asking: photo import unless said (a tile server may want to know it is tiles). */
  userAgent?: string;
}

const agents = new Map<boolean, Agent>();
function agentFor(allowPrivate: boolean): Agent {
  let agent = agents.get(allowPrivate);
  if (!agent) {
    agent = new Agent({
      connectTimeout: 10_000,
      headersTimeout: FETCH_TIMEOUT_MS,
      bodyTimeout: FETCH_TIMEOUT_MS,
      ...(allowPrivate ? {} : { connect: { lookup: publicOnlyLookup as never } }),
    });
    agents.set(allowPrivate, agent);
  }
  return agent;
}

function checked(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchFailed('The url is not a valid URL');
  }
  const httpAllowed = allowPrivate && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !httpAllowed) throw new FetchFailed('Only https URLs are fetched');
  try {
    assertPublicHost(url, allowPrivate);
  } catch (err) {
    throw new FetchFailed((err as Error).message);
  }
  return url;
}

/** Opens `raw` for reading; FetchFailed for a refused address, a network error or a non-2xx answer. */
export async function fetchPublic(raw: string, options: FetchOptions): Promise<Fetched> {
  let url = checked(raw, options.allowPrivate);
  const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  for (let hop = 0; ; hop++) {
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(url, {
        method: 'GET',
        headers: { 'user-agent': options.userAgent ?? 'Groundwork/1.0 (photo import)', accept: 'image/*' },
        dispatcher: agentFor(options.allowPrivate),
        signal,
      });
    } catch (err) {
      const e = err as { name?: string; message?: string; cause?: { message?: string } };
      if (e.name === 'TimeoutError' || e.name === 'AbortError') throw new FetchFailed(TIMED_OUT);
      throw new FetchFailed(e.cause?.message ?? e.message ?? 'The server could not be reached');
    }
    const location = res.headers.location;
    if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string') {
      res.body.dump({ limit: 64 * 1024 }).catch(() => {});
      if (hop >= MAX_REDIRECTS) throw new FetchFailed('Too many redirects');
      url = checked(new URL(location, url).href, options.allowPrivate);
      continue;
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      res.body.dump({ limit: 64 * 1024 }).catch(() => {});
      throw new FetchFailed(`The server answered HTTP ${res.statusCode}`, res.statusCode);
    }
    const length = Number(res.headers['content-length']);
    return {
      body: res.body,
      announcedBytes: Number.isFinite(length) ? length : null,
      status: res.statusCode,
      headers: res.headers,
    };
  }
}
