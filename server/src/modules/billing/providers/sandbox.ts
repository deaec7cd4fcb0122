import { randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../../../db/client.ts';
import { addInterval } from '../billing.policy.ts';
import type {
  CheckoutSnapshot,
  CreateCheckoutInput,
  InvoiceSnapshot,
  PaymentProvider,
  ProviderEvent,
  ProviderPaymentMethod,
  SubscriptionSnapshot,
} from './provider.ts';
import { UnknownPaymentMethodError, WebhookSignatureError } from './provider.ts';

/** Test cards of the sandbox (the same numbers Stripe's test mode uses). */
export const SANDBOX_CARD_SUCCESS = '4242424242424242';
export const SANDBOX_CARD_DECLINED = '4000000000000002';
/** The cards the sandbox accepts, by brand; any other number is not a card it knows. */
const SANDBOX_CARDS: Record<string, string> = { [SANDBOX_CARD_SUCCESS]: 'visa', '5555555555554444': 'mastercard' };
const UNKNOWN_CARD_MESSAGE = 'Use the test card 4242 4242 4242 4242 (or 4000 0000 0000 0002 to see a decline).';

interface SandboxCheckout extends CreateCheckoutInput {
  id: string;
  /** What the portal's card form pays with, as Stripe's embedded checkout takes a session's client secret. */
  clientSecret: string;
  status: 'open' | 'complete' | 'expired';
  paid: boolean;
  subscriptionId: string | null;
  paymentId: string | null;
  invoiceId: string | null;
}

interface SandboxSubscription {
  id: string;
  status: SubscriptionSnapshot['status'];
  cancelAtPeriodEnd: boolean;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  priceId: string;
  checkoutSessionId: string;
}

interface SandboxInvoice {
  id: string;
  number: string;
  subscriptionId: string | null;
  checkoutId: string;
  description: string;
  amount: number;
  currency: string;
  customerEmail: string | null;
  status: InvoiceSnapshot['status'];
  createdAt: string;
  /** Unguessable, like a provider's hosted invoice URL. */
  secret: string;
}

interface SandboxRefund {
  id: string;
  /** The sandbox payment (or invoice) id that was refunded. */
  payment: string;
  amount: number;
  reason: string | null;
  createdAt: string;
}

interface SandboxCard {
  id: string;
  customerId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  isDefault: boolean;
  createdAt: string;
}

interface SandboxSetupIntent {
  id: string;
  customerId: string;
  clientSecret: string;
  status: 'requires_payment_method' | 'succeeded';
}

export type SetupResult =
  | { ok: true; card: ProviderPaymentMethod }
  | { ok: false; code: 'card_declined' | 'invalid_card' | 'not_open'; message: string };

export type PayResult =
  | { ok: true; event: ProviderEvent; successUrl: string }
  | { ok: false; code: 'card_declined' | 'invalid_card' | 'not_open'; message: string };

export type SandboxProvider = PaymentProvider & {
  readonly name: 'sandbox';
  checkoutPage(id: string): Promise<SandboxCheckout | undefined>;
  /** The open or closed session a client secret belongs to; undefined for a wrong or unknown secret. */
  checkoutBySecret(clientSecret: string): Promise<SandboxCheckout | undefined>;
  /** The SetupIntent a client secret belongs to. */
  setupIntentBySecret(clientSecret: string): Promise<SandboxSetupIntent | undefined>;
  /** Saves a test card on the SetupIntent's customer, as Stripe's confirmSetup would. */
  confirmSetup(clientSecret: string, card: string, expiry: string): Promise<SetupResult>;
  pay(id: string, card: string): Promise<PayResult>;
  invoice(id: string, secret: string): Promise<SandboxInvoice | undefined>;
};

const asMethod = ({ id, brand, last4, expMonth, expYear, isDefault }: SandboxCard): ProviderPaymentMethod => ({
  id,
  brand,
  last4,
  expMonth,
  expYear,
  isDefault,
});

const newId = (prefix: string) => `${prefix}_sbx_${randomBytes(12).toString('hex')}`;
/** `<object id>_secret_<random>`, the shape of Stripe's client secrets. */
const newSecret = (id: string) => `${id}_secret_${randomBytes(16).toString('hex')}`;
/** Sessions created before the sandbox had client secrets have none, and match nothing. */
function sameSecret(stored: string | undefined, given: string): boolean {
  if (stored === undefined) return false;
  const a = Buffer.from(stored);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * An offline payment provider with its own records (table sandbox_objects), its own checkout page (served by
 * billing.routes) and its own events, which the billing service handles exactly like verified Stripe webhooks.
 */
export function createSandboxProvider(deps: { db: Database; publicUrl: string; clock?: () => Date }): SandboxProvider {
  const { db } = deps;
  const clock = deps.clock ?? (() => new Date());

  /** `forUpdate` holds the row until the transaction ends, so two requests never both act on one open object. */
  async function get<T>(id: string, kind: string, trx = db, forUpdate = false): Promise<T | undefined> {
    const query = trx.selectFrom('sandbox_objects').select('data').where('id', '=', id).where('kind', '=', kind);
    const row = await (forUpdate ? query.forUpdate() : query).executeTakeFirst();
    return row?.data as T | undefined;
  }
  async function put(id: string, kind: string, data: object, trx = db): Promise<void> {
    const json = JSON.stringify(data);
    await trx
      .insertInto('sandbox_objects')
      .values({ id, kind, data: json })
      .onConflict((oc) => oc.column('id').doUpdateSet({ data: json, updated_at: new Date() }))
      .execute();
  }
  async function mustGet<T>(id: string, kind: string): Promise<T> {
    const value = await get<T>(id, kind);
    if (!value) throw new Error(`sandbox ${kind} ${id} does not exist`);
    return value;
  }
  function subscriptionSnapshot(s: SandboxSubscription): SubscriptionSnapshot {
    return {
      providerSubscriptionId: s.id,
      status: s.status,
      cancelAtPeriodEnd: s.cancelAtPeriodEnd,
      currentPeriodStart: new Date(s.currentPeriodStart),
      currentPeriodEnd: new Date(s.currentPeriodEnd),
      priceId: s.priceId,
      checkoutSessionId: s.checkoutSessionId,
    };
  }
  async function bySecret<T extends { clientSecret: string }>(secret: string, kind: string): Promise<T | undefined> {
    const id = secret.split('_secret_')[0] ?? '';
    const value = id ? await get<T>(id, kind) : undefined;
    return value && sameSecret(value.clientSecret, secret) ? value : undefined;
  }
  async function cardsOf(customerId: string, trx = db): Promise<SandboxCard[]> {
    const rows = await trx
      .selectFrom('sandbox_objects')
      .select('data')
      .where('kind', '=', 'card')
      .where(sql<boolean>`data->>'customerId' = ${customerId}`)
      .execute();
    return rows.map((r) => r.data as SandboxCard).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }
  async function ownCard(customerId: string, id: string, trx = db): Promise<SandboxCard> {
    const card = await get<SandboxCard>(id, 'card', trx, true);
    if (card?.customerId !== customerId) throw new UnknownPaymentMethodError(id);
    return card;
  }
  const invoiceUrl = (inv: SandboxInvoice) => `${deps.publicUrl}/api/sandbox/invoices/${inv.id}?key=${inv.secret}`;

  return {
    name: 'sandbox',

    async createPrice() {
      return { priceId: newId('price'), providerProductId: newId('prod') };
    },
    async archivePrice() {},
    async createCustomer() {
      return newId('cus');
    },

    async createCheckout(input) {
      const id = newId('cs');
      const session: SandboxCheckout = {
        ...input,
        id,
        clientSecret: newSecret(id),
        status: 'open',
        paid: false,
        subscriptionId: null,
        paymentId: null,
        invoiceId: null,
      };
      await put(id, 'checkout', session);
      return {
        providerSessionId: id,
        url: `${deps.publicUrl}/api/sandbox/checkout/${id}`,
      };
    },

    async fetchCheckout(id) {
      const s = await mustGet<SandboxCheckout>(id, 'checkout');
      const inv = s.invoiceId ? await get<SandboxInvoice>(s.invoiceId, 'invoice') : undefined;
      const snapshot: CheckoutSnapshot = {
        providerSessionId: s.id,
        checkoutSessionId: s.checkoutSessionId,
        status: s.status,
        paid: s.paid,
        amountTotal: s.amount,
        currency: s.currency,
        providerSubscriptionId: s.subscriptionId,
        providerPaymentId: s.paymentId,
        invoiceUrl: inv ? invoiceUrl(inv) : null,
        invoiceNumber: inv?.number ?? null,
        clientSecret: s.clientSecret,
      };
      return snapshot;
    },

    async fetchSubscription(id) {
      return subscriptionSnapshot(await mustGet<SandboxSubscription>(id, 'subscription'));
    },

    async fetchInvoice(id) {
      const inv = await mustGet<SandboxInvoice>(id, 'invoice');
      return {
        providerInvoiceId: inv.id,
        providerSubscriptionId: inv.subscriptionId,
        status: inv.status,
        amountPaid: inv.status === 'paid' ? inv.amount : 0,
        amountDue: inv.amount,
        currency: inv.currency,
        number: inv.number,
        hostedInvoiceUrl: invoiceUrl(inv),
      };
    },

    async setCancelAtPeriodEnd(id, cancel) {
      const s = await mustGet<SandboxSubscription>(id, 'subscription');
      if (s.status !== 'active') throw new Error(`sandbox subscription ${id} is ${s.status}`);
      const next = { ...s, cancelAtPeriodEnd: cancel };
      await put(id, 'subscription', next);
      return subscriptionSnapshot(next);
    },

    async cancelNow(id) {
      const s = await mustGet<SandboxSubscription>(id, 'subscription');
      const next: SandboxSubscription = { ...s, status: 'canceled', cancelAtPeriodEnd: false };
      await put(id, 'subscription', next);
      return subscriptionSnapshot(next);
    },

    async createSetupIntent(customerId) {
      const id = newId('seti');
      const intent: SandboxSetupIntent = {
        id,
        customerId,
        clientSecret: newSecret(id),
        status: 'requires_payment_method',
      };
      await put(id, 'setup_intent', intent);
      return { clientSecret: intent.clientSecret };
    },

    async listPaymentMethods(customerId) {
      return (await cardsOf(customerId)).map(asMethod);
    },

    async setDefaultPaymentMethod(customerId, paymentMethodId) {
      await db.transaction().execute(async (trx) => {
        await ownCard(customerId, paymentMethodId, trx);
        for (const card of await cardsOf(customerId, trx)) {
          const isDefault = card.id === paymentMethodId;
          if (card.isDefault !== isDefault) await put(card.id, 'card', { ...card, isDefault }, trx);
        }
      });
    },

    async detachPaymentMethod(customerId, paymentMethodId) {
      await db.transaction().execute(async (trx) => {
        await ownCard(customerId, paymentMethodId, trx);
        await trx.deleteFrom('sandbox_objects').where('id', '=', paymentMethodId).where('kind', '=', 'card').execute();
      });
    },

    /** Charges the next period of an active, not cancelling subscription whose period has ended. */
    async renewIfDue(id, now) {
      return db.transaction().execute(async (trx) => {
        const sub = await get<SandboxSubscription>(id, 'subscription', trx, true);
        if (sub?.status !== 'active' || sub.cancelAtPeriodEnd) return undefined;
        if (new Date(sub.currentPeriodEnd).getTime() > now.getTime()) return undefined;
        const checkoutRow = await trx
          .selectFrom('sandbox_objects')
          .select('data')
          .where('kind', '=', 'checkout')
          .where(sql<boolean>`data->>'subscriptionId' = ${id}`)
          .executeTakeFirst();
        const checkout = checkoutRow?.data as SandboxCheckout | undefined;
        if (!checkout?.interval) return undefined;
        // Periods that passed while nobody looked are charged one by one, as a provider would have.
        let start = new Date(sub.currentPeriodEnd);
        let end = addInterval(start, checkout.interval);
        while (end.getTime() <= now.getTime()) {
          start = end;
          end = addInterval(start, checkout.interval);
        }
        const invoiceId = newId('in');
        const inv: SandboxInvoice = {
          id: invoiceId,
          number: `SBX-${now.getUTCFullYear()}-${randomBytes(4).toString('hex').toUpperCase()}`,
          subscriptionId: id,
          checkoutId: checkout.id,
          description: checkout.productName,
          amount: checkout.amount,
          currency: checkout.currency,
          customerEmail: checkout.email,
          status: 'paid',
          createdAt: now.toISOString(),
          secret: randomBytes(16).toString('hex'),
        };
        await put(invoiceId, 'invoice', inv, trx);
        await put(
          id,
          'subscription',
          { ...sub, currentPeriodStart: start.toISOString(), currentPeriodEnd: end.toISOString() },
          trx,
        );
        return { id: newId('evt'), type: 'invoice.paid', providerType: 'invoice.paid', objectId: invoiceId } as const;
      });
    },

    async updateCustomer(customerId, details) {
      await put(customerId, 'customer', { id: customerId, ...details });
    },

    /** Refunds part or all of a sandbox payment; the idempotency key answers the same refund again. */
    async refund(input) {
      const existing = await get<SandboxRefund>(`re_sbx_${input.idempotencyKey}`, 'refund');
      if (existing) return { id: existing.id, amount: existing.amount, status: 'succeeded' };
      const refund: SandboxRefund = {
        id: `re_sbx_${input.idempotencyKey}`,
        payment: input.providerPaymentId,
        amount: input.amount,
        reason: input.reason,
        createdAt: clock().toISOString(),
      };
      await put(refund.id, 'refund', refund);
      return { id: refund.id, amount: refund.amount, status: 'succeeded' };
    },

    async fetchChargeRefunds(chargeId) {
      const rows = await db
        .selectFrom('sandbox_objects')
        .select('data')
        .where('kind', '=', 'refund')
        .where(sql<boolean>`data->>'payment' = ${chargeId}`)
        .execute();
      const refunds = rows.map((r) => r.data as SandboxRefund);
      return {
        providerPaymentIds: [chargeId],
        refunds: refunds.map((r) => ({ id: r.id, amount: r.amount, status: 'succeeded' as const })),
      };
    },

    async fetchDispute(id) {
      const dispute = await mustGet<{ id: string; payment: string; amount: number }>(id, 'dispute');
      return { id: dispute.id, amount: dispute.amount, providerPaymentIds: [dispute.payment] };
    },

    parseWebhook() {
      throw new WebhookSignatureError('The sandbox provider sends no webhooks; its events are handled in-process.');
    },

    async checkoutPage(id) {
      return get<SandboxCheckout>(id, 'checkout');
    },

    async checkoutBySecret(clientSecret) {
      return bySecret<SandboxCheckout>(clientSecret, 'checkout');
    },

    async setupIntentBySecret(clientSecret) {
      return bySecret<SandboxSetupIntent>(clientSecret, 'setup_intent');
    },

    /** Like Stripe, the declining test card is refused when it is saved, not only when it is charged. */
    async confirmSetup(clientSecret, rawCard, expiry) {
      const card = rawCard.replace(/[\s-]/g, '');
      if (card === SANDBOX_CARD_DECLINED) {
        return { ok: false, code: 'card_declined', message: 'Your card was declined.' };
      }
      const brand = SANDBOX_CARDS[card];
      if (!brand) return { ok: false, code: 'invalid_card', message: UNKNOWN_CARD_MESSAGE };
      const [month, year] = expiry.split('/').map(Number);
      return db.transaction().execute(async (trx) => {
        const id = clientSecret.split('_secret_')[0] ?? '';
        const intent = await get<SandboxSetupIntent>(id, 'setup_intent', trx, true);
        if (!intent || !sameSecret(intent.clientSecret, clientSecret) || intent.status !== 'requires_payment_method') {
          return { ok: false, code: 'not_open', message: 'This card form is no longer open.' } as const;
        }
        const saved: SandboxCard = {
          id: newId('card'),
          customerId: intent.customerId,
          brand,
          last4: card.slice(-4),
          expMonth: month ?? 1,
          expYear: 2000 + (year ?? 0),
          isDefault: false,
          createdAt: clock().toISOString(),
        };
        await put(saved.id, 'card', saved, trx);
        await put(intent.id, 'setup_intent', { ...intent, status: 'succeeded' }, trx);
        return { ok: true, card: asMethod(saved) } as const;
      });
    },

    async invoice(id, secret) {
      const inv = await get<SandboxInvoice>(id, 'invoice');
      return inv && inv.secret === secret ? inv : undefined;
    },

    /** Charges a test card. Success completes the session and answers the event to hand to the service. */
    async pay(id, rawCard) {
      const card = rawCard.replace(/[\s-]/g, '');
      if (card === SANDBOX_CARD_DECLINED) {
        return { ok: false, code: 'card_declined', message: 'Your card was declined.' };
      }
      if (!SANDBOX_CARDS[card]) return { ok: false, code: 'invalid_card', message: UNKNOWN_CARD_MESSAGE };
      return db.transaction().execute(async (trx) => {
        const s = await get<SandboxCheckout>(id, 'checkout', trx, true);
        if (s?.status !== 'open') {
          return { ok: false, code: 'not_open', message: 'This checkout session is no longer open.' } as const;
        }
        const now = clock();
        const paymentId = newId('pi');
        let subscriptionId: string | null = null;
        if (s.kind === 'subscription' && s.interval) {
          subscriptionId = newId('sub');
          const sub: SandboxSubscription = {
            id: subscriptionId,
            status: 'active',
            cancelAtPeriodEnd: false,
            currentPeriodStart: now.toISOString(),
            currentPeriodEnd: addInterval(now, s.interval).toISOString(),
            priceId: s.priceId,
            checkoutSessionId: s.checkoutSessionId,
          };
          await put(subscriptionId, 'subscription', sub, trx);
        }
        const invoiceId = newId('in');
        const inv: SandboxInvoice = {
          id: invoiceId,
          number: `SBX-${now.getUTCFullYear()}-${randomBytes(4).toString('hex').toUpperCase()}`,
          subscriptionId,
          checkoutId: id,
          description: s.productName,
          amount: s.amount,
          currency: s.currency,
          customerEmail: s.email,
          status: 'paid',
          createdAt: now.toISOString(),
          secret: randomBytes(16).toString('hex'),
        };
        await put(invoiceId, 'invoice', inv, trx);
        await put(id, 'checkout', { ...s, status: 'complete', paid: true, subscriptionId, paymentId, invoiceId }, trx);
        const event: ProviderEvent = {
          id: newId('evt'),
          type: 'checkout.completed',
          providerType: 'checkout.session.completed',
          objectId: id,
        };
        return { ok: true, event, successUrl: s.successUrl } as const;
      });
    },
  };
}
