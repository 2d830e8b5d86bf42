// The billing area (document 3, Invoices and payments): check invoices the office makes, sends and
// moves through draft, sent, paid and void; online invoices requested from a proposal and paid
// through the payment processor (online-payments/); and the payments they record. A job merge carries the
// invoices; a site merge asks before moving invoiced jobs (invoicedJobCounter).
import type { Area } from '#src/area.ts';
import { invoicesDataset } from './invoices/export.ts';
import { invoiceJobMergeMover } from './invoices/merge-movers.ts';
import { countInvoicedJobsOfSite } from './invoices/repo.ts';
import { invoiceRoutes } from './invoices/routes.ts';
import { onlinePaymentRoutes } from './online-payments/routes.ts';
import { paymentRoutes } from './payments/routes.ts';

export const billingArea: Area = {
  name: 'billing',
  routes: [invoiceRoutes, paymentRoutes, onlinePaymentRoutes],
  mergeMovers: { job: [invoiceJobMergeMover] },
  exportDatasets: [invoicesDataset],
  invoicedJobCounter: countInvoicedJobsOfSite,
};
