// X-Service-Export-Watermark (document 3): one minute before the export started, so a row
// written while the export ran (a transaction that began before the export's first query and
// committed after it) is picked up again by the next pull with updated_after = watermark.
import { storedAt, zWire } from '#platform/time.ts';

export const WATERMARK_LEAD_MS = 60_000;

/** The watermark of an export started at `startedMs` (epoch ms), in the wire form (Z, seconds). */
export function watermarkFor(startedMs: number): string {
  return zWire(storedAt(startedMs - WATERMARK_LEAD_MS));
}
