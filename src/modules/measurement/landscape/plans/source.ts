// A plan takeoff's PDF (document 3: file_url, a public https PDF up to 100 MB, or file_id, a PDF
// already in the job's files). A url is fetched through platform/outbound-fetch.ts (https and
// public addresses only, redirects checked) and read with the 100 MB cap counted as it arrives;
// a file is read from storage. Outside calls only: no transaction is open while either runs.
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { ServiceContext } from '#platform/context.ts';
import { notFound } from '#platform/errors.ts';
import { FetchFailed, fetchPublic } from '#platform/outbound-fetch.ts';
import { ObjectNotFound } from '#platform/storage/errors.ts';
import { couldNotFetchPlan, notReadablePdf, PLAN_MAX_BYTES, planTooLarge } from './errors.ts';

export const planKey = (firmId: number) => `firms/${firmId}/plans/${randomUUID()}.pdf`;
export const sheetKey = (firmId: number, page: number) => `firms/${firmId}/plan-sheets/${randomUUID()}-p${page}.png`;

class TooLarge extends Error {}

/** The stream's bytes, or TooLarge as soon as they pass `max` (the rest is not read). */
async function readCapped(body: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > max) {
      body.destroy();
      throw new TooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, bytes);
}

export async function pdfFromUrl(ctx: ServiceContext, url: string): Promise<Buffer> {
  let fetched: Awaited<ReturnType<typeof fetchPublic>>;
  try {
    fetched = await fetchPublic(url, {
      allowPrivate: ctx.deps.outbound.allowPrivateNetwork,
      userAgent: 'Groundwork/1.0 (plan takeoff)',
    });
  } catch (err) {
    if (err instanceof FetchFailed) throw couldNotFetchPlan(err.message);
    throw err;
  }
  // An announced size over the cap is refused before a byte is read.
  if (fetched.announcedBytes !== null && fetched.announcedBytes > PLAN_MAX_BYTES) {
    fetched.body.destroy();
    throw planTooLarge();
  }
  try {
    return await readCapped(fetched.body, PLAN_MAX_BYTES);
  } catch (err) {
    if (err instanceof TooLarge) throw planTooLarge();
    throw couldNotFetchPlan((err as Error).message || 'The download broke off');
  }
}

/** As the files area answers it (field/files/errors.ts). */
export const fileNotFound = () => notFound('File not found');

/** A file of the job (its own files, not another job's), when it is a PDF. */
export async function pdfFromJobFile(ctx: ServiceContext, jobId: number, fileId: number): Promise<Buffer> {
  const file = await ctx.database.db
    .selectFrom('files')
    .select(['storage_key', 'content_type', 'size_bytes', 'filename'])
    .where('firm_id', '=', ctx.auth.firm.id)
    .where('id', '=', fileId)
    .where('job_id', '=', jobId)
    .executeTakeFirst();
  if (!file) throw fileNotFound();
  if (file.content_type !== 'application/pdf')
    throw notReadablePdf(`${file.filename} is not a PDF (${file.content_type})`);
  if (file.size_bytes > PLAN_MAX_BYTES) throw planTooLarge();
  try {
    return await readCapped(await ctx.deps.storage.get(file.storage_key), PLAN_MAX_BYTES);
  } catch (err) {
    if (err instanceof TooLarge) throw planTooLarge();
    if (err instanceof ObjectNotFound) throw fileNotFound();
    throw err;
  }
}

/** A stored plan's bytes (the worker's read). */
export async function storedPlan(ctx: Pick<ServiceContext, 'deps'>, key: string): Promise<Buffer> {
  return Buffer.concat(await (await ctx.deps.storage.get(key)).toArray());
}
