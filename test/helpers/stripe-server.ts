// A real HTTP server on loopback speaking the part of Stripe's API the payments adapter uses,
// written from Stripe's public API reference (not from the stripe package, so the adapter is
// checked against the wire format and not against the SDK's idea of it):
//
// - POST /v1/checkout/sessions and GET /v1/checkout/sessions/{id}, form-encoded bodies with bracket
//   notation (`line_items[0][price_data][unit_amount]=1000`), JSON answers;
// - `Authorization: Bearer sk_…` (or Basic with the key as user name), `Stripe-Account` (sessions
//   live in the account that made them), `Idempotency-Key` (the first answer replayed for the same
//   key and parameters, `idempotency_error` for other parameters);
// - errors as `{error: {type, message, code?, param?}}` with Stripe's statuses.
//
// Webhooks go the other way: signedEvent builds an event and its Stripe-Signature header with
// node:crypto, for the test to hand to the adapter's readWebhook.
import { createHmac, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type Form = { [key: string]: FormValue };

export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-cased names, as node gives them. */
  headers: Record<string, string | undefined>;
  rawBody: string;
  /** The body with its bracket notation nested (arrays for consecutive [0], [1] …). */
  form: Form;
  /** The status answered. */
  status: number;
}

export interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  amount_subtotal: number;
  amount_total: number;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer: string | null;
  customer_details: { email: string | null } | null;
  customer_email: string | null;
  expires_at: number;
  livemode: false;
  metadata: Record<string, string>;
  mode: 'payment' | 'setup' | 'subscription';
  payment_intent: string | null;
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  status: 'open' | 'complete' | 'expired';
  success_url: string | null;
  url: string | null;
}

export interface StripeFailure {
  status: number;
  type?: string;
  message?: string;
  code?: string;
  /** Sent as Stripe-Should-Retry when given (the SDK obeys it). */
  shouldRetry?: boolean;
}

export interface StripeServer {
  /** `http://127.0.0.1:<port>`: the adapter's apiUrl. */
  url: string;
  secretKey: string;
  requests: RecordedRequest[];
  /** Sessions by id, as the API would answer them. */
  sessions: Map<string, CheckoutSession>;
  /**
   * The next `times` API calls answer this failure instead (before the endpoint runs, like a load
   * balancer or the rate limiter: nothing is saved under their idempotency key, so a retry with the
   * same key is served normally).
   */
  failNext(failure: StripeFailure, times?: number): void;
  /** The customer paid (or, for a bank debit, finished and is still `unpaid`): the session as the event carries it. */
  completeSession(id: string, paymentStatus?: 'paid' | 'unpaid'): CheckoutSession;
  close(): Promise<void>;
}

/** The API version events are written in (the stripe package's pinned version at the time of writing). */
export const EVENT_API_VERSION = '2026-10-28.endive';

const now = () => Math.floor(Date.now() / 1000);
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Stripe-looking ids: a prefix and random base62 (Checkout Session ids are long). */
export function stripeId(prefix: string, length = 24): string {
  return `${prefix}_${Array.from(randomBytes(length), (b) => BASE62[b % 62]).join('')}`;
}

export async function startStripeServer(options: { secretKey?: string } = {}): Promise<StripeServer> {
  const secretKey = options.secretKey ?? `sk_test_${stripeId('gw', 32).slice(3)}`;
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, CheckoutSession>();
  /** Session id -> the Stripe-Account it was made in ('' for the platform's own). */
  const owners = new Map<string, string>();
  /** `<account> <key>` -> the first answer and what it was asked. */
  const idempotent = new Map<string, { fingerprint: string; status: number; body: string }>();
  const failures: StripeFailure[] = [];
  let base = '';

  const server = createServer(async (req, res) => {
    const rawBody = await readBody(req);
    const path = (req.url ?? '/').split('?')[0];
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]),
    );
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      headers,
      rawBody,
      form: {},
      status: 0,
    };
    requests.push(record);
    const answer = (status: number, body: unknown, extra: Record<string, string> = {}) => {
      record.status = status;
      send(res, status, typeof body === 'string' ? body : JSON.stringify(body), extra);
    };

    const failure = failures.shift();
    if (failure) {
      const extra: Record<string, string> =
        failure.shouldRetry === undefined ? {} : { 'Stripe-Should-Retry': String(failure.shouldRetry) };
      return answer(failure.status, errorBody(failure), extra);
    }
    const auth = authenticate(req.headers.authorization, secretKey);
    if (auth) return answer(401, { error: { type: 'invalid_request_error', message: auth } });
    try {
      record.form = parseForm(rawBody);
    } catch (error) {
      return answer(400, invalid((error as Error).message));
    }
    const account = headers['stripe-account'] ?? '';
    if (account && !/^acct_[A-Za-z0-9]+$/.test(account))
      return answer(403, {
        error: {
          type: 'invalid_request_error',
          message: `The provided key does not have access to account '${account}'.`,
        },
      });

    if (record.method === 'POST' && path === '/v1/checkout/sessions') {
      const key = headers['idempotency-key'];
      if (key !== undefined && key.length > 255)
        return answer(400, invalid('Idempotency-Key must be at most 255 characters.'));
      const fingerprint = `${record.method} ${path} ${canonical(record.form)}`;
      const saved = key === undefined ? undefined : idempotent.get(`${account} ${key}`);
      if (saved) {
        if (saved.fingerprint !== fingerprint)
          return answer(400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            },
          });
        return answer(saved.status, saved.body, { 'Idempotent-Replayed': 'true' });
      }
      const made = createSession(record.form, base);
      // A request that fails validation never starts the endpoint, so Stripe saves nothing for it.
      if ('error' in made) return answer(400, made);
      sessions.set(made.id, made);
      owners.set(made.id, account);
      const body = JSON.stringify(made);
      if (key !== undefined) idempotent.set(`${account} ${key}`, { fingerprint, status: 200, body });
      return answer(200, body);
    }
    const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (record.method === 'GET' && retrieve) {
      const id = decodeURIComponent(retrieve[1]);
      const session = sessions.get(id);
      if (!session || owners.get(id) !== account)
        return answer(404, {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            param: 'id',
            message: `No such checkout.session: '${id}'`,
          },
        });
      return answer(200, session);
    }
    return answer(
      404,
      invalid(
        `Unrecognized request URL (${record.method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
      ),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    secretKey,
    requests,
    sessions,
    failNext(failure, times = 1) {
      for (let i = 0; i < times; i++) failures.push(failure);
    },
    completeSession(id, paymentStatus = 'paid') {
      const session = sessions.get(id);
      if (!session) throw new Error(`no session ${id}`);
      Object.assign(session, {
        status: 'complete',
        payment_status: paymentStatus,
        payment_intent: stripeId('pi'),
        customer_details: { email: session.customer_email },
        url: null, // a completed session can no longer be opened
      });
      return structuredClone(session);
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** A Stripe event around `object`, its JSON as sent, and the Stripe-Signature header for it. */
export function signedEvent(
  type: string,
  object: object,
  secret: string,
  options: { timestamp?: number; id?: string; account?: string } = {},
): { event: Record<string, unknown>; payload: string; signature: string } {
  const timestamp = options.timestamp ?? now();
  const event = {
    id: options.id ?? stripeId('evt'),
    object: 'event',
    ...(options.account ? { account: options.account } : {}),
    api_version: EVENT_API_VERSION,
    created: timestamp,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
  const payload = JSON.stringify(event, null, 2);
  return { event, payload, signature: signatureHeader(payload, secret, timestamp) };
}

/**
 * Stripe's webhook signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<payload>">`, keyed
 * with the endpoint's signing secret (the whole `whsec_…` string).
 */
export function signatureHeader(payload: string, secret: string, timestamp = now()): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

// --- The form body -------------------------------------------------------------------------------

/**
 * `a[b][0][c]=x&a[b][1][c]=y` -> {a: {b: [{c: 'x'}, {c: 'y'}]}}. URLSearchParams decodes the
 * pairs; each key is split into its name and bracketed parts and the value placed at that path.
 * Objects whose keys are exactly 0..n-1 become arrays, as Stripe reads indexed lists.
 */
export function parseForm(body: string): Form {
  const root: Form = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!match) throw new Error(`Invalid parameter name: ${key}`);
    const parts = [match[1], ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1])];
    if (parts.includes('')) throw new Error(`Invalid array parameter: ${key} (use indexes: ${match[1]}[0])`);
    let node: Record<string, FormValue> = root;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      if (typeof next === 'string') throw new Error(`Invalid parameter: ${key} (${part} is a value)`);
      if (next === undefined) node[part] = {};
      node = node[part] as Record<string, FormValue>;
    }
    const last = parts[parts.length - 1];
    if (typeof node[last] === 'object') throw new Error(`Invalid parameter: ${key} (it has parts)`);
    node[last] = value;
  }
  return toArrays(root) as Form;
}

function toArrays(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const entries = Object.fromEntries(keys.map((k) => [k, toArrays(value[k])]));
  const indexed = keys.length > 0 && keys.every((k) => /^(0|[1-9][0-9]*)$/.test(k) && Number(k) < keys.length);
  return indexed ? keys.map((_, i) => entries[String(i)]) : entries;
}

/** A form as one string with sorted keys: what "the same parameters" means for an idempotency key. */
function canonical(value: FormValue): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  return `{${Object.keys(value)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
    .join(',')}}`;
}

// --- Checkout Sessions ---------------------------------------------------------------------------

type ErrorBody = { error: { type: string; message: string; code?: string; param?: string } };

const invalid = (message: string, param?: string, code = 'parameter_invalid'): ErrorBody => ({
  error: { type: 'invalid_request_error', message, ...(param ? { code, param } : {}) },
});
const missing = (param: string): ErrorBody => invalid(`Missing required param: ${param}.`, param, 'parameter_missing');

/** The parameters this server knows, by place; any other is refused as Stripe refuses unknown ones. */
const KNOWN: Record<string, string[]> = {
  '': [
    'mode',
    'line_items',
    'success_url',
    'cancel_url',
    'customer_email',
    'client_reference_id',
    'metadata',
    'payment_intent_data',
    'expand',
  ],
  line_items: ['price', 'price_data', 'quantity'],
  price_data: ['currency', 'unit_amount', 'product', 'product_data'],
  product_data: ['name', 'description'],
  payment_intent_data: ['metadata', 'description', 'receipt_email'],
};

function unknownParam(form: Record<string, FormValue>, place: string, prefix: string): ErrorBody | null {
  const extra = Object.keys(form).find((k) => !KNOWN[place].includes(k));
  if (extra === undefined) return null;
  const param = prefix ? `${prefix}[${extra}]` : extra;
  return invalid(`Received unknown parameter: ${param}`, param);
}

const isObject = (v: FormValue | undefined): v is Record<string, FormValue> =>
  typeof v === 'object' && !Array.isArray(v);
const isUrl = (v: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
};

function checkMetadata(value: FormValue | undefined, param: string): ErrorBody | Record<string, string> {
  if (value === undefined || value === '') return {};
  if (!isObject(value)) return invalid(`Invalid object`, param);
  const entries = Object.entries(value);
  if (entries.length > 50) return invalid('Metadata can have at most 50 keys.', param);
  for (const [k, v] of entries) {
    if (typeof v !== 'string') return invalid('Metadata values must be strings.', `${param}[${k}]`);
    if (k.length > 40) return invalid('Metadata keys can be at most 40 characters.', `${param}[${k}]`);
    if (v.length > 500) return invalid('Metadata values can be at most 500 characters.', `${param}[${k}]`);
  }
  return value as Record<string, string>;
}

const nonNegativeInt = (v: FormValue | undefined) => typeof v === 'string' && /^(0|[1-9][0-9]*)$/.test(v);

/** Validates a create call as Stripe does for the parameters used here, and makes the session. */
function createSession(form: Form, base: string): CheckoutSession | ErrorBody {
  const top = unknownParam(form, '', '');
  if (top) return top;
  const mode = form.mode;
  if (mode === undefined) return missing('mode');
  if (mode !== 'payment' && mode !== 'setup' && mode !== 'subscription')
    return invalid(`Invalid mode: must be one of payment, setup, or subscription`, 'mode');
  for (const param of ['success_url', 'cancel_url'] as const) {
    const url = form[param];
    if (url !== undefined && (typeof url !== 'string' || !isUrl(url))) return invalid('Not a valid URL', param);
  }
  if (mode !== 'payment') return invalid('This test server makes payment mode sessions only.', 'mode');
  const items = form.line_items;
  if (items === undefined) return invalid('You must provide line_items when using payment mode.', 'line_items');
  if (!Array.isArray(items) || items.length === 0) return invalid('Invalid array', 'line_items');
  let total = 0;
  let currency: string | null = null;
  for (const [i, item] of items.entries()) {
    const at = `line_items[${i}]`;
    if (!isObject(item)) return invalid('Invalid object', at);
    const unknown = unknownParam(item, 'line_items', at);
    if (unknown) return unknown;
    if (item.price !== undefined) return invalid('This test server takes price_data only.', `${at}[price]`);
    const data = item.price_data;
    if (data === undefined) return missing(`${at}[price_data]`);
    if (!isObject(data)) return invalid('Invalid object', `${at}[price_data]`);
    const unknownData = unknownParam(data, 'price_data', `${at}[price_data]`);
    if (unknownData) return unknownData;
    if (data.currency === undefined) return missing(`${at}[price_data][currency]`);
    if (typeof data.currency !== 'string' || !/^[a-z]{3}$/i.test(data.currency))
      return invalid(`Invalid currency: ${String(data.currency)}`, `${at}[price_data][currency]`);
    const itemCurrency = data.currency.toLowerCase();
    if (currency !== null && currency !== itemCurrency)
      return invalid('All line items must have the same currency.', `${at}[price_data][currency]`);
    currency = itemCurrency;
    if (data.unit_amount === undefined) return missing(`${at}[price_data][unit_amount]`);
    if (!nonNegativeInt(data.unit_amount))
      return invalid('Invalid integer: must be a non-negative integer', `${at}[price_data][unit_amount]`);
    const product = data.product_data;
    if (product === undefined && data.product === undefined) return missing(`${at}[price_data][product_data]`);
    if (product !== undefined) {
      if (!isObject(product)) return invalid('Invalid object', `${at}[price_data][product_data]`);
      const unknownProduct = unknownParam(product, 'product_data', `${at}[price_data][product_data]`);
      if (unknownProduct) return unknownProduct;
      if (typeof product.name !== 'string' || product.name === '')
        return missing(`${at}[price_data][product_data][name]`);
    }
    if (item.quantity === undefined) return missing(`${at}[quantity]`);
    if (!nonNegativeInt(item.quantity) || item.quantity === '0')
      return invalid('Invalid integer: must be a positive integer', `${at}[quantity]`);
    total += Number(data.unit_amount) * Number(item.quantity);
  }
  const email = form.customer_email;
  if (email !== undefined && (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)))
    return invalid(`Invalid email address: ${String(email)}`, 'customer_email');
  const reference = form.client_reference_id;
  if (reference !== undefined && (typeof reference !== 'string' || reference.length > 200))
    return invalid('client_reference_id must be at most 200 characters.', 'client_reference_id');
  const metadata = checkMetadata(form.metadata, 'metadata');
  if ('error' in metadata) return metadata as ErrorBody;
  const intent = form.payment_intent_data;
  if (intent !== undefined) {
    if (!isObject(intent)) return invalid('Invalid object', 'payment_intent_data');
    const unknownIntent = unknownParam(intent, 'payment_intent_data', 'payment_intent_data');
    if (unknownIntent) return unknownIntent;
    const intentMetadata = checkMetadata(intent.metadata, 'payment_intent_data[metadata]');
    if ('error' in intentMetadata) return intentMetadata as ErrorBody;
  }

  const id = stripeId('cs_test', 58);
  const created = now();
  return {
    id,
    object: 'checkout.session',
    amount_subtotal: total,
    amount_total: total,
    cancel_url: (form.cancel_url as string | undefined) ?? null,
    client_reference_id: (reference as string | undefined) ?? null,
    created,
    currency: currency as string,
    customer: null,
    customer_details: null,
    customer_email: (email as string | undefined) ?? null,
    expires_at: created + 24 * 3600,
    livemode: false,
    metadata: metadata as Record<string, string>,
    mode: 'payment',
    payment_intent: null,
    payment_status: 'unpaid',
    status: 'open',
    success_url: (form.success_url as string | undefined) ?? null,
    url: `${base}/c/pay/${id}`,
  };
}

// --- HTTP ----------------------------------------------------------------------------------------

/** Stripe's answer to a missing or wrong key (it shows only the key's last four characters). */
function authenticate(header: string | undefined, secretKey: string): string | null {
  if (!header)
    return "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').";
  let key: string | null = null;
  if (header.startsWith('Bearer ')) key = header.slice(7).trim();
  else if (header.startsWith('Basic ')) key = Buffer.from(header.slice(6), 'base64').toString().split(':')[0];
  if (key === secretKey) return null;
  return `Invalid API Key provided: ${key ? `${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}` : ''}`;
}

function errorBody(failure: StripeFailure): ErrorBody {
  const type =
    failure.type ??
    (failure.status === 402
      ? 'card_error'
      : failure.status === 429
        ? 'invalid_request_error'
        : failure.status >= 500
          ? 'api_error'
          : 'invalid_request_error');
  const message =
    failure.message ??
    (failure.status === 429
      ? 'Request rate limit exceeded. Learn more about rate limits here https://stripe.com/docs/rate-limits.'
      : failure.status >= 500
        ? 'An unknown error occurred'
        : 'The request failed.');
  const code = failure.code ?? (failure.status === 429 ? 'rate_limit' : undefined);
  return { error: { type, message, ...(code ? { code } : {}) } };
}

function send(res: ServerResponse, status: number, body: string, extra: Record<string, string>): void {
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'Request-Id': stripeId('req', 14),
    ...extra,
  });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
