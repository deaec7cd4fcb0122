import Stripe from 'stripe';

/** One request as Stripe's API received it. */
export interface StripeRequest {
  method: string;
  path: string;
  /** The query string as sent (`?…`, percent-decoded), empty without one. */
  query: string;
  /** The form body as sent, percent-decoded. */
  body: string;
  /** The form body read back into the nested object the SDK encoded. */
  params: Record<string, unknown>;
  idempotencyKey: string | null;
}

/** An error answer as Stripe sends it, with its HTTP status. */
export class StripeFailure {
  constructor(
    readonly status: number,
    readonly body: object,
  ) {}
}

/** What a route answers: the object Stripe would send, or a failure. */
export type StripeAnswer = object | StripeFailure;
export type StripeRoute = (request: StripeRequest, id: string) => StripeAnswer | undefined;

const noSuchResource = (path: string) =>
  new StripeFailure(404, {
    error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such resource: '${path}'` },
  });

/**
 * Stripe's form encoding (`line_items[0][price]=…`) read back into objects and arrays, so a test compares what the
 * SDK put on the wire with the parameters it expects.
 */
export function decodeStripeForm(encoded: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(encoded)) {
    const [head = '', ...rest] = key.split('[').map((part) => part.replace(/]$/, ''));
    const path = [head, ...rest];
    let node: Record<string, unknown> | unknown[] = root;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const container = node as Record<string, unknown>;
      const slot = part === '' && Array.isArray(node) ? String(node.length) : part;
      if (last) {
        container[slot] = value;
        return;
      }
      container[slot] ??= /^\d*$/.test(path[i + 1] ?? '') ? [] : {};
      node = container[slot] as Record<string, unknown> | unknown[];
    });
  }
  return root;
}

/**
 * The real Stripe SDK whose HTTP client is the SDK's own fetch client over a stub of Stripe's API: what the SDK
 * sends (paths, form bodies, idempotency keys) is recorded, and its responses are parsed by the SDK as Stripe's are.
 * Routes are keyed `METHOD /v1/path`, with `:id` standing for the last path segment; a request no route answers
 * gets Stripe's 404 and is listed in `unanswered`.
 */
export function stripeOverStub(routes: Record<string, StripeRoute | StripeAnswer>) {
  const requests: StripeRequest[] = [];
  const unanswered: string[] = [];
  const failures: { route: string; failure: StripeFailure }[] = [];
  const fetchStub = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    const request: StripeRequest = {
      method,
      path: url.pathname,
      query: decodeURIComponent(url.search),
      body: decodeURIComponent(String(init?.body ?? '')),
      params: decodeStripeForm(String(init?.body ?? '')),
      idempotencyKey: method === 'POST' ? new Headers(init?.headers).get('idempotency-key') : null,
    };
    requests.push(request);
    const segments = url.pathname.split('/');
    const id = decodeURIComponent(segments.at(-1) ?? '');
    const byId = `${method} ${segments.slice(0, -1).join('/')}/:id`;
    const exact = `${method} ${url.pathname}`;
    const key = exact in routes ? exact : byId in routes ? byId : undefined;
    const planned = failures.findIndex((f) => f.route === exact || f.route === byId);
    let answer: StripeAnswer | undefined;
    if (planned >= 0) answer = failures.splice(planned, 1)[0]?.failure;
    else if (key) {
      const route = routes[key];
      answer = typeof route === 'function' ? route(request, id) : route;
    }
    if (answer === undefined) {
      unanswered.push(exact);
      answer = noSuchResource(url.pathname);
    }
    const failure = answer instanceof StripeFailure ? answer : undefined;
    return new Response(JSON.stringify(failure ? failure.body : answer), {
      status: failure ? failure.status : 200,
      headers: { 'content-type': 'application/json', 'request-id': `req_${requests.length}` },
    });
  };
  const stripe = new Stripe('sk_test_fake_key_for_tests', {
    httpClient: Stripe.createFetchHttpClient(fetchStub as typeof fetch),
    maxNetworkRetries: 0,
  });
  return {
    stripe,
    requests,
    unanswered,
    /** The next request on `route` (`METHOD /v1/path`, `:id` allowed) gets `failure` instead of its answer. */
    failNext(route: string, failure: StripeFailure) {
      failures.push({ route, failure });
    },
    /** The requests sent to `METHOD /v1/path`. */
    sent(route: string) {
      return requests.filter((r) => `${r.method} ${r.path}` === route);
    },
  };
}

/**
 * Stripe as the portal's checkout and webhook flows use it: products, prices, customers and embedded Checkout
 * Sessions are created with fresh ids; sessions, subscriptions and invoices answer what the test says Stripe
 * holds; updating or deleting a subscription changes it as Stripe would.
 */
export function fakeStripeApi() {
  const state = {
    sessions: new Map<string, Record<string, unknown>>(),
    subscriptions: new Map<string, Record<string, unknown>>(),
    invoices: new Map<string, Record<string, unknown>>(),
    /** Stripe's id of the last Checkout Session created (the buy answer names only the portal's checkout page). */
    lastSession: '',
  };
  let counter = 0;
  const held = (map: Map<string, Record<string, unknown>>, path: string) => (_: StripeRequest, id: string) =>
    map.get(id) ?? noSuchResource(`${path}/${id}`);
  const api = stripeOverStub({
    'POST /v1/products': () => ({ id: `prod_${++counter}`, object: 'product' }),
    'POST /v1/prices': () => ({ id: `price_${++counter}`, object: 'price' }),
    'POST /v1/prices/:id': (request, id) => ({ id, object: 'price', active: request.params.active !== 'false' }),
    'POST /v1/customers': () => ({ id: `cus_${++counter}`, object: 'customer' }),
    'POST /v1/checkout/sessions': (request) => {
      const id = `cs_test_${++counter}`;
      state.lastSession = id;
      return {
        id,
        object: 'checkout.session',
        url: null,
        ui_mode: request.params.ui_mode,
        client_secret: `${id}_secret`,
      };
    },
    'GET /v1/checkout/sessions/:id': held(state.sessions, '/v1/checkout/sessions'),
    'GET /v1/subscriptions/:id': held(state.subscriptions, '/v1/subscriptions'),
    'POST /v1/subscriptions/:id': (request, id) => {
      const current = state.subscriptions.get(id);
      if (!current) return noSuchResource(`/v1/subscriptions/${id}`);
      const next = { ...current, cancel_at_period_end: request.params.cancel_at_period_end === 'true' };
      state.subscriptions.set(id, next);
      return next;
    },
    'DELETE /v1/subscriptions/:id': (_, id) => {
      const current = state.subscriptions.get(id);
      if (!current) return noSuchResource(`/v1/subscriptions/${id}`);
      const next = { ...current, status: 'canceled' };
      state.subscriptions.set(id, next);
      return next;
    },
    'GET /v1/invoices/:id': held(state.invoices, '/v1/invoices'),
    'POST /v1/setup_intents': () => ({ id: 'seti_123', object: 'setup_intent', client_secret: 'seti_123_secret_456' }),
  });
  return { ...api, state };
}
