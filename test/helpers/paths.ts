// The repository's root, for tests that start the server or the CLI as a separate process.
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
