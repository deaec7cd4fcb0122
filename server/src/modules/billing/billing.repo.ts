import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Database } from '../../db/client.ts';
import { createUsersRepo } from '../users/index.ts';
import type {
  CheckoutSessionsTable,
  PaymentsTable,
  ProductsTable,
  SubscriptionStatusColumn,
  SubscriptionsTable,
  TokenLedgerTable,
} from './billing.tables.ts';

/** The only place billing touches SQL. Every method takes an optional transaction (a Kysely handle). */
export type BillingRepo = ReturnType<typeof createBillingRepo>;

export type ProductRow = Selectable<ProductsTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type PaymentRow = Selectable<PaymentsTable>;
export type LedgerRow = Selectable<TokenLedgerTable>;

/** Whose subscriptions: a user's personal ones, or an organisation's. */
export type SubscriptionOwner = { userId: string } | { organizationId: string };

const subscriptionColumns = [
  's.id',
  's.user_id',
  's.organization_id',
  's.product_id',
  's.provider',
  's.provider_subscription_id',
  's.status',
  's.current_period_start',
  's.current_period_end',
  's.cancel_at_period_end',
  's.ended_at',
  's.created_at',
  'p.name as product_name',
  'p.translations as product_translations',
  'p.price_id',
  'p.amount',
  'p.currency',
  'p.interval',
  'p.billable',
  'p.network_ids',
] as const;

/** A subscription with its product's terms, as every subscription list and view shows it. */
const subscriptionViews = (db: Database) =>
  db.selectFrom('subscriptions as s').innerJoin('products as p', 'p.id', 's.product_id').select(subscriptionColumns);

/** The same with the payer's e-mail, for the lists an administrator or an organisation's members read. */
const subscriptionViewsWithPayer = (db: Database) =>
  subscriptionViews(db).innerJoin('users as u', 'u.id', 's.user_id').select('u.email as user_email');

export function createBillingRepo(db: Database) {
  return {
    db,
    transaction<T>(fn: (trx: Database) => Promise<T>): Promise<T> {
      return db.transaction().execute(fn);
    },

    // --- products ---
    async insertProduct(values: Insertable<ProductsTable>, trx = db) {
      return trx.insertInto('products').values(values).returningAll().executeTakeFirstOrThrow();
    },
    async updateProduct(id: string, values: Updateable<ProductsTable>, trx = db) {
      return trx
        .updateTable('products')
        .set({ ...values, updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },
    async findProductById(id: string, trx = db) {
      return trx.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async findProductByPriceId(priceId: string, trx = db) {
      return trx.selectFrom('products').selectAll().where('price_id', '=', priceId).executeTakeFirst();
    },
    async findProductBySeedKey(seedKey: string, trx = db) {
      return trx.selectFrom('products').selectAll().where('seed_key', '=', seedKey).executeTakeFirst();
    },
    async listProducts(filter: { kind?: 'subscription' | 'token'; billable?: boolean; includeArchived?: boolean }) {
      let q = db.selectFrom('products').selectAll();
      if (filter.kind) q = q.where('kind', '=', filter.kind);
      if (filter.billable !== undefined) q = q.where('billable', '=', filter.billable);
      if (!filter.includeArchived) q = q.where('archived_at', 'is', null);
      return q.orderBy('pricing_table').orderBy('amount').orderBy('created_at').execute();
    },

    // --- provider customers ---
    async findCustomerId(userId: string, provider: string, trx = db) {
      const row = await trx
        .selectFrom('billing_customers')
        .select('customer_id')
        .where('user_id', '=', userId)
        .where('provider', '=', provider)
        .executeTakeFirst();
      return row?.customer_id;
    },
    /** Keeps the first customer id when two requests race to create one. */
    async saveCustomerId(userId: string, provider: string, customerId: string, trx = db) {
      await trx
        .insertInto('billing_customers')
        .values({ user_id: userId, provider, customer_id: customerId })
        .onConflict((oc) => oc.columns(['user_id', 'provider']).doNothing())
        .execute();
      return (await this.findCustomerId(userId, provider, trx)) ?? customerId;
    },

    // --- checkout sessions ---
    async insertCheckout(values: Insertable<CheckoutSessionsTable>, trx = db) {
      return trx.insertInto('checkout_sessions').values(values).returningAll().executeTakeFirstOrThrow();
    },
    async updateCheckout(id: string, values: Updateable<CheckoutSessionsTable>, trx = db) {
      await trx.updateTable('checkout_sessions').set(values).where('id', '=', id).execute();
    },
    async findCheckout(id: string, trx = db) {
      return trx
        .selectFrom('checkout_sessions as c')
        .innerJoin('products as p', 'p.id', 'c.product_id')
        .selectAll('c')
        .select(['p.name as product_name', 'p.translations as product_translations', 'p.price_id'])
        .where('c.id', '=', id)
        .executeTakeFirst();
    },
    /** Locks the session row for the rest of the transaction: concurrent completions of one session queue here. */
    async lockCheckoutByProviderId(provider: 'sandbox' | 'stripe', providerSessionId: string, trx: Database) {
      return trx
        .selectFrom('checkout_sessions')
        .selectAll()
        .where('provider', '=', provider)
        .where('provider_session_id', '=', providerSessionId)
        .forUpdate()
        .executeTakeFirst();
    },

    // --- subscriptions ---
    async insertSubscription(values: Insertable<SubscriptionsTable>, trx = db) {
      return trx.insertInto('subscriptions').values(values).returningAll().executeTakeFirstOrThrow();
    },
    async updateSubscription(id: string, values: Updateable<SubscriptionsTable>, trx = db) {
      return trx
        .updateTable('subscriptions')
        .set({ ...values, updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    async lockSubscription(id: string, trx: Database) {
      return trx.selectFrom('subscriptions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    },
    async lockSubscriptionByProviderId(providerSubscriptionId: string, trx: Database) {
      return trx
        .selectFrom('subscriptions')
        .selectAll()
        .where('provider_subscription_id', '=', providerSubscriptionId)
        .forUpdate()
        .executeTakeFirst();
    },
    async findSubscriptionView(id: string, trx = db) {
      return subscriptionViews(trx).where('s.id', '=', id).executeTakeFirst();
    },
    /** Personal subscriptions only: those a user bought for an organisation are the organisation's. */
    async listUserSubscriptions(userId: string) {
      return subscriptionViews(db)
        .where('s.user_id', '=', userId)
        .where('s.organization_id', 'is', null)
        .orderBy('s.created_at', 'desc')
        .execute();
    },
    /** Every subscription the user is the payer of that still runs: personal ones and organisations'. */
    async listLiveSubscriptionsPaidBy(userId: string) {
      const live: SubscriptionStatusColumn[] = ['active', 'cancelling', 'past_due'];
      return subscriptionViews(db).where('s.user_id', '=', userId).where('s.status', 'in', live).execute();
    },
    async listLiveSubscriptionsOfOrganization(organizationId: string) {
      const live: SubscriptionStatusColumn[] = ['active', 'cancelling', 'past_due'];
      return subscriptionViews(db)
        .where('s.organization_id', '=', organizationId)
        .where('s.status', 'in', live)
        .execute();
    },
    async listOrganizationSubscriptions(organizationId: string) {
      return subscriptionViewsWithPayer(db)
        .where('s.organization_id', '=', organizationId)
        .orderBy('s.created_at', 'desc')
        .execute();
    },
    async listAllSubscriptions() {
      return subscriptionViewsWithPayer(db).orderBy('s.created_at', 'desc').limit(1000).execute();
    },
    /** Subscriptions whose period has ended: cancelling and manual ones end, sandbox ones are renewed. */
    async listDueSubscriptions(now: Date, owner?: SubscriptionOwner) {
      let q = db
        .selectFrom('subscriptions')
        .select(['id', 'provider', 'provider_subscription_id', 'status'])
        .where('current_period_end', '<=', now)
        .where((eb) =>
          eb.or([
            eb('status', '=', 'cancelling'),
            eb.and([eb('provider', '=', 'manual'), eb('status', 'in', ['active', 'past_due'])]),
            eb.and([eb('provider', '=', 'sandbox'), eb('status', '=', 'active')]),
          ]),
        );
      if (owner && 'userId' in owner) q = q.where('user_id', '=', owner.userId).where('organization_id', 'is', null);
      if (owner && 'organizationId' in owner) q = q.where('organization_id', '=', owner.organizationId);
      return q.execute();
    },
    async countActiveSubscriptions(owner: SubscriptionOwner, productId: string, trx = db) {
      const statuses: SubscriptionStatusColumn[] = ['active', 'cancelling', 'past_due'];
      let q = trx
        .selectFrom('subscriptions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('product_id', '=', productId)
        .where('status', 'in', statuses);
      q =
        'userId' in owner
          ? q.where('user_id', '=', owner.userId).where('organization_id', 'is', null)
          : q.where('organization_id', '=', owner.organizationId);
      const row = await q.executeTakeFirstOrThrow();
      return Number(row.n);
    },

    // --- payments ---
    /** Idempotent on (provider, provider_payment_id); a later status (refunded, paid after failed) wins. */
    /** The payment's id, new or existing. */
    async upsertPayment(values: Insertable<PaymentsTable>, trx = db): Promise<string> {
      const row = await trx
        .insertInto('payments')
        .values(values)
        .onConflict((oc) =>
          oc.columns(['provider', 'provider_payment_id']).doUpdateSet({
            status: values.status,
            invoice_url: sql`coalesce(excluded.invoice_url, payments.invoice_url)`,
            invoice_number: sql`coalesce(excluded.invoice_number, payments.invoice_number)`,
          }),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async findPaymentByProviderId(provider: string, providerPaymentId: string, trx = db) {
      return trx
        .selectFrom('payments')
        .select('id')
        .where('provider', '=', provider)
        .where('provider_payment_id', '=', providerPaymentId)
        .executeTakeFirst();
    },
    async listPayments(userId: string) {
      return db
        .selectFrom('payments')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .limit(500)
        .execute();
    },
    async findPayment(id: string) {
      return db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async lockPayment(id: string, trx: Database) {
      return trx.selectFrom('payments').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    },
    /** The tax the payment's checkout quoted; null for a payment without a checkout. */
    async quotedTaxOf(paymentId: string, trx: Database): Promise<{ rateBp: number; reverseCharge: boolean } | null> {
      const payment = await trx
        .selectFrom('payments')
        .leftJoin('checkout_sessions as c', 'c.id', 'payments.checkout_session_id')
        .select(['c.tax_rate_bp', 'c.reverse_charge', 'c.id as checkout_id'])
        .where('payments.id', '=', paymentId)
        .executeTakeFirst();
      if (!payment?.checkout_id) return null;
      return { rateBp: payment.tax_rate_bp ?? 0, reverseCharge: payment.reverse_charge ?? false };
    },
    async setPaymentRefunded(id: string, refundedAmount: number, fully: boolean, trx: Database) {
      await trx
        .updateTable('payments')
        .set({ refunded_amount: refundedAmount, status: fully ? 'refunded' : 'partially_refunded' })
        .where('id', '=', id)
        .execute();
    },

    // --- token ledger ---
    /** Creates the user's balance row if needed and locks it until the transaction ends. */
    async lockBalance(userId: string, trx: Database): Promise<number> {
      await trx
        .insertInto('token_balances')
        .values({ user_id: userId })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .execute();
      const row = await trx
        .selectFrom('token_balances')
        .select('balance')
        .where('user_id', '=', userId)
        .forUpdate()
        .executeTakeFirstOrThrow();
      return row.balance;
    },
    async ledgerEntryExists(kind: TokenLedgerTable['kind'], referenceId: string, trx = db) {
      const row = await trx
        .selectFrom('token_ledger')
        .select('id')
        .where('kind', '=', kind)
        .where('reference_id', '=', referenceId)
        .executeTakeFirst();
      return row !== undefined;
    },
    async insertLedgerEntry(values: Insertable<TokenLedgerTable>, trx: Database) {
      return trx.insertInto('token_ledger').values(values).returningAll().executeTakeFirstOrThrow();
    },
    async setBalance(userId: string, balance: number, trx: Database) {
      await trx
        .updateTable('token_balances')
        .set({ balance, updated_at: new Date() })
        .where('user_id', '=', userId)
        .execute();
    },
    async balanceOf(userId: string, trx = db): Promise<number> {
      const row = await trx
        .selectFrom('token_balances')
        .select('balance')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row?.balance ?? 0;
    },
    /** The balance as the ledger says it (sum of deltas): the truth the cached balance row must equal. */
    async ledgerSum(userId: string, trx = db): Promise<number> {
      const row = await trx
        .selectFrom('token_ledger')
        .select(sql<number>`coalesce(sum(delta), 0)::int`.as('sum'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.sum);
    },
    async ledgerHistory(userId: string, limit = 200) {
      return db
        .selectFrom('token_ledger')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },

    // --- provider events ---
    /** True the first time an event id is seen. */
    async recordEvent(
      e: { provider: string; eventId: string; type: string; objectId: string | null },
      trx = db,
    ): Promise<boolean> {
      const row = await trx
        .insertInto('provider_events')
        .values({ provider: e.provider, event_id: e.eventId, type: e.type, object_id: e.objectId })
        .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
        .returning('event_id')
        .executeTakeFirst();
      return row !== undefined;
    },
    async isEventProcessed(provider: string, eventId: string, trx = db) {
      const row = await trx
        .selectFrom('provider_events')
        .select('processed_at')
        .where('provider', '=', provider)
        .where('event_id', '=', eventId)
        .executeTakeFirst();
      return row?.processed_at != null;
    },
    async markEventProcessed(provider: string, eventId: string, trx = db) {
      await trx
        .updateTable('provider_events')
        .set({ processed_at: new Date() })
        .where('provider', '=', provider)
        .where('event_id', '=', eventId)
        .execute();
    },

    /** The last provider event and the failed ones since a date, for the payments page's health panel. */
    async eventHealth(provider: string, since: Date) {
      const last = await db
        .selectFrom('provider_events')
        .select(['received_at', 'type'])
        .where('provider', '=', provider)
        .orderBy('received_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      const failed = await db
        .selectFrom('provider_events')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('provider', '=', provider)
        .where('processed_at', 'is', null)
        .where('received_at', '>=', since)
        .executeTakeFirstOrThrow();
      return { last, failed: Number(failed.n) };
    },
    async userExists(userId: string) {
      return (await createUsersRepo(db).findAdminView(userId)) !== undefined;
    },
  };
}

export type SubscriptionView = NonNullable<Awaited<ReturnType<BillingRepo['findSubscriptionView']>>>;
export type CheckoutView = NonNullable<Awaited<ReturnType<BillingRepo['findCheckout']>>>;
