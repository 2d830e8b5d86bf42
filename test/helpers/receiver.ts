// A real HTTP receiver on loopback for webhook tests: records every request with its exact bytes
// and answers with whatever the test says.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: any;
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Decides each reply: a status code, or 'hang' to never answer. Default 200. */
  respond: (req: Received) => number | 'hang' | Promise<number | 'hang'>;
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
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = null;
      try {
        body = JSON.parse(raw);
      } catch {
        /* kept raw */
      }
      const entry = { headers: req.headers, raw, body, at: Date.now() };
      receiver.received.push(entry);
      const answer = await receiver.respond(entry);
      if (answer === 'hang') return;
      res.writeHead(answer, { 'content-type': 'text/plain' });
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
