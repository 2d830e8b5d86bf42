// The built-in test mode (processor.ts): what a server without GROUNDWORK_STRIPE_SECRET_KEY uses.
// The invoice page offers a clearly marked test card form and nothing is charged.
import type { TestModePayments } from './processor.ts';

export const testModePayments: TestModePayments = { name: 'test', testMode: true };
