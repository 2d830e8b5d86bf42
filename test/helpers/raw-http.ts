// HTTP/1.1 over a bare socket, for what fetch cannot do: send part of a body and go quiet, send a
// whole body before reading the answer (as many simple clients do), or hang up mid-upload.
import net from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A whole answer (head and Content-Length body) at the start of `data`, or null while incomplete. */
function parseAnswer(data: Buffer): RawAnswer | null {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  if (data.length < end + 4 + length) return null;
  return {
    status: Number(statusLine!.split(' ')[1]),
    headers,
    body: data.subarray(end + 4, end + 4 + length).toString('utf8'),
  };
}

export interface RawConnection {
  socket: net.Socket;
  /** Writes and waits until the bytes are handed to the kernel; rejects when the connection broke. */
  write(data: string | Buffer): Promise<void>;
  /** The first whole answer; rejects (ECONNRESET …) when the connection ends without one. */
  answer: Promise<RawAnswer>;
  /** Resolves once the server has closed the connection. */
  closed: Promise<void>;
}

export async function connect(port: number, host = '127.0.0.1'): Promise<RawConnection> {
  const socket = net.connect({ port, host });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = Buffer.alloc(0);
  let failure: Error | null = null;
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const parsed = parseAnswer(received);
      if (parsed) resolve(parsed);
    });
    socket.on('error', (err) => {
      failure = err;
      reject(err);
    });
    socket.on('close', () => reject(failure ?? new Error(`closed without an answer: ${received.toString('latin1')}`)));
  });
  answer.catch(() => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    socket,
    answer,
    closed,
    write: (data) =>
      new Promise<void>((resolve, reject) => {
        if (failure) return reject(failure);
        socket.write(data, (err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** The head of a request: method, path, the given headers and Host. */
export const requestHead = (method: string, path: string, headers: Record<string, string | number>) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
