// Reading a file upload (POST /v1/jobs/{job_id}/files, /v1/client-accounts/{account_id}/files,
// /v1/library-files) as multipart/form-data: the one file part (`file`) is told from its first
// bytes and its name (kinds.ts) and streamed to storage as it arrives, never held whole. The text
// fields are checked when they arrive before the file (so a bad field refuses a 200 MB upload
// before it is stored) and again once the form has ended.
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { ServiceContext } from '#platform/context.ts';
import { invalidField, unknownFields } from '#platform/errors.ts';
import { recordIdOf } from '#platform/schemas.ts';
import { removeObjects } from '#platform/storage/cleanup.ts';
import { formBoolean, formFieldReader, multipartError, peek } from '#field/photos/upload.ts';
import { audienceInvalid, fileTooLarge, invalidFile, noFile, oneFile, uploadWithMultipart } from './errors.ts';
import { SNIFF_BYTES, fileKind, isRefusal } from './kinds.ts';
import { AUDIENCES, DESCRIPTION_MAX, FILENAME_MAX, type Audience, type FileFields } from './schemas.ts';
import { checkBeforeStoring, storeFileObject, type StoredFileObject, type UploadTarget } from './service.ts';

export const FILE_FIELD = 'file';
const TEXT_FIELDS = new Set(['description', 'audience', 'customer_visible', 'folder_id']);

/**
 * The name the file is kept under: the client's, without any folder path or control characters
 * (each becomes `_`), at most 255 characters.
 */
export function filenameOf(sent: string): string {
  const base = path.win32
    .basename(path.posix.basename(sent))
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this replaces.
    .replace(/[\u0000-\u001f\u007f]/g, '_')
    .trim();
  if (base.length > FILENAME_MAX) throw invalidField('filename', `filename must be at most ${FILENAME_MAX} characters`);
  return base === '' ? 'file' : base;
}

/** The text fields, checked and typed. */
export function fieldsOf(raw: Map<string, string[]>): FileFields {
  const one = formFieldReader(raw, TEXT_FIELDS);
  const fields: FileFields = {};
  const description = one('description');
  if (description !== undefined) {
    if (description.length > DESCRIPTION_MAX)
      throw invalidField('description', `description must be at most ${DESCRIPTION_MAX} characters`);
    fields.description = description;
  }
  const audience = one('audience');
  if (audience !== undefined) {
    if (!(AUDIENCES as readonly string[]).includes(audience)) throw audienceInvalid();
    fields.audience = audience as Audience;
  }
  const visible = one('customer_visible');
  if (visible !== undefined) fields.customer_visible = formBoolean('customer_visible', visible);
  const folder = one('folder_id');
  if (folder !== undefined) {
    const v = folder.trim();
    if (v === '' || v === 'null') fields.folder_id = null;
    else {
      const id = recordIdOf(v);
      if (id === null) throw invalidField('folder_id', 'folder_id must be a library folder id');
      fields.folder_id = id;
    }
  }
  return fields;
}

/**
 * Reads the whole form, storing the file as it streams in. Whatever fails after it is stored (a
 * second file, a bad field after it, a broken body) deletes it again before the error goes out.
 */
export async function readFileForm(
  ctx: ServiceContext,
  request: FastifyRequest,
  target: UploadTarget,
): Promise<{ fields: FileFields; stored: StoredFileObject }> {
  const raw = new Map<string, string[]>();
  let stored: StoredFileObject | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== FILE_FIELD) {
          part.file.resume();
          throw unknownFields([part.fieldname]);
        }
        if (stored) {
          part.file.resume();
          throw oneFile();
        }
        try {
          await checkBeforeStoring(ctx, target, fieldsOf(raw));
        } catch (err) {
          part.file.resume();
          throw err;
        }
        const filename = filenameOf(part.filename);
        const { head, body } = await peek(part.file, SNIFF_BYTES);
        if (head.length === 0) {
          body.resume();
          throw noFile('The file is empty');
        }
        const kind = fileKind(head, filename);
        if (isRefusal(kind)) {
          body.resume();
          throw invalidFile(kind.reason);
        }
        stored = await storeFileObject(ctx, body, kind.contentType, filename);
        if (part.file.truncated) throw fileTooLarge();
      } else {
        // A field named file that is not a file part (no filename): the file was not attached.
        if (part.fieldname === FILE_FIELD) throw noFile('Send the file as a file part (with a filename), not text');
        const list = raw.get(part.fieldname) ?? [];
        list.push(String(part.value));
        raw.set(part.fieldname, list);
      }
    }
    if (!stored) throw noFile();
    return { fields: fieldsOf(raw), stored };
  } catch (err) {
    if (stored) await removeObjects(ctx.deps.storage, [stored.key]);
    throw multipartError(err, oneFile, fileTooLarge);
  }
}

/** A file upload's form, read on demand (after the owner is checked: 404 before a byte is stored). */
export type SentFile = () => Promise<{ fields: FileFields; stored: StoredFileObject }>;

/** For routes: the request's form, read when the service asks; a body that is not one is the spec's 400 then. */
export function sentFile(ctx: ServiceContext, request: FastifyRequest, target: UploadTarget): SentFile {
  return async () => {
    if (!request.isMultipart()) throw uploadWithMultipart();
    return readFileForm(ctx, request, target);
  };
}
