import { z } from 'zod';
import { currencySchema } from './money.ts';

/** Billing calls of spec §7: pricing tables, checkout sessions, subscriptions, the token ledger. */

export const intervalSchema = z.enum(['YEARLY', 'MONTHLY', 'WEEKLY']);
export type Interval = z.infer<typeof intervalSchema>;

export const productKindSchema = z.enum(['subscription', 'token']);
export type ProductKind = z.infer<typeof productKindSchema>;

/** Spec §3 pricing product / card. `amount` is in minor units. */
export const pricingProductSchema = z.object({
  name: z.string(),
  description: z.string(),
  priceId: z.string(),
  type: z.enum(['Subscription', 'Token']),
  amount: z.number().int(),
  currency: currencySchema,
  interval: intervalSchema.optional(),
  creditsAmount: z.number().int().optional(),
  bestChoice: z.boolean(),
  attributes: z.array(z.string()),
  testMode: z.boolean(),
  previewMode: z.boolean(),
  networkIds: z.array(z.string()),
});
export type PricingProduct = z.infer<typeof pricingProductSchema>;

/** Spec §3 pricing table: a name and its products, sorted by amount ascending. */
export const pricingTableSchema = z.object({ name: z.string(), data: z.array(pricingProductSchema) });
export type PricingTable = z.infer<typeof pricingTableSchema>;
export const pricingTablesSchema = z.array(pricingTableSchema);

export const priceIdQuerySchema = z.object({ priceId: z.string().min(1).max(200) });
/** `POST /checkout/subscription`: `orgId` buys the subscription for that organisation (docs/adr/0010). */
export const subscriptionCheckoutQuerySchema = priceIdQuerySchema.extend({ orgId: z.uuid().optional() });

export const paymentProviderSchema = z.enum(['sandbox', 'stripe']);
export type PaymentProviderName = z.infer<typeof paymentProviderSchema>;

/**
 * Answer of `POST /checkout/subscription` and `POST /checkout/product`: the page to open (spec §4), the portal's
 * own checkout page of the new session, where it is paid (docs/adr/0031).
 */
export const checkoutCreatedSchema = z.object({ url: z.string(), checkoutSessionId: z.string() });
export type CheckoutCreated = z.infer<typeof checkoutCreatedSchema>;

export const checkoutSessionQuerySchema = z.object({ checkoutSessionId: z.string().uuid() });

export const checkoutStatusSchema = z.enum(['open', 'complete', 'failed', 'expired']);
export type CheckoutStatus = z.infer<typeof checkoutStatusSchema>;

/** `GET /checkout?checkoutSessionId=`: what the return page confirms and reports to analytics. */
export const checkoutSessionSchema = z.object({
  id: z.string(),
  /** The id analytics reports as the transaction id (the provider's session id). */
  transactionId: z.string(),
  status: checkoutStatusSchema,
  type: z.enum(['Subscription', 'Token']),
  productName: z.string(),
  priceId: z.string(),
  amount: z.number().int(),
  currency: currencySchema,
  /** The decimal total (amount / 100) as analytics wants it. */
  value: z.number(),
  creditsAmount: z.number().int().optional(),
  subscriptionId: z.string().optional(),
  createdAt: z.string(),
  completedAt: z.string().optional(),
  /**
   * While the session is open, and only for its buyer: what the checkout page pays it with (Stripe's embedded
   * checkout, or the sandbox's card form, docs/adr/0031).
   */
  provider: paymentProviderSchema.optional(),
  clientSecret: z.string().optional(),
});
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;

export const subscriptionStatusSchema = z.enum(['active', 'cancelling', 'cancelled', 'past_due', 'expired']);
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

export const subscriptionSchema = z.object({
  id: z.string(),
  /** Who bought it (or was assigned it); for an organisation's subscription, the member who bought it. */
  userId: z.string(),
  /** Set when the subscription belongs to an organisation rather than to `userId` personally. */
  organizationId: z.string().nullable(),
  productName: z.string(),
  priceId: z.string(),
  amount: z.number().int(),
  currency: currencySchema,
  interval: intervalSchema.nullable(),
  billable: z.boolean(),
  status: subscriptionStatusSchema,
  networkIds: z.array(z.string()),
  currentPeriodStart: z.string(),
  currentPeriodEnd: z.string(),
  cancelAtPeriodEnd: z.boolean(),
  canCancel: z.boolean(),
  canResume: z.boolean(),
  createdAt: z.string(),
  endedAt: z.string().nullable(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

/** `GET /subscriptions`: the caller's subscriptions and token balance (spec §3 user overview). */
export const userSubscriptionsSchema = z.object({
  subscriptions: z.array(subscriptionSchema),
  tokenAmount: z.number().int(),
});
export type UserSubscriptions = z.infer<typeof userSubscriptionsSchema>;

export const subscriptionActionSchema = z.object({ subscriptionId: z.string().uuid() });
export type SubscriptionAction = z.infer<typeof subscriptionActionSchema>;

export const adminSubscriptionSchema = subscriptionSchema.extend({ userEmail: z.string().nullable() });
export type AdminSubscription = z.infer<typeof adminSubscriptionSchema>;
export const adminSubscriptionsSchema = z.object({ subscriptions: z.array(adminSubscriptionSchema) });

/** `GET /org/{orgId}/subscriptions`: `canCancel`/`canResume` already say whether the caller's role allows it. */
export const orgSubscriptionsSchema = z.object({ subscriptions: z.array(adminSubscriptionSchema) });
export type OrgSubscriptions = z.infer<typeof orgSubscriptionsSchema>;

/** Assigns a non-billable (manual) subscription product to a user for a number of days. */
export const adminAssignSubscriptionSchema = z.object({
  userId: z.string().uuid(),
  priceId: z.string().min(1),
  days: z.number().int().min(1).max(3660),
});

/**
 * The most tokens one balance (a user's or an organisation's) may hold: well within the database's integer column
 * (2,147,483,647), so every append is checked against it before it is written (issue 31).
 */
export const MAX_TOKEN_BALANCE = 1_000_000_000;

/** Spec §3 admin token grant; a negative amount takes tokens back (never below zero). */
export const adminTokenGrantSchema = z.object({
  userId: z.string().uuid(),
  tokenAmount: z
    .number()
    .int()
    .refine((n) => n !== 0, 'must not be 0')
    .refine((n) => Math.abs(n) <= 10_000_000, 'too large'),
  /** Why: shown to the customer in their token history and kept in the audit log; optional as in the spec's body. */
  reason: z.string().trim().min(3).max(200).optional(),
});
export type AdminTokenGrant = z.infer<typeof adminTokenGrantSchema>;
export const tokenBalanceSchema = z.object({ userId: z.string(), tokenAmount: z.number().int() });

export const ledgerKindSchema = z.enum([
  'purchase',
  'admin_grant',
  'activation_spend',
  'rinex_spend',
  'refund',
  'organization_transfer',
]);
export type LedgerKind = z.infer<typeof ledgerKindSchema>;

/**
 * What the server wrote an entry for, as a code the SPA words in the reader's language (issue 32): `note` keeps the
 * English words for API clients and an administrator's reason, which has no code.
 */
export const LEDGER_NOTE_CODES = [
  'token_pack',
  'taken_back_disputed',
  'taken_back_refunded',
  'activation',
  'transfer_to',
  'rinex',
  'rinex_failed',
] as const;
export type LedgerNoteCode = (typeof LEDGER_NOTE_CODES)[number];

export const ledgerEntrySchema = z.object({
  id: z.string(),
  kind: ledgerKindSchema,
  delta: z.number().int(),
  balanceAfter: z.number().int(),
  note: z.string().nullable(),
  /**
   * With `noteParams` (names, counts, ISO times as `at`), the note in words the SPA translates; null for an
   * administrator's reason and entries older than the codes.
   */
  noteCode: z.enum(LEDGER_NOTE_CODES).nullable().optional(),
  noteParams: z
    .record(z.string(), z.union([z.string(), z.number()]))
    .nullable()
    .optional(),
  createdAt: z.string(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

/** `GET /tokens/history`: the /credits page. */
export const tokenHistorySchema = z.object({ tokenAmount: z.number().int(), entries: z.array(ledgerEntrySchema) });
export type TokenHistory = z.infer<typeof tokenHistorySchema>;

export const paymentSchema = z.object({
  id: z.string(),
  description: z.string(),
  amount: z.number().int(),
  currency: currencySchema,
  status: z.enum(['paid', 'failed', 'refunded', 'partially_refunded']),
  /** Minor units refunded so far (docs/adr/0029). */
  refundedAmount: z.number().int(),
  invoiceNumber: z.string().nullable(),
  invoiceUrl: z.string().nullable(),
  createdAt: z.string(),
});
export type Payment = z.infer<typeof paymentSchema>;

/** `GET /billing/payments`: payment history and invoices for /settings/billing. */
export const paymentHistorySchema = z.object({ payments: z.array(paymentSchema) });
export type PaymentHistory = z.infer<typeof paymentHistorySchema>;

/**
 * `GET /getCustomerSecret`: the client secret of a SetupIntent of the caller's provider customer, with which the
 * Payment Element (or the sandbox's card form) saves a card for later payments (docs/adr/0031).
 */
export const customerSecretSchema = z.object({ provider: paymentProviderSchema, clientSecret: z.string() });
export type CustomerSecret = z.infer<typeof customerSecretSchema>;

/** A saved card as `/settings/billing` lists it; never more of the number than its last four digits. */
export const paymentMethodSchema = z.object({
  id: z.string(),
  brand: z.string(),
  last4: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
  isDefault: z.boolean(),
});
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

/** `GET /billing/payment-methods` and the answer of every change to them. */
export const paymentMethodsSchema = z.object({ paymentMethods: z.array(paymentMethodSchema) });
export type PaymentMethods = z.infer<typeof paymentMethodsSchema>;

/** Provider ids are letters, digits and underscores (`pm_…`, `card_sbx_…`). */
export const paymentMethodParamsSchema = z.object({
  paymentMethodId: z
    .string()
    .max(100)
    .regex(/^[A-Za-z0-9_]+$/),
});

/**
 * The sandbox provider's card form (docs/adr/0031): a card number (spaces and dashes allowed), MM/YY and a CVC.
 * Only the test numbers mean anything to the sandbox; the rest is checked for shape, as a card form would.
 */
export const sandboxCardSchema = z.object({
  clientSecret: z.string().min(1).max(200),
  card: z
    .string()
    .max(40)
    .regex(/^[\d\s-]+$/)
    .transform((v) => v.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^\d{12,19}$/)),
  expiry: z.string().regex(/^(0[1-9]|1[0-2])\/\d{2}$/),
  cvc: z.string().regex(/^\d{3,4}$/),
});
export type SandboxCard = z.input<typeof sandboxCardSchema>;

/** A card's MM/YY is good through the last day of that month (UTC), as card networks count it. */
export function cardExpired(expiry: string, now: Date): boolean {
  const match = /^(0[1-9]|1[0-2])\/(\d{2})$/.exec(expiry);
  if (!match) return false;
  const firstAfter = Date.UTC(2000 + Number(match[2]), Number(match[1]), 1);
  return now.getTime() >= firstAfter;
}

/** Answer of the sandbox's in-portal payment: the session to follow on the return page. */
export const sandboxPaidSchema = z.object({ checkoutSessionId: z.string() });

/**
 * A product's customer-visible texts in a language other than the base one (English): what its pricing card, the
 * checkout and the subscriptions show a reader of that language (Accept-Language). An empty name or description,
 * or no attributes, means "the base text". The admin's calls answer the base texts with every translation.
 */
export const productTextsSchema = z.object({
  name: z.string().trim().max(80),
  description: z.string().trim().max(400),
  attributes: z.array(z.string().trim().min(1).max(120)).max(20),
});
export type ProductTexts = z.infer<typeof productTextsSchema>;
export const productTranslationsSchema = z.object({ nl: productTextsSchema.optional() }).strict();
export type ProductTranslations = z.infer<typeof productTranslationsSchema>;

/** Admin product management. */
export const productSchema = z.object({
  id: z.string(),
  kind: productKindSchema,
  name: z.string(),
  description: z.string(),
  translations: productTranslationsSchema,
  pricingTable: z.string(),
  priceId: z.string(),
  amount: z.number().int(),
  currency: currencySchema,
  interval: intervalSchema.nullable(),
  creditsAmount: z.number().int().nullable(),
  billable: z.boolean(),
  bestChoice: z.boolean(),
  testMode: z.boolean(),
  previewMode: z.boolean(),
  attributes: z.array(z.string()),
  /** Subscribers get RINEX of the plan's networks without tokens; set by the admin, whatever the texts say. */
  includesRinex: z.boolean(),
  networkIds: z.array(z.string()),
  archived: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Product = z.infer<typeof productSchema>;
export const productListSchema = z.object({ products: z.array(productSchema) });

export const productListQuerySchema = z.object({
  kind: productKindSchema.optional(),
  billable: z.enum(['true', 'false']).optional(),
  includeArchived: z.enum(['true', 'false']).optional(),
});

const productFields = {
  name: z.string().trim().min(1).max(80),
  description: z.string().trim().max(400),
  pricingTable: z.string().trim().min(1).max(80),
  amount: z.number().int().min(0).max(100_000_000),
  currency: currencySchema,
  bestChoice: z.boolean(),
  testMode: z.boolean(),
  previewMode: z.boolean(),
  attributes: z.array(z.string().trim().min(1).max(120)).max(20),
  includesRinex: z.boolean(),
  networkIds: z.array(z.string().uuid()).max(100),
  translations: productTranslationsSchema,
};

const createFields = {
  ...productFields,
  description: productFields.description.default(''),
  bestChoice: productFields.bestChoice.default(false),
  testMode: productFields.testMode.default(false),
  previewMode: productFields.previewMode.default(false),
  attributes: productFields.attributes.default([]),
  includesRinex: productFields.includesRinex.default(false),
  networkIds: productFields.networkIds.default([]),
  translations: productFields.translations.default({}),
};

export const createProductSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('subscription'),
    interval: intervalSchema,
    billable: z.boolean().default(true),
    ...createFields,
  }),
  z.object({
    kind: z.literal('token'),
    creditsAmount: z.number().int().min(1).max(10_000_000),
    ...createFields,
  }),
]);
export type CreateProduct = z.infer<typeof createProductSchema>;

/** Editable fields; a changed amount or currency gets a new priceId (prices are immutable at providers). */
export const updateProductSchema = z
  .object({
    ...productFields,
    interval: intervalSchema,
    creditsAmount: z.number().int().min(1).max(10_000_000),
  })
  .partial();
export type UpdateProduct = z.infer<typeof updateProductSchema>;
export const productParamsSchema = z.object({ productId: z.string().uuid() });
