// An image sent as text (condition/ratings/request.ts, decodeImageText): bare base64 or base64url
// with at most two `=`, or a base64 data URI, whitespace anywhere; anything else is invalid_image.
// The check is a loop over the text: a 20 MB image as base64 is checked and decoded whole (a
// regular expression over it threw "Maximum call stack size exceeded" in a long-running process).
import { describe, expect, it } from 'vitest';
import { decodeImageText } from '#condition/index.ts';

const refused = (text: string) => {
  try {
    decodeImageText(text);
  } catch (e) {
    return (e as { body?: { code?: string } }).body?.code;
  }
  return 'accepted';
};

describe('decodeImageText', () => {
  it('decodes base64 with 0, 1 or 2 padding characters, base64url, data URIs and spaced text', () => {
    for (const bytes of [
      Buffer.from([1, 2, 3]),
      Buffer.from([1, 2]),
      Buffer.from([1]),
      Buffer.from([250, 251, 252, 253]),
    ]) {
      expect(decodeImageText(bytes.toString('base64'))).toEqual(bytes);
      expect(decodeImageText(bytes.toString('base64url'))).toEqual(bytes);
      expect(decodeImageText(`data:image/png;base64,${bytes.toString('base64')}`)).toEqual(bytes);
    }
    expect(decodeImageText(' AQID\n BAU= ')).toEqual(Buffer.from([1, 2, 3, 4, 5]));
  });

  it('refuses empty text, padding alone or past two, and letters outside base64', () => {
    for (const bad of ['', '   ', '=', '==', 'AQ===', 'AQ=D', 'AQ*D', 'AQ.D', 'ÄQID', 'data:image/png,AQID'])
      expect(refused(bad), JSON.stringify(bad)).toBe('invalid_image');
  });

  it('checks and decodes 20 MB of base64 whole', () => {
    const bytes = Buffer.alloc(15 * 1024 * 1024 + 10, 7);
    const text = bytes.toString('base64');
    expect(text.length).toBeGreaterThan(20_000_000);
    expect(decodeImageText(text).length).toBe(bytes.length);
    expect(refused(`${text.slice(0, -3)}!==`)).toBe('invalid_image');
  });
});
