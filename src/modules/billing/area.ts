// The billing area (document 3, Invoices and payments; Change orders): check invoices the office
// makes, sends and moves through draft, sent, paid and void; online invoices requested from a
// proposal and paid through the payment processor (online-payments/); the payments they record; and
// change orders with their stages, customer link and what their approval posts to the job. A job
// merge carries the invoices and change orders; a site merge asks before moving invoiced jobs
// (invoicedJobCounter).
import type { Area } from '#src/area.ts';
import { jobContractMergeMover } from './change-orders/contract.ts';
import { changeOrdersDataset } from './change-orders/export.ts';
import { changeOrderJobMergeMover } from './change-orders/merge-movers.ts';
import { changeOrderRoutes } from './change-orders/routes.ts';
import { invoicesDataset } from './invoices/export.ts';
import { invoiceJobMergeMover } from './invoices/merge-movers.ts';
import { countInvoicedJobsOfSite } from './invoices/repo.ts';
import { invoiceRoutes } from './invoices/routes.ts';
import { onlinePaymentRoutes } from './online-payments/routes.ts';
import { paymentRoutes } from './payments/routes.ts';

import { invoicePage } from './invoices/page.ts';
import { changeOrderPage } from './change-orders/page.ts';
export const billingArea: Area = {
  name: 'billing',
  routes: [invoiceRoutes, paymentRoutes, onlinePaymentRoutes, changeOrderRoutes],
  pages: [invoicePage, changeOrderPage],
  mergeMovers: { job: [invoiceJobMergeMover, changeOrderJobMergeMover, jobContractMergeMover] },
  exportDatasets: [invoicesDataset, changeOrdersDataset],
  invoicedJobCounter: countInvoicedJobsOfSite,
};
