// Which object keys are valid. Keys become file paths under the local adapter, so a key must never
// climb out of the objects folder: segments of letters, digits, `.`, `_` and `-` that start with a
// letter or digit (so no `.`, `..` or hidden name), joined by single `/`, no leading `/`. The
// local adapter's temporary files start with `.`, so no key can ever name one.
import { InvalidStorageKey } from './errors.ts';

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
export const MAX_KEY_LENGTH = 512;

export function assertValidKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH)
    throw new InvalidStorageKey(key, `must be 1 to ${MAX_KEY_LENGTH} characters`);
  for (const segment of key.split('/')) {
    if (!SEGMENT.test(segment))
      throw new InvalidStorageKey(
        key,
        'must be segments of letters, digits, ".", "_" and "-" starting with a letter or digit, joined by "/"',
      );
  }
}
