// The load process's HTTP client: undici keep-alive connections to the server, one call timed
// from when its flow was due (so time spent waiting in this process for a free connection counts,
// as it would for a real caller) to the last byte of the answer, and sorted into the outcomes a
// Recorder keeps: the expected status, a designed 4xx, or an error.
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { KINDS, type Kind } from './mix.ts';
import type { Recorder } from './record.ts';

export interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface Call {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  /** The API key; none for customer pages. */
  key?: string;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as it is, with `contentType`. */
  body?: Buffer | string;
  contentType?: string;
  headers?: Record<string, string>;
  /** The statuses that mean success (200 unless given). */
  expect?: readonly number[];
  /** 4xx statuses this call is meant to get (a name already taken, a declined card). */
  designed?: readonly number[];
  /** When the call was due (performance.now()); now unless given. */
  since?: number;
  /** A check of a successful answer's body; a string it answers is an error. */
  check?: (a: Answer) => string | null;
}

export class Client {
  /** Connections are capped so a server that falls behind shows as latency here, not as open sockets without end. */
  readonly agent = new Agent({ connections: 128, keepAliveTimeout: 30_000, pipelining: 1 });

  constructor(readonly base: string) {}

  /** One call, recorded on `rec` under `kind`; answers null unless it got an expected or designed status. */
  async call(rec: Recorder, kind: Kind, c: Call): Promise<Answer | null> {
    const t0 = c.since ?? performance.now();
    const headers: Record<string, string> = { ...c.headers };
    if (c.key) headers['x-api-key'] = c.key;
    let body: Buffer | string | undefined = c.body;
    if (c.json !== undefined) {
      body = JSON.stringify(c.json);
      headers['content-type'] = 'application/json';
    } else if (c.contentType) headers['content-type'] = c.contentType;
    let answer: Answer;
    try {
      const res = await request(`${this.base}${c.path}`, {
        method: c.method,
        headers,
        body,
        dispatcher: this.agent,
      });
      answer = { status: res.statusCode, body: await res.body.text(), headers: res.headers };
    } catch (err) {
      rec.record(kind, performance.now() - t0, 'error', `${KINDS[kind].label}: ${String(err)}`);
      return null;
    }
    const took = performance.now() - t0;
    const what = `${c.method} ${c.path.slice(0, 80)}: HTTP ${answer.status}`;
    if ((c.expect ?? [200]).includes(answer.status)) {
      const problem = c.check?.(answer) ?? null;
      rec.record(kind, took, problem ? 'error' : 'ok', problem ? `${what}: ${problem}` : undefined);
      return problem ? null : answer;
    }
    if (c.designed?.includes(answer.status)) {
      rec.record(kind, took, 'designed');
      return answer;
    }
    rec.record(kind, took, 'error', `${what} ${answer.body.slice(0, 300)}`);
    return null;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
