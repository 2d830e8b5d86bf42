// The invoice as a PDF (the invoice page's download, GET /share/invoices/<token>/pdf, and GET
// /v1/invoices/{id}/pdf): the same InvoiceDocument the page shows (document.ts), laid out by
// platform/pdf. The creation date is the issue time (the epoch before issue), so the same invoice
// renders the same bytes.
import type { ServiceContext } from '#platform/context.ts';
import { INK, MUTED, type Layout } from '#platform/pdf/layout.ts';
import { writePdf } from '#platform/pdf/write.ts';
import { invoiceDocument, type InvoiceDocument } from './document.ts';
import { invoiceOr404 } from './service.ts';

const ACCENT = '#243b53';
const PAID = '#1a7f37';

function heading(l: Layout, d: InvoiceDocument): void {
  l.flow({ text: d.firmName, face: 'bold', size: 12, color: MUTED });
  l.y += 4;
  l.flow({ text: d.title, face: 'bold', size: 22, color: INK });
  l.y += 2;
  l.flow({ text: d.standing, face: 'bold', size: 12, color: d.paid ? PAID : l.accent });
  l.y += 8;
  l.rule(l.accent, 1.5);
  l.y += 10;
}

function totals(l: Layout, d: InvoiceDocument): void {
  const labelX = l.left + l.width - 260;
  for (const t of d.totals) {
    l.need(16);
    const y = l.y;
    const face = t.strong ? 'bold' : 'regular';
    l.place({ text: t.label, face, size: 10, color: INK }, labelX, y, 140);
    l.place({ text: t.amount, face, size: 10, color: INK }, labelX + 140, y, 120, 'right');
    l.y = y + 16;
  }
}

export function renderInvoicePdf(d: InvoiceDocument, issuedAt: string | null): Promise<Buffer> {
  const issued = issuedAt === null ? new Date(0) : new Date(`${issuedAt.slice(0, 19)}Z`);
  return writePdf(
    {
      title: d.title,
      author: d.firmName,
      subject: d.title,
      creationDate: Number.isNaN(issued.getTime()) ? new Date(0) : issued,
      accent: ACCENT,
      footer: `${d.firmName} · ${d.title}`,
    },
    (l) => {
      heading(l, d);
      l.facts(d.facts);
      l.y += 10;
      l.table(
        [
          { width: l.width - 120, align: 'left' },
          { width: 120, align: 'right' },
        ],
        ['Description', 'Amount'],
        d.lines.map((line) => ({
          band: false,
          cells: [
            { parts: [{ text: line.description, face: 'regular', size: 10, color: INK }], align: 'left' },
            { parts: [{ text: line.amount, face: 'regular', size: 10, color: INK }], align: 'right' },
          ],
        })),
      );
      l.y += 8;
      totals(l, d);
      if (d.remit) {
        l.sectionTitle('Remit to', 40);
        l.flow({
          text: [d.remit.name, d.remit.address].filter(Boolean).join('\n'),
          face: 'regular',
          size: 10,
          color: INK,
        });
        if (d.remit.instructions) {
          l.y += 4;
          l.flow({ text: d.remit.instructions, face: 'regular', size: 10, color: INK });
        }
      } else if (d.online && !d.paid) {
        l.sectionTitle('Pay online', 30);
        l.flow({
          text: 'Pay this invoice by card on its page, from the link in the email it came with.',
          face: 'regular',
          size: 10,
          color: INK,
        });
      }
      if (d.memo) {
        l.sectionTitle('Memo', 30);
        l.flow({ text: d.memo, face: 'regular', size: 10, color: INK });
      }
    },
  );
}

/** GET /v1/invoices/{id}/pdf: the invoice's PDF and its download name. */
export async function invoicePdf(ctx: ServiceContext, id: number): Promise<{ filename: string; body: Buffer }> {
  const invoice = await invoiceOr404(ctx, ctx.database.db, id);
  const d = invoiceDocument(invoice, ctx.auth.firm);
  return { filename: invoiceFilename(invoice), body: await renderInvoicePdf(d, invoice.issued_at) };
}

export const invoiceFilename = (i: { invoice_number: string }) => `invoice-${i.invoice_number}.pdf`;
