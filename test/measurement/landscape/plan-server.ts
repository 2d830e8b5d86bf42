// A local HTTP server that hands out plan PDFs for file_url (the harness allows private networks,
// so plain http reaches it): each path answers what it was given, with its Content-Length.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PlanServer {
  url(path: string): string;
  serve(path: string, body: Buffer, headers?: Record<string, string>, status?: number): void;
  close(): Promise<void>;
}

export async function planServer(): Promise<PlanServer> {
  const answers = new Map<string, { body: Buffer; headers: Record<string, string>; status: number }>();
  const server = http.createServer((req, res) => {
    const a = answers.get(req.url ?? '');
    if (!a) {
      res.writeHead(404).end('not here');
      return;
    }
    // chunked: no Content-Length, the body in 1 MiB pieces (a server that does not announce a size).
    const chunked = a.headers['transfer-encoding'] === 'chunked';
    res.writeHead(a.status, {
      'content-type': 'application/pdf',
      ...(chunked ? {} : { 'content-length': String(a.body.length) }),
      ...a.headers,
    });
    if (!chunked) {
      res.end(a.body);
      return;
    }
    let at = 0;
    const more = () => {
      while (at < a.body.length) {
        const piece = a.body.subarray(at, at + 1024 * 1024);
        at += piece.length;
        if (!res.write(piece)) return void res.once('drain', more);
      }
      res.end();
    };
    res.on('error', () => {});
    more();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (p) => `http://127.0.0.1:${port}${p}`,
    serve: (p, body, headers = {}, status = 200) => answers.set(p, { body, headers, status }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
