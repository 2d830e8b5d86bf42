// Delivery signatures (document 1, Signature): HMAC-SHA256 keyed with the subscription secret
// over `<X-Service-Timestamp>.<raw body>`, sent as `sha256=<lowercase hex>`.
import { createHmac } from 'node:crypto';

export function signatureFor(secret: string, timestamp: number, body: string): string {
  return 'sha256=' + createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}
