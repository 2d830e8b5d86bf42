// The billing area's public entry: what other areas, the demo seed and the CLI may use. Everything
// else under src/modules/billing/ is the area's own (test/platform/boundaries.test.ts holds the line).

export { decideChangeOrder, moveToStage } from './change-orders/moves.ts';
export { sendChangeOrder } from './change-orders/send.ts';
export { createChangeOrder } from './change-orders/service.ts';
export { sendInvoice } from './invoices/send.ts';
export { createInvoice, moveInvoice } from './invoices/service.ts';
export { requestPayment } from './online-payments/request.ts';
export { paymentWebhookRoutes } from './online-payments/webhook.ts';
