// Reading POST /v1/jobs/{job_id}/photos as multipart/form-data: the one file part (`photo`) is
// sniffed from its first bytes and streamed to storage as it arrives (never held whole); the text
// fields, before or after it, are read into PhotoFields with the same rules as the JSON form.
import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { ServiceContext } from '#platform/context.ts';
import { badRequest, invalidField, unknownFields } from '#platform/errors.ts';
import { recordIdOf } from '#platform/schemas.ts';
import { SNIFF_BYTES, sniff } from '#platform/imagery/sniff.ts';
import {
  CAPTION_MAX,
  CLIENT_UID_MAX,
  FILENAME_MAX,
  STAGES,
  TITLE_MAX,
  VISIBILITIES,
  type PhotoFields,
  type Stage,
  type Visibility,
} from './schemas.ts';
import { invalidPhoto, photoTooLarge, storeUpload, type StoredUpload } from './service.ts';

export const FILE_FIELD = 'photo';
const TEXT_FIELDS = new Set([
  'url',
  'filename',
  'caption',
  'title',
  'stage',
  'visibility',
  'include_in_report',
  'latitude',
  'longitude',
  'compass_heading',
  'taken_at',
  'tag_ids',
  'tag_ids[]',
  'client_uid',
  'daily_report_id',
]);

export const onePhoto = () =>
  badRequest('One photo per request', { code: 'invalid_request', message: 'Send one file part named photo' });
export const noPhoto = () =>
  badRequest('No photo provided', { code: 'invalid_request', message: 'Send a file part named photo, or a url' });
export const fileAndUrl = () => badRequest('Send a file or a url, not both', { code: 'invalid_request' });

/** The first bytes of a stream, and the whole stream again (those bytes first). */
export async function peek(stream: Readable, want: number): Promise<{ head: Buffer; body: Readable }> {
  const it = stream[Symbol.asyncIterator]();
  const seen: Buffer[] = [];
  let length = 0;
  let done = false;
  while (length < want) {
    const next = await it.next();
    if (next.done) {
      done = true;
      break;
    }
    seen.push(next.value as Buffer);
    length += (next.value as Buffer).length;
  }
  const head = Buffer.concat(seen);
  async function* replay() {
    if (head.length > 0) yield head;
    if (done) return;
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      yield next.value as Buffer;
    }
  }
  return { head, body: Readable.from(replay(), { objectMode: false }) };
}

/** The multipart plugin's own refusals, in this API's words (the files upload words its own too large). */
export function multipartError(
  err: unknown,
  tooMany: () => unknown,
  tooLarge: () => unknown = () => photoTooLarge(true),
): unknown {
  const code = (err as { code?: string } | null)?.code;
  if (code === 'FST_FILES_LIMIT') return tooMany();
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return badRequest('Too many form fields', { code: 'invalid_request' });
  if (
    code === 'FST_PROTO_VIOLATION' ||
    code === 'FST_MP_PREMATURE_CLOSE' ||
    code === 'FST_INVALID_MULTIPART_CONTENT_TYPE'
  )
    return badRequest('Invalid multipart body', { code: 'invalid_request' });
  if (err instanceof Error && /Unexpected end of form|Malformed part header|boundary/i.test(err.message))
    return badRequest('Invalid multipart body', { code: 'invalid_request' });
  return err;
}

function text(field: string, value: string, max: number): string {
  if (value.length > max) throw invalidField(field, `${field} must be at most ${max} characters`);
  return value;
}

function number(field: string, value: string, min: number, max: number): number {
  const n = value.trim() === '' ? NaN : Number(value);
  if (!Number.isFinite(n)) throw invalidField(field, `${field} must be a number`);
  if (n < min || n > max) throw invalidField(field, `${field} must be between ${min} and ${max}`);
  return n;
}

/** tag_ids as a JSON array, a comma list or one id; repeated fields add up. */
export function tagIdsOf(values: string[]): number[] {
  const ids: number[] = [];
  for (const raw of values) {
    const value = raw.trim();
    let items: unknown[];
    if (value.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(value);
        if (!Array.isArray(parsed)) throw new Error('not an array');
        items = parsed;
      } catch {
        throw invalidField('tag_ids', 'tag_ids must be a JSON array of ids, a comma list or repeated fields');
      }
    } else items = value === '' ? [] : value.split(',').map((s) => s.trim());
    for (const item of items) {
      const id = recordIdOf(typeof item === 'string' && /^\d+$/.test(item) ? Number(item) : item);
      if (id === null) throw invalidField('tag_ids', 'tag_ids must hold photo tag ids');
      ids.push(id);
    }
  }
  if (ids.length > 100) throw invalidField('tag_ids', 'tag_ids must have at most 100 items');
  return ids;
}

/**
 * The text fields of a multipart form, for the uploads' field readers (photos, files): refuses
 * fields the form does not take (400 naming them) and answers a field's one value (400 when it
 * came twice), or undefined when it was not sent.
 */
export function formFieldReader(
  raw: Map<string, string[]>,
  allowed: ReadonlySet<string>,
): (name: string) => string | undefined {
  const unknown = [...raw.keys()].filter((k) => !allowed.has(k));
  if (unknown.length > 0) throw unknownFields(unknown);
  return (name) => {
    const values = raw.get(name);
    if (!values) return undefined;
    if (values.length > 1) throw invalidField(name, `${name} may be sent once`);
    return values[0];
  };
}

/** A form's yes-or-no field: true, false, 1 or 0 in any case (400 naming the field otherwise). */
export function formBoolean(name: string, value: string): boolean {
  const v = value.trim().toLowerCase();
  if (!['true', 'false', '1', '0'].includes(v)) throw invalidField(name, `${name} must be true or false`);
  return v === 'true' || v === '1';
}

/** The text fields, checked and typed (stage, visibility and the rest as in the JSON form). */
export function fieldsOf(raw: Map<string, string[]>): { fields: PhotoFields; url: string | undefined } {
  const one = formFieldReader(raw, TEXT_FIELDS);
  const fields: PhotoFields = {};
  const filename = one('filename');
  if (filename !== undefined) fields.filename = text('filename', filename, FILENAME_MAX);
  const caption = one('caption');
  if (caption !== undefined) fields.caption = text('caption', caption, CAPTION_MAX);
  const title = one('title');
  if (title !== undefined) fields.title = text('title', title, TITLE_MAX);
  const stage = one('stage');
  if (stage !== undefined) {
    if (!(STAGES as readonly string[]).includes(stage))
      throw invalidField('stage', `stage must be one of ${STAGES.join(', ')}`);
    fields.stage = stage as Stage;
  }
  const visibility = one('visibility');
  if (visibility !== undefined) {
    if (!(VISIBILITIES as readonly string[]).includes(visibility))
      throw invalidField('visibility', `visibility must be one of ${VISIBILITIES.join(', ')}`);
    fields.visibility = visibility as Visibility;
  }
  const include = one('include_in_report');
  if (include !== undefined) fields.include_in_report = formBoolean('include_in_report', include);
  const lat = one('latitude');
  if (lat !== undefined) fields.latitude = number('latitude', lat, -90, 90);
  const lng = one('longitude');
  if (lng !== undefined) fields.longitude = number('longitude', lng, -180, 180);
  const heading = one('compass_heading');
  if (heading !== undefined) fields.compass_heading = number('compass_heading', heading, -1e6, 1e6);
  const takenAt = one('taken_at');
  if (takenAt !== undefined) fields.taken_at = text('taken_at', takenAt, 64);
  const tags = [...(raw.get('tag_ids') ?? []), ...(raw.get('tag_ids[]') ?? [])];
  if (raw.has('tag_ids') || raw.has('tag_ids[]')) fields.tag_ids = tagIdsOf(tags);
  const uid = one('client_uid');
  if (uid !== undefined) {
    if (uid.length === 0) throw invalidField('client_uid', 'client_uid cannot be empty');
    fields.client_uid = text('client_uid', uid, CLIENT_UID_MAX);
  }
  const report = one('daily_report_id');
  if (report !== undefined) {
    const id = recordIdOf(/^\d+$/.test(report.trim()) ? Number(report.trim()) : report);
    if (id === null) throw invalidField('daily_report_id', 'daily_report_id must be a daily report id');
    fields.daily_report_id = id;
  }
  const url = one('url');
  return { fields, url };
}

export interface MultipartUpload {
  fields: PhotoFields;
  url: string | undefined;
  /** The (first) file, already in storage; undefined when none was sent. */
  stored: StoredUpload | undefined;
  /** Every file, in the order sent (one at most unless maxFiles allows more). */
  files: StoredUpload[];
}

export interface MultipartOptions {
  /** How many file parts named photo the form may hold (1 unless said). */
  maxFiles?: number;
  /** The refusal of one file too many (One photo per request unless said). */
  tooMany?: () => unknown;
}

/**
 * Reads the whole form. Each file is stored as it streams in; whatever fails afterwards (a file
 * too many, a bad field) deletes them again before the error goes out.
 */
export async function readMultipart(
  ctx: ServiceContext,
  request: FastifyRequest,
  options: MultipartOptions = {},
): Promise<MultipartUpload> {
  const maxFiles = options.maxFiles ?? 1;
  const tooMany = options.tooMany ?? onePhoto;
  const raw = new Map<string, string[]>();
  const files: StoredUpload[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== FILE_FIELD) {
          part.file.resume();
          throw unknownFields([part.fieldname]);
        }
        if (files.length >= maxFiles) {
          part.file.resume();
          throw tooMany();
        }
        const { head, body } = await peek(part.file, SNIFF_BYTES);
        const sniffed = sniff(head);
        if (!sniffed) {
          body.resume();
          if (head.length === 0) throw noPhoto();
          throw invalidPhoto();
        }
        const stored = await storeUpload(ctx, body, sniffed);
        files.push(stored);
        if (part.file.truncated) throw photoTooLarge(sniffed.kind === 'video');
      } else {
        const list = raw.get(part.fieldname) ?? [];
        list.push(String(part.value));
        raw.set(part.fieldname, list);
      }
    }
    return { ...fieldsOf(raw), stored: files[0], files };
  } catch (err) {
    await Promise.all(files.map((f) => ctx.deps.storage.delete(f.key).catch(() => undefined)));
    throw multipartError(err, tooMany);
  }
}

/** What a photo upload sent: JSON (validated against UrlUploadBody), or the form, read on demand. */
export type SentPhotos = { kind: 'json'; body: unknown } | { kind: 'form'; read: () => Promise<MultipartUpload> };

export const uploadWithMultipart = () =>
  badRequest('Upload with multipart/form-data', {
    code: 'invalid_request',
    message: 'Send the photo as multipart/form-data (field photo), or JSON with a url',
  });

/**
 * For routes: which of the two the request sent. The form is read only when the service asks (after
 * it has checked the owner: 404 before a byte is stored); any other body is the spec's 400.
 */
export function sentPhotos(ctx: ServiceContext, request: FastifyRequest, options: MultipartOptions = {}): SentPhotos {
  if (request.isMultipart()) return { kind: 'form', read: () => readMultipart(ctx, request, options) };
  const type = String(request.headers['content-type'] ?? '');
  if (!/^application\/json\b/i.test(type) || request.body == null) throw uploadWithMultipart();
  return { kind: 'json', body: request.body };
}
