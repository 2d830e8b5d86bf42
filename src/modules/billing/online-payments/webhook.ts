// POST /payments/stripe/webhook: where Stripe reports what happened to a checkout (docs/api-decisions.md,
// "Online payments"). Keyless, outside /v1 (Stripe holds no API key of ours): the signature over
// the exact bytes received is the credential, so the body is kept raw, never parsed before it is
// verified. A forged or altered body is 400 (Stripe shows it as a failed delivery); a verified event
// is applied once per event id (apply.ts) and answered 200 whatever it changed, so Stripe stops
// retrying; a failure of ours (the database) is a 500, which Stripe retries for up to three days.
import type { FastifyInstance } from 'fastify';
import type { Env } from '#platform/context.ts';
import { WebhookSignatureError } from '#platform/payments/processor.ts';
import { applyPaymentEvent } from './apply.ts';

export const STRIPE_WEBHOOK_PATH = '/payments/stripe/webhook';

/** Stripe's events are a few kilobytes; a Checkout Session with metadata is well under this. */
const BODY_LIMIT = 256 * 1024;

export function paymentWebhookRoutes(app: FastifyInstance, env: Env): void {
  const payments = env.deps.payments;
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(STRIPE_WEBHOOK_PATH, { schema: { hide: true } }, async (request, reply) => {
      if (payments.testMode)
        return reply.status(404).send({ error: 'Not found', message: 'Stripe is not configured on this server' });
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers['stripe-signature'];
      try {
        const event = await payments.readWebhook(raw, typeof signature === 'string' ? signature : undefined);
        if (event === null) return { received: true, applied: false };
        const outcome = await applyPaymentEvent(env.database, env.deps.mail, event);
        if (outcome.result === 'ignored' || outcome.result === 'unknown_invoice')
          request.log.warn({ event: event.eventId, outcome }, 'payment event changed nothing');
        return { received: true, applied: outcome.result === 'applied' };
      } catch (err) {
        if (!(err instanceof WebhookSignatureError)) throw err;
        return reply.status(400).send({ error: 'Invalid signature', message: err.message });
      }
    });
  });
}
