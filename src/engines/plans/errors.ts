// The one error the plan engine throws on purpose: the bytes are not a PDF it can read (not a PDF
// at all, cut short, or encrypted with a password we do not have). The API answers it as an
// unreadable PDF (a clear 4xx, and no takeoff credit used).

export type NotReadableReason = 'not_pdf' | 'damaged' | 'encrypted' | 'no_pages';

export class NotReadablePdf extends Error {
  readonly reason: NotReadableReason;
  constructor(reason: NotReadableReason, detail: string) {
    super(`Not a readable PDF (${reason}): ${detail}`);
    this.name = 'NotReadablePdf';
    this.reason = reason;
  }
}
