// A real HTTP receiver on loopback for webhook tests: records every request with its exact bytes
// and answers with whatever the test says.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The body's exact bytes, and the same as UTF-8 text. */
  bytes: Buffer;
  raw: string;
  body: any;
  at: number;
}

export type Answer = number | { status: number; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /**
   * Decides each reply: a status code, one with headers (Retry-After for a client's retries), or
   * 'hang' to never answer. Default 200.
   */
  respond: (req: Received) => Answer | Promise<Answer>;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hooks'): Promise<Receiver> {
  const sockets = new Set<import('node:net').Socket>();
  const receiver: Receiver = {
    url: '',
    received: [],
    respond: () => 200,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const bytes = Buffer.concat(chunks);
      const raw = bytes.toString('utf8');
      let body: unknown = null;
      try {
        body = JSON.parse(raw);
      } catch {
        /* kept raw */
      }
      const entry = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        bytes,
        raw,
        body,
        at: Date.now(),
      };
      receiver.received.push(entry);
      const answer = await receiver.respond(entry);
      if (answer === 'hang') return;
      const { status, headers = {} } = typeof answer === 'number' ? { status: answer } : answer;
      res.writeHead(status, { 'content-type': 'text/plain', ...headers });
      res.end('ok');
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}

/** Holds every reply of `receiver` from now on until the returned release is called; then each answers 200. */
export function holdReplies(receiver: Receiver): () => void {
  let release!: () => void;
  const held = new Promise<number>((resolve) => {
    release = () => resolve(200);
  });
  receiver.respond = () => held;
  return release;
}
