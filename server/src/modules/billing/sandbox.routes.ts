import { createHash } from 'node:crypto';
import { cardExpired, formatMoney, paymentMethodSchema, sandboxCardSchema, sandboxPaidSchema } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../http/auth.ts';
import { AppError, notFound } from '../../shared/errors.ts';
import type { BillingService } from './billing.service.ts';
import type { SandboxProvider } from './providers/sandbox.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const STYLE = `
body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;padding:2rem 1rem;color:#1b1f24}
main{max-width:420px;margin:0 auto;background:#fff;border-radius:12px;padding:1.5rem;box-shadow:0 2px 12px #0002}
h1{font-size:1.2rem;margin:0 0 .25rem}.amount{font-size:1.8rem;font-weight:700;margin:.5rem 0 1rem}
label{display:block;font-size:.85rem;margin:.75rem 0 .25rem}input{width:100%;box-sizing:border-box;padding:.6rem;border:1px solid #bbb;border-radius:8px;font-size:1rem}
.row{display:flex;gap:.75rem}.row>div{flex:1}button{margin-top:1.25rem;width:100%;padding:.75rem;border:0;border-radius:8px;background:#1b1f24;color:#fff;font-size:1rem;cursor:pointer}
.error{background:#fde8e8;color:#9b1c1c;padding:.6rem;border-radius:8px;margin-top:1rem}.note{font-size:.8rem;color:#555;margin-top:1rem}
.badge{display:inline-block;background:#fff3c4;color:#7a5a00;border-radius:6px;padding:.1rem .5rem;font-size:.75rem;font-weight:600}
a{color:#1b1f24}
`;

/**
 * The sandbox's pages run no script and load nothing; their one stylesheet is allowed by its hash. Above all no
 * other site may frame the card form (clickjacking). The form posts here and the payment redirects to the portal.
 */
function pagePolicy(publicUrl: string): string {
  const style = createHash('sha256').update(STYLE).digest('base64');
  const portal = new URL(publicUrl).origin;
  return `default-src 'none'; style-src 'sha256-${style}'; form-action 'self' ${portal}; frame-ancestors 'none'; base-uri 'none'`;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

/** The sandbox's ids (`cs_sbx_…`, `in_sbx_…`, see providers/sandbox.ts); anything else names nothing: 404. */
const paramsSchema = z.object({ id: z.string().regex(/^[a-z]+_sbx_[0-9a-f]{24}$/) });

/** A refused card in the portal's own card form: what the sandbox said, as Stripe.js reports a refusal. */
function cardRefused(result: { code: 'card_declined' | 'invalid_card' | 'not_open'; message: string }): AppError {
  if (result.code === 'card_declined') return new AppError(402, 'card_declined', result.message, 'card');
  if (result.code === 'invalid_card') return new AppError(400, 'invalid_card', result.message, 'card');
  return new AppError(409, 'not_open', result.message);
}

/** A card past its expiry month is refused before anything is charged or saved, as Stripe refuses it. */
function refuseExpired(expiry: string): void {
  if (cardExpired(expiry, new Date())) {
    throw new AppError(
      400,
      'card_expired',
      'This card has expired. Use a card with an expiry date in the future.',
      'expiry',
    );
  }
}

/**
 * The sandbox provider's hosted pages: its checkout page (a card form; 4242 4242 4242 4242 pays,
 * 4000 0000 0000 0002 is declined) and its simple invoices. A successful payment is handed to the billing
 * service as a provider event, the same path a verified Stripe webhook takes.
 */
export function sandboxRoutes(
  service: BillingService,
  sandbox: SandboxProvider,
  publicUrl: string,
): FastifyPluginAsyncZod {
  const policy = pagePolicy(publicUrl);
  return async (app) => {
    app.addHook('onSend', async (_request, reply, payload) => {
      reply.header('content-security-policy', policy);
      return payload;
    });
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16 * 1024 },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    const render = async (id: string, error?: string) => {
      const s = await sandbox.checkoutPage(id);
      if (!s) return undefined;
      const price = formatMoney(s.amount, s.currency);
      const per = s.interval ? ` / ${s.interval.toLowerCase().replace('ly', '')}` : '';
      if (s.status !== 'open') {
        return page(
          'Checkout',
          `<h1>${escapeHtml(s.productName)}</h1><p>This checkout session is ${escapeHtml(s.status)}.</p>
<p><a href="${escapeHtml(s.successUrl)}">Back to the portal</a></p>`,
        );
      }
      return page(
        'Sandbox checkout',
        `<span class="badge">SANDBOX · no real payment</span>
<h1>${escapeHtml(s.productName)}</h1><div class="amount" data-testid="amount">${escapeHtml(price)}${escapeHtml(per)}</div>
<form method="post" action="/api/sandbox/checkout/${escapeHtml(s.id)}">
<label for="email">E-mail</label><input id="email" name="email" type="email" value="${escapeHtml(s.email ?? '')}" readonly>
<label for="card">Card number</label><input id="card" name="card" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" required>
<div class="row"><div><label for="expiry">Expiry</label><input id="expiry" name="expiry" placeholder="12/34" value="12/34"></div>
<div><label for="cvc">CVC</label><input id="cvc" name="cvc" placeholder="123" value="123"></div></div>
${error ? `<div class="error" role="alert" data-testid="error">${escapeHtml(error)}</div>` : ''}
<button type="submit" id="pay">Pay ${escapeHtml(price)}</button>
</form>
<p class="note">Test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined.</p>
<p><a href="${escapeHtml(s.cancelUrl)}" id="cancel">Cancel and return</a></p>`,
      );
    };

    app.get('/sandbox/checkout/:id', { schema: { hide: true, params: paramsSchema } }, async (request, reply) => {
      const html = await render(request.params.id);
      if (!html) return reply.status(404).type('text/html').send(page('Not found', '<h1>Checkout not found</h1>'));
      return reply.type('text/html').header('cache-control', 'no-store').send(html);
    });

    app.post(
      '/sandbox/checkout/:id',
      { schema: { hide: true, params: paramsSchema, body: z.object({ card: z.string().max(40) }).passthrough() } },
      async (request, reply) => {
        const result = await sandbox.pay(request.params.id, request.body.card);
        if (!result.ok) {
          const html = await render(request.params.id, result.message);
          if (!html) return reply.status(404).type('text/html').send(page('Not found', '<h1>Checkout not found</h1>'));
          return reply.status(402).type('text/html').send(html);
        }
        await service.handleEvent(result.event);
        return reply.redirect(result.successUrl, 303);
      },
    );

    // The portal's own card form (docs/adr/0031): the same session paid with its client secret, as Stripe's embedded
    // checkout pays one, by the signed-in buyer only.
    app.post(
      '/sandbox/checkout/pay',
      {
        config: { auth: 'user' },
        schema: { tags: ['billing'], hide: true, body: sandboxCardSchema, response: { 200: sandboxPaidSchema } },
      },
      async (request) => {
        const actor = actorOf(request);
        const session = await sandbox.checkoutBySecret(request.body.clientSecret);
        if (session?.userId !== actor.userId) throw notFound('Checkout session');
        refuseExpired(request.body.expiry);
        const result = await sandbox.pay(session.id, request.body.card);
        if (!result.ok) throw cardRefused(result);
        await service.handleEvent(result.event);
        return { checkoutSessionId: session.checkoutSessionId };
      },
    );

    // Saving a card on the SetupIntent of `GET /getCustomerSecret`, as Stripe's confirmSetup does.
    app.post(
      '/sandbox/setup-intents/confirm',
      {
        config: { auth: 'user' },
        schema: { tags: ['billing'], hide: true, body: sandboxCardSchema, response: { 201: paymentMethodSchema } },
      },
      async (request, reply) => {
        const intent = await sandbox.setupIntentBySecret(request.body.clientSecret);
        const customerId = await service.customerIdOf(actorOf(request));
        if (!intent || intent.customerId !== customerId) throw notFound('Card form');
        refuseExpired(request.body.expiry);
        const result = await sandbox.confirmSetup(request.body.clientSecret, request.body.card, request.body.expiry);
        if (!result.ok) throw cardRefused(result);
        return reply.status(201).send(result.card);
      },
    );

    app.get(
      '/sandbox/invoices/:id',
      { schema: { hide: true, params: paramsSchema, querystring: z.object({ key: z.string().max(64) }) } },
      async (request, reply) => {
        const inv = await sandbox.invoice(request.params.id, request.query.key);
        if (!inv) return reply.status(404).type('text/html').send(page('Not found', '<h1>Invoice not found</h1>'));
        return reply.type('text/html').send(
          page(
            `Invoice ${inv.number}`,
            `<span class="badge">SANDBOX</span><h1>Invoice ${escapeHtml(inv.number)}</h1>
<p>Date: ${escapeHtml(inv.createdAt.slice(0, 10))}<br>Billed to: ${escapeHtml(inv.customerEmail ?? '')}</p>
<p>${escapeHtml(inv.description)}</p><div class="amount">${escapeHtml(formatMoney(inv.amount, inv.currency))}</div>
<p>Status: ${escapeHtml(inv.status)}</p>`,
          ),
        );
      },
    );
  };
}
