// The embedded mail default: every message is written, complete, as an .eml file in
// <GROUNDWORK_DATA_DIR>/outbox, where the operator lists and reads them (`groundwork admin
// outbox`, GET /admin/v1/outbox) or opens them in any mail program. Nothing leaves the machine.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { composeMessage } from './compose.ts';
import type { MailMessage } from './message.ts';
import type { MailTransport, SentMail } from './transport.ts';

/** File names the outbox writes: a sortable UTC time and a random tail. Anything else is not ours. */
const NAME = /^\d{8}T\d{9}Z-[0-9a-f]{8}\.eml$/;

export const outboxDir = (dataDir: string) => join(dataDir, 'outbox');

function fileName(at: Date): string {
  const stamp = at.toISOString().replace(/[-:.]/g, '');
  return `${stamp}-${randomBytes(4).toString('hex')}.eml`;
}

export class OutboxTransport implements MailTransport {
  readonly kind = 'outbox' as const;
  constructor(
    private readonly dataDir: string,
    readonly fromAddress: string,
  ) {}

  async send(message: MailMessage): Promise<SentMail> {
    const raw = await composeMessage(message, this.fromAddress);
    const dir = outboxDir(this.dataDir);
    await mkdir(dir, { recursive: true });
    const name = fileName(new Date());
    // Written beside and renamed, so a reader never sees half a message.
    const partial = join(dir, `.${name}.partial`);
    await writeFile(partial, raw);
    await rename(partial, join(dir, name));
    return { response: `written to outbox/${name}` };
  }

  async close(): Promise<void> {}
}

export interface OutboxEntry {
  /** The file name: what `groundwork admin outbox <name>` and GET /admin/v1/outbox/{name} take. */
  name: string;
  to: string | null;
  subject: string | null;
  message_id: string | null;
  written_at: string;
  size: number;
}

/** The header block of a message, unfolded (RFC 5322 §2.2.3), as name → raw value. */
function headersOf(raw: string): Map<string, string> {
  const end = raw.search(/\r?\n\r?\n/);
  const block = (end < 0 ? raw : raw.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
  const out = new Map<string, string>();
  for (const line of block.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) out.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return out;
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) as text. */
function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=\s*/g, (_m, _charset: string, enc: string, text: string) => {
    if (enc.toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8');
    const bytes = text
      .replace(/_/g, ' ')
      .replace(/=([0-9A-Fa-f]{2})/g, (_x, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  });
}

/** The outbox's messages, newest first. */
export async function listOutbox(dataDir: string, limit = 100): Promise<OutboxEntry[]> {
  let names: string[];
  try {
    names = (await readdir(outboxDir(dataDir))).filter((n) => NAME.test(n));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  names.sort().reverse();
  const out: OutboxEntry[] = [];
  for (const name of names.slice(0, limit)) {
    const path = join(outboxDir(dataDir), name);
    const [raw, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    const headers = headersOf(raw);
    const header = (h: string) => {
      const v = headers.get(h);
      return v === undefined ? null : decodeWords(v);
    };
    out.push({
      name,
      to: header('to'),
      subject: header('subject'),
      message_id: header('message-id'),
      written_at: info.mtime.toISOString().replace(/\.\d+Z$/, 'Z'),
      size: info.size,
    });
  }
  return out;
}

/** One message's bytes, or null when the name is not an outbox message. */
export async function readOutboxMessage(dataDir: string, name: string): Promise<Buffer | null> {
  if (!NAME.test(name)) return null;
  try {
    return await readFile(join(outboxDir(dataDir), name));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
