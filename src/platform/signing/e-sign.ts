// Signing a document on a customer page (proposals and change orders): the consent to sign
// electronically, the typed name and the optional drawn signature, and who signed from where.
//
// The consent (ESIGN Act, 15 U.S.C. 7001(c), and UETA §5: a party must agree to do business
// electronically) is shown on the page, is part of the signed document, and its version is recorded
// with the signature, so a later change of wording never blurs what an earlier signer agreed to.
// One wording serves every kind of document, naming it; change the wording: change the version.
import { timingSafeEqual } from 'node:crypto';
import sharp from 'sharp';

export const CONSENT_VERSION = 'esign-2026-11';

/** What is signed, as the consent names it. */
export type SignedDocument = 'proposal' | 'change order';

export function consentText(document: SignedDocument): string {
  return (
    `I agree to sign this ${document} electronically. I understand that my typed name (and my drawn ` +
    `signature, if I add one) is my legal signature on this ${document}, with the same effect as a ` +
    'signature on paper; that I may ask for a paper copy at no charge by contacting the sender; ' +
    'that I may withdraw this consent before signing by closing this page; and that a copy of the ' +
    `signed ${document} is kept by the sender and is available to me on this page.`
  );
}

export const SIGNER_NAME_MAX = 200;
/** The most a drawn signature's PNG may weigh (decoded). A signature pad's PNG is a few KB. */
export const SIGNATURE_PNG_MAX = 500 * 1024;
/** A signature pad is a few hundred pixels; a larger side is refused before it is decoded whole. */
const SIGNATURE_SIDE_MAX = 4000;

/** Two secrets compared in constant time (a page's document hash, a preview token). */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The typed name's rule: present and not too long; the message the page shows, or null. */
export function signerNameProblem(typed: string): string | null {
  const name = typed.trim();
  if (name === '') return 'Type your full name to sign.';
  if (Array.from(name).length > SIGNER_NAME_MAX) return `Your name can be at most ${SIGNER_NAME_MAX} characters.`;
  return null;
}

export const BAD_SIGNATURE_MESSAGE =
  'The drawn signature could not be read. Clear it and draw it again, or sign with your typed name only.';

const PNG_DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/]+={0,2})$/;

/** The drawn signature's PNG bytes; null for none; 'bad' when it is not a PNG within the limit. */
export async function signaturePng(value: string): Promise<Buffer | null | 'bad'> {
  if (value === '') return null;
  // A cheap refusal before decoding: base64 is 4 characters per 3 bytes.
  if (value.length > 32 + Math.ceil(SIGNATURE_PNG_MAX / 3) * 4) return 'bad';
  const m = PNG_DATA_URL.exec(value);
  if (!m) return 'bad';
  const bytes = Buffer.from(m[1], 'base64');
  if (bytes.length === 0 || bytes.length > SIGNATURE_PNG_MAX) return 'bad';
  try {
    // Decode it for real: a PNG header on something else is refused, not stored and drawn later.
    const { format, width, height } = await sharp(bytes).metadata();
    if (format !== 'png' || !width || !height || width > SIGNATURE_SIDE_MAX || height > SIGNATURE_SIDE_MAX)
      return 'bad';
    await sharp(bytes).stats();
  } catch {
    return 'bad';
  }
  return bytes;
}

/** A PNG as the data URL a signature is stored as. */
export const pngDataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;
