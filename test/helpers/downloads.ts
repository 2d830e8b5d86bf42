// Reading what the API sends as files and streams: raw (binary-safe) calls, JSON Lines and ZIP
// readers, and the two instant formats (API and stored) exports and downloads carry.
import yauzl from 'yauzl';
import type { TestApp } from '#test/helpers/harness.ts';

export interface RawReply {
  status: number;
  headers: Record<string, unknown>;
  bytes: Buffer;
  /** The body parsed as JSON, when it is JSON. */
  json: any;
}

/** A GET through inject, keeping the body's bytes (gzip and zip bodies are binary). */
export async function rawGet(t: TestApp, url: string, key?: string): Promise<RawReply> {
  const res = await t.app.inject({ method: 'GET', url, headers: key ? { 'x-api-key': key } : {} });
  let json: unknown = null;
  try {
    json = JSON.parse(res.body);
  } catch {
    /* not JSON */
  }
  return { status: res.statusCode, headers: res.headers as Record<string, unknown>, bytes: res.rawPayload, json };
}

/** The objects of a JSON Lines body (every line must end with a newline). */
export function jsonLines(text: string | Buffer): any[] {
  const s = text.toString('utf8');
  if (s === '') return [];
  if (!s.endsWith('\n')) throw new Error('JSON Lines body does not end with a newline');
  return s
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line));
}

/** The entries of a ZIP, by name, in archive order. */
export async function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  const file = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
  const out = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    file.on('error', reject);
    file.on('end', () => resolve());
    file.on('entry', (entry: yauzl.Entry) => {
      file.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const parts: Buffer[] = [];
        stream.on('data', (b: Buffer) => parts.push(b));
        stream.on('error', reject);
        stream.on('end', () => {
          out.set(entry.fileName, Buffer.concat(parts));
          file.readEntry();
        });
      });
    });
    file.readEntry();
  });
  return out;
}

export const Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
export const MICRO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;
