// Which uploads are files we keep (document 3: PDF, Word, Excel, PowerPoint, text, CSV, RTF,
// images, ZIP, RAR, 7z), told from the first bytes together with the name's extension. The bytes
// name a family (a PDF, an OLE2 compound document, a ZIP archive …); the extension must be one
// that family is saved under, and picks the type where the bytes cannot (an OLE2 file is a .doc,
// .xls or .ppt; a ZIP is a .zip or an Office Open XML .docx, .xlsx or .pptx). Text and CSV have
// no signature: they are taken when the extension says so and the first bytes are UTF-8 without
// NULs. Anything else (a program, a disk image, a file whose bytes and name disagree) is refused.
import { sniff } from '#platform/imagery/sniff.ts';

/** Largest file accepted (document 3: "up to 200 MB"). */
export const FILE_MAX_BYTES = 200 * 1024 * 1024;
/** How many leading bytes the decision reads (the text check reads them all). */
export const SNIFF_BYTES = 4096;

type Family = 'pdf' | 'ole' | 'zip' | 'rtf' | 'rar' | '7z' | 'jpeg' | 'png' | 'gif' | 'webp' | 'heic' | 'text';

/** Each family's extensions, with the media type each is served as; the first one stands for a name without one. */
const FAMILIES: Record<Family, Record<string, string>> = {
  pdf: { pdf: 'application/pdf' },
  ole: {
    doc: 'application/msword',
    xls: 'application/vnd.ms-excel',
    ppt: 'application/vnd.ms-powerpoint',
  },
  zip: {
    zip: 'application/zip',
    docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  },
  rtf: { rtf: 'application/rtf' },
  rar: { rar: 'application/vnd.rar' },
  '7z': { '7z': 'application/x-7z-compressed' },
  jpeg: { jpg: 'image/jpeg', jpeg: 'image/jpeg', jpe: 'image/jpeg', jfif: 'image/jpeg' },
  png: { png: 'image/png' },
  gif: { gif: 'image/gif' },
  webp: { webp: 'image/webp' },
  heic: { heic: 'image/heic', heif: 'image/heic' },
  text: { txt: 'text/plain', csv: 'text/csv' },
};

/** Families whose bytes alone say what the file is: a name without an extension is taken. */
const SELF_EVIDENT = new Set<Family>(['pdf', 'zip', 'rtf', 'rar', '7z', 'jpeg', 'png', 'gif', 'webp', 'heic']);

const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const SEVEN_ZIP = Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]);
const RAR = Buffer.from('Rar!\x1a\x07', 'latin1');

const startsWith = (head: Buffer, sig: Buffer | string) => {
  const bytes = typeof sig === 'string' ? Buffer.from(sig, 'latin1') : sig;
  return head.length >= bytes.length && head.subarray(0, bytes.length).equals(bytes);
};

/** The family the leading bytes name, or null (text has no signature). */
function familyOf(head: Buffer): Family | null {
  if (startsWith(head, '%PDF-')) return 'pdf';
  if (startsWith(head, OLE2)) return 'ole';
  // Local file header, empty archive, spanned archive.
  if (startsWith(head, 'PK\x03\x04') || startsWith(head, 'PK\x05\x06') || startsWith(head, 'PK\x07\x08')) return 'zip';
  if (startsWith(head, '{\\rtf')) return 'rtf';
  if (startsWith(head, RAR)) return 'rar';
  if (startsWith(head, SEVEN_ZIP)) return '7z';
  const image = sniff(head);
  if (image?.contentType === 'image/jpeg') return 'jpeg';
  if (image?.contentType === 'image/png') return 'png';
  if (image?.contentType === 'image/gif') return 'gif';
  if (image?.contentType === 'image/webp') return 'webp';
  if (image?.contentType === 'image/heic') return 'heic';
  return null;
}

/** UTF-8 (a sequence cut at the end of the head is fine) with no NUL byte. */
function looksLikeText(head: Buffer): boolean {
  if (head.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** The name's extension, lowercased, without the dot; null when it has none. */
export function extensionOf(filename: string): string | null {
  const m = /\.([A-Za-z0-9]{1,10})$/.exec(filename);
  return m ? m[1]!.toLowerCase() : null;
}

export interface FileKind {
  /** The media type the file is stored and served as. */
  contentType: string;
}

/** Why a file is refused, for the 400's message. */
export type Refusal = { reason: string };

/** What the file is, or why it is not one we keep. */
export function fileKind(head: Buffer, filename: string): FileKind | Refusal {
  const ext = extensionOf(filename);
  const family = familyOf(head);
  if (family) {
    const types = FAMILIES[family];
    if (ext === null) {
      if (!SELF_EVIDENT.has(family)) return { reason: 'Name the file with its extension (.doc, .xls or .ppt)' };
      return { contentType: Object.values(types)[0]! };
    }
    const type = types[ext];
    if (!type) return { reason: `The file's contents do not match its .${ext} extension` };
    return { contentType: type };
  }
  if (ext !== null && ext in FAMILIES.text) {
    if (!looksLikeText(head)) return { reason: `A .${ext} file must be UTF-8 text` };
    return { contentType: FAMILIES.text[ext]! };
  }
  return {
    reason:
      'Upload a PDF, Word, Excel or PowerPoint document, a text, CSV or RTF file, an image (JPEG, PNG, WebP, GIF, HEIC), or a ZIP, RAR or 7z archive',
  };
}

export const isRefusal = (kind: FileKind | Refusal): kind is Refusal => 'reason' in kind;

/** The Content-Type a link answers with: text is UTF-8 (that is what was accepted). */
export const servedType = (contentType: string) =>
  contentType.startsWith('text/') ? `${contentType}; charset=utf-8` : contentType;
