// Images on customer pages are short-lived signed links (GUIDE "Customer pages"): a page is never
// cached (respond.ts), so a link only has to outlive the visit; a copied image URL stops working
// soon after, and the page itself, opened again, signs fresh ones.
import type { Storage } from '#platform/storage/storage.ts';

export const PAGE_IMAGE_SECONDS = 15 * 60;

/** A keyless link to a stored image, shown inline, valid for PAGE_IMAGE_SECONDS. */
export async function pageImageUrl(
  storage: Storage,
  key: string,
  origin: string,
  contentType: string,
): Promise<string> {
  const link = await storage.signedUrl(
    key,
    { expiresInSeconds: PAGE_IMAGE_SECONDS, disposition: 'inline', contentType },
    origin,
  );
  return link.url;
}
