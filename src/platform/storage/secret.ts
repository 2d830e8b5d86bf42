// The key that signs local links. GROUNDWORK_STORAGE_SECRET when the operator sets one (several
// servers sharing a data directory over a network share, or secrets kept in a vault); otherwise
// a random one made on first use and kept in <dataDir>/storage-secret (mode 0600), so links
// survive a restart and every process on the data directory signs alike. Made on first use, not
// at start, so a process that never signs a link never writes the file.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const SECRET_FILE = 'storage-secret';
const MIN_SECRET = 32;

export function secretSource(dataDir: string, configured: string | null | undefined): () => Promise<Buffer> {
  let secret: Promise<Buffer> | null = null;
  return () => {
    if (!secret) {
      secret = configured ? Promise.resolve(Buffer.from(configured, 'utf8')) : keptSecret(dataDir);
      // A failure (an unwritable directory) is not remembered: the next link tries again.
      secret.catch(() => {
        secret = null;
      });
    }
    return secret;
  };
}

async function keptSecret(dataDir: string): Promise<Buffer> {
  const file = path.join(dataDir, SECRET_FILE);
  const read = async () => {
    const text = (await fs.promises.readFile(file, 'utf8')).trim();
    if (text.length < MIN_SECRET)
      throw new Error(`${file} holds no usable secret; remove it to make a new one (links made so far stop working)`);
    return Buffer.from(text, 'utf8');
  };
  try {
    return await read();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  // Written whole under a private name, then linked into place: link() fails if another process
  // won the race, and then its secret is the one every process uses.
  await fs.promises.mkdir(dataDir, { recursive: true });
  const temp = path.join(dataDir, `.${SECRET_FILE}.${randomBytes(6).toString('hex')}`);
  await fs.promises.writeFile(temp, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  try {
    await fs.promises.link(temp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await fs.promises.rm(temp, { force: true });
  }
  return read();
}
