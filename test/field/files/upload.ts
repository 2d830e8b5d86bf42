// Multipart file uploads for the file tests, and small real files of each kind we keep.
import { deflateRawSync } from 'node:zlib';
import type { TestApp } from '#test/helpers/harness.ts';
import { multipartBody, type Part } from '#test/field/photos/upload.ts';

export type { Part };

/** POSTs a multipart form to `url` with `key`. */
export async function postForm(t: TestApp, key: string, url: string, parts: Part[]) {
  const { payload, contentType } = multipartBody(parts);
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: { 'x-api-key': key, 'content-type': contentType },
    payload,
  });
  return { status: res.statusCode, body: res.json() as any };
}

/** Uploads `data` as `filename` to a job's files, with the given text fields before it. */
export const uploadJobFile = (
  t: TestApp,
  w: { key: string },
  jobId: number,
  data: Buffer,
  filename: string,
  fields: Record<string, string> = {},
) =>
  postForm(t, w.key, `/v1/jobs/${jobId}/files`, [
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    { name: 'file', filename, data },
  ]);

/** A one-page PDF (the real structure, tiny). */
export const pdf = (text = 'Site plan') =>
  Buffer.from(
    `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n` +
      `3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj\n% ${text}\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
  );

/** A ZIP archive holding one file (what .zip, .docx, .xlsx and .pptx files are). */
export function zip(name = '[Content_Types].xml', content = '<Types/>'): Buffer {
  const data = Buffer.from(content);
  const packed = deflateRawSync(data);
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(packed.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(packed.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + nameBytes.length, 12);
  end.writeUInt32LE(30 + nameBytes.length + packed.length, 16);
  return Buffer.concat([local, nameBytes, packed, central, nameBytes, end]);
}

/** The first bytes of an OLE2 compound document (what .doc, .xls and .ppt files are). */
export const ole2 = () =>
  Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504, 0)]);
export const rtf = () => Buffer.from('{\\rtf1\\ansi Sealcoat schedule\\par }');
export const rar = () => Buffer.concat([Buffer.from('Rar!\x1a\x07\x01\x00', 'latin1'), Buffer.alloc(64, 1)]);
export const sevenZip = () =>
  Buffer.concat([Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0x00, 0x04]), Buffer.alloc(64, 2)]);
/** The first bytes of a HEIC photo (an ISO BMFF ftyp box with the heic brand). */
export const heic = () =>
  Buffer.concat([
    Buffer.from([0, 0, 0, 24]),
    Buffer.from('ftypheic', 'latin1'),
    Buffer.from('mif1heic', 'latin1'),
    Buffer.alloc(64, 3),
  ]);
/** An ELF program's first bytes. */
export const elf = () => Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120, 0)]);
/** A Windows program's first bytes (MZ header). */
export const exe = () => Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(120, 0)]);
