// GET /v1/landscape-takeoffs/{id}/sheets/{page}/image (document 3: "sheet image"): the sheet as
// stored when the takeoff was made, a PNG at 144 dpi (the frame of the dots' x and y). 400 Page n
// is not in this PDF past the page count; 404 for a page not taken off.
import type { Readable } from 'node:stream';
import type { ServiceContext } from '#platform/context.ts';
import { ObjectNotFound } from '#platform/storage/errors.ts';
import { visibleTakeoff } from '../takeoffs.ts';
import { notAPlanTakeoff, pageNotInPdf, sheetNotFound } from './errors.ts';
import { sheetOf } from './repo.ts';

export async function sheetImage(
  ctx: ServiceContext,
  id: number,
  page: number,
): Promise<{ body: Readable; bytes: number; width: number; height: number }> {
  const t = await visibleTakeoff(ctx, id);
  if (t.type !== 'blueprint') throw notAPlanTakeoff();
  if (page > (t.page_count ?? 0)) throw pageNotInPdf(page, t.page_count ?? 0, 'page');
  const sheet = await sheetOf(ctx.database.db, t.id, page);
  if (!sheet) throw sheetNotFound(page);
  try {
    return {
      body: await ctx.deps.storage.get(sheet.image_key),
      bytes: sheet.image_bytes,
      width: sheet.width,
      height: sheet.height,
    };
  } catch (err) {
    if (err instanceof ObjectNotFound) throw sheetNotFound(page);
    throw err;
  }
}
