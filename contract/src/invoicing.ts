import { z } from 'zod';
import { currencySchema } from './money.ts';

/**
 * Billing details, tax settings, invoices, credit notes and refunds (docs/adr/0029-invoicing-tax-refunds.md).
 * Tax rates are basis points (2100 = 21 %); money is integer minor units.
 */

/** EU member states as VAT prefixes name them (Greece is EL in VAT numbers, GR as a country). */
export const EU_COUNTRIES = [
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
] as const;

/** Countries a buyer or seller may be in (ISO 3166-1 alpha-2): the EU and the usual others of a GNSS service. */
export const BILLING_COUNTRIES = [
  ...EU_COUNTRIES,
  'AU',
  'BR',
  'CA',
  'CH',
  'CN',
  'GB',
  'IN',
  'IS',
  'JP',
  'LI',
  'MX',
  'NO',
  'NZ',
  'TR',
  'UA',
  'US',
  'ZA',
] as const;
export const billingCountrySchema = z.enum(BILLING_COUNTRIES);
export type BillingCountry = z.infer<typeof billingCountrySchema>;

export const isEuCountry = (country: string): boolean => (EU_COUNTRIES as readonly string[]).includes(country);

/** The number part of a VAT number (after the country prefix) per EU country, as the Commission's VIES describes. */
const VAT_FORMATS: Record<(typeof EU_COUNTRIES)[number], RegExp> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  GR: /^\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^\d{2,10}$/,
  SE: /^\d{12}$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
};

export const vatPrefix = (country: string) => (country === 'GR' ? 'EL' : country);

/**
 * A VAT number in its stored form (prefix + number, no spaces or dots) if it has the format of the country's
 * numbers; undefined otherwise. Outside the EU any tax id of 2 to 20 letters and digits is taken as written.
 * Only the format is checked: no registry is asked, so a number is never "verified".
 */
export function normalizeVatNumber(country: string, raw: string): string | undefined {
  const compact = raw.replace(/[\s.-]/g, '').toUpperCase();
  if (!isEuCountry(country)) return /^[A-Z0-9]{2,20}$/.test(compact) ? compact : undefined;
  const prefix = vatPrefix(country);
  const number = compact.startsWith(prefix) ? compact.slice(prefix.length) : compact;
  return VAT_FORMATS[country as (typeof EU_COUNTRIES)[number]].test(number) ? `${prefix}${number}` : undefined;
}

/** Postal code formats of the countries where a wrong one is a common typo; others take 2 to 12 characters. */
const POSTAL_CODES: Partial<Record<BillingCountry, RegExp>> = {
  NL: /^\d{4} ?[A-Z]{2}$/i,
  BE: /^\d{4}$/,
  DE: /^\d{5}$/,
  FR: /^\d{5}$/,
  AT: /^\d{4}$/,
  DK: /^\d{4}$/,
  ES: /^\d{5}$/,
  IT: /^\d{5}$/,
  PL: /^\d{2}-\d{3}$/,
  US: /^\d{5}(-\d{4})?$/,
  GB: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i,
};

export function isValidPostalCode(country: string, code: string): boolean {
  const format = POSTAL_CODES[country as BillingCountry];
  return format ? format.test(code.trim()) : /^[A-Za-z0-9 -]{2,12}$/.test(code.trim());
}

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .nullable()
    .transform((v) => (v ? v : null));

/** `PUT /billing/details` and `PUT /org/{orgId}/billing/details`. */
export const billingDetailsInputSchema = z
  .object({
    companyName: optionalText(200),
    addressLine1: z.string().trim().min(1).max(200),
    addressLine2: optionalText(200),
    postalCode: z.string().trim().min(1).max(20),
    city: z.string().trim().min(1).max(100),
    country: billingCountrySchema,
    vatNumber: optionalText(30),
    invoiceEmail: z
      .union([z.literal(''), z.email().max(254)])
      .optional()
      .nullable()
      .transform((v) => (v ? v : null)),
  })
  .superRefine((value, ctx) => {
    if (!isValidPostalCode(value.country, value.postalCode)) {
      ctx.addIssue({ code: 'custom', path: ['postalCode'], message: `Not a postal code of ${value.country}.` });
    }
    if (value.vatNumber && !normalizeVatNumber(value.country, value.vatNumber)) {
      ctx.addIssue({
        code: 'custom',
        path: ['vatNumber'],
        message: `Not a VAT number of ${value.country} (${vatPrefix(value.country)} followed by its number).`,
      });
    }
    if (value.vatNumber && !value.companyName) {
      ctx.addIssue({ code: 'custom', path: ['companyName'], message: 'A VAT number needs the company name.' });
    }
  });
export type BillingDetailsInput = z.input<typeof billingDetailsInputSchema>;

export const billingDetailsSchema = z.object({
  companyName: z.string().nullable(),
  addressLine1: z.string(),
  addressLine2: z.string().nullable(),
  postalCode: z.string(),
  city: z.string(),
  country: z.string(),
  vatNumber: z.string().nullable(),
  /**
   * The number was confirmed by a VAT registry or by an admin who checked it (docs/adr/0061); only then is a sale to
   * another EU member state reverse-charged. A changed number is unverified again.
   */
  vatVerified: z.boolean(),
  invoiceEmail: z.string().nullable(),
  updatedAt: z.string(),
});
export type BillingDetails = z.infer<typeof billingDetailsSchema>;
export const billingDetailsAnswerSchema = z.object({ details: billingDetailsSchema.nullable() });
export type BillingDetailsAnswer = z.infer<typeof billingDetailsAnswerSchema>;

// --- tax settings ---

export const taxRateSchema = z.object({ country: billingCountrySchema, rateBp: z.number().int().min(0).max(10_000) });
export type TaxRate = z.infer<typeof taxRateSchema>;

export const taxSettingsSchema = z.object({
  seller: z.object({
    legalName: z.string().trim().max(200),
    addressLine1: z.string().trim().max(200),
    addressLine2: optionalText(200),
    postalCode: z.string().trim().max(20),
    city: z.string().trim().max(100),
    country: billingCountrySchema,
    vatNumber: optionalText(30),
    email: z
      .union([z.literal(''), z.email().max(254)])
      .optional()
      .nullable()
      .transform((v) => (v ? v : null)),
  }),
  /** Invoice numbers read `<prefix>-<year>-<000001>`; each prefix is its own gapless series. */
  invoicePrefix: z
    .string()
    .trim()
    .regex(/^[A-Z0-9]{1,10}$/, 'Letters A-Z and digits, at most 10.'),
  pricesIncludeTax: z.boolean(),
  reverseCharge: z.boolean(),
  stripeAutomaticTax: z.boolean(),
  rates: z.array(taxRateSchema).max(BILLING_COUNTRIES.length),
});
export type TaxSettings = z.infer<typeof taxSettingsSchema>;
export type TaxSettingsInput = z.input<typeof taxSettingsSchema>;

export const taxSettingsInputSchema = taxSettingsSchema.superRefine((value, ctx) => {
  const seen = new Set<string>();
  value.rates.forEach((r, i) => {
    if (seen.has(r.country)) {
      ctx.addIssue({ code: 'custom', path: ['rates', i, 'country'], message: `${r.country} is listed twice.` });
    }
    seen.add(r.country);
  });
  if (value.seller.vatNumber && !normalizeVatNumber(value.seller.country, value.seller.vatNumber)) {
    ctx.addIssue({ code: 'custom', path: ['seller', 'vatNumber'], message: 'Not a VAT number of this country.' });
  }
  if (value.seller.postalCode && !isValidPostalCode(value.seller.country, value.seller.postalCode)) {
    ctx.addIssue({ code: 'custom', path: ['seller', 'postalCode'], message: 'Not a postal code of this country.' });
  }
});

/** The seller's details an invoice cannot do without (docs/adr/0061). */
export const SELLER_REQUIRED_FIELDS = [
  'legalName',
  'addressLine1',
  'postalCode',
  'city',
  'vatNumber',
  'email',
] as const;
export type SellerRequiredField = (typeof SELLER_REQUIRED_FIELDS)[number];

/**
 * What is missing before a payment may be taken: seller fields left empty and the countries sold to without a rate
 * (the seller's own and, for a seller in the EU, every member state). Empty lists: payments are open.
 */
export const taxSetupSchema = z.object({
  ready: z.boolean(),
  sellerFieldsMissing: z.array(z.enum(SELLER_REQUIRED_FIELDS)),
  ratesMissing: z.array(z.string()),
});
export type TaxSetup = z.infer<typeof taxSetupSchema>;

/** `PUT /admin/billing-details/vat-verification`: an admin confirms (or withdraws) a customer's VAT number. */
export const vatVerificationBodySchema = z
  .object({
    userId: z.uuid().optional(),
    organizationId: z.uuid().optional(),
    /** The number the admin checked; a number changed meanwhile is not verified by this call (409). */
    vatNumber: z.string().trim().min(2).max(30),
    verified: z.boolean(),
  })
  .refine((b) => (b.userId === undefined) !== (b.organizationId === undefined), {
    message: 'Name either userId or organizationId.',
  });
export type VatVerificationBody = z.infer<typeof vatVerificationBodySchema>;

/** `GET /billing/tax-info`: what a price label needs to say. */
export const taxInfoSchema = z.object({ pricesIncludeTax: z.boolean() });
export type TaxInfo = z.infer<typeof taxInfoSchema>;

// --- invoices ---

export const invoiceKindSchema = z.enum(['invoice', 'credit_note']);
export type InvoiceKind = z.infer<typeof invoiceKindSchema>;

export const invoiceSummarySchema = z.object({
  id: z.string(),
  kind: invoiceKindSchema,
  number: z.string(),
  paymentId: z.string(),
  issuedAt: z.string(),
  currency: currencySchema,
  netAmount: z.number().int(),
  taxAmount: z.number().int(),
  totalAmount: z.number().int(),
  reverseCharge: z.boolean(),
  buyerName: z.string(),
  buyerEmail: z.string().nullable(),
  buyerCountry: z.string().nullable(),
});
export type InvoiceSummary = z.infer<typeof invoiceSummarySchema>;
export const invoiceListSchema = z.object({ invoices: z.array(invoiceSummarySchema) });

export const invoiceParamsSchema = z.object({ invoiceId: z.uuid() });

const dateQuery = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'A date as YYYY-MM-DD.')
  .optional();

export const adminInvoiceQuerySchema = z.object({
  kind: invoiceKindSchema.optional(),
  from: dateQuery,
  to: dateQuery,
  q: z.string().trim().max(200).optional(),
  format: z.enum(['json', 'csv']).optional(),
});
export type AdminInvoiceQuery = z.infer<typeof adminInvoiceQuerySchema>;

// --- admin payments and refunds ---

export const adminPaymentSchema = z.object({
  id: z.string(),
  userId: z.string(),
  userEmail: z.string().nullable(),
  provider: z.string(),
  providerPaymentId: z.string(),
  description: z.string(),
  amount: z.number().int(),
  refundedAmount: z.number().int(),
  currency: currencySchema,
  status: z.enum(['paid', 'failed', 'refunded', 'partially_refunded']),
  invoiceNumber: z.string().nullable(),
  createdAt: z.string(),
  /** Token packs: the tokens it bought; refunds take back what is unspent of them. */
  creditsAmount: z.number().int().nullable(),
  subscriptionId: z.string().nullable(),
});
export type AdminPayment = z.infer<typeof adminPaymentSchema>;

export const adminPaymentQuerySchema = z.object({
  status: z.enum(['paid', 'failed', 'refunded', 'partially_refunded']).optional(),
  from: dateQuery,
  to: dateQuery,
  q: z.string().trim().max(200).optional(),
  format: z.enum(['json', 'csv']).optional(),
});
export type AdminPaymentQuery = z.infer<typeof adminPaymentQuerySchema>;

export const webhookHealthSchema = z.object({
  provider: z.enum(['sandbox', 'stripe']),
  /** Stripe: a secret key and a webhook signing secret are configured. The sandbox needs neither. */
  keysConfigured: z.boolean(),
  webhookConfigured: z.boolean(),
  lastEventAt: z.string().nullable(),
  lastEventType: z.string().nullable(),
  /** Events received but never processed (their handling failed), last 30 days. */
  failedEvents: z.number().int(),
});
export type WebhookHealth = z.infer<typeof webhookHealthSchema>;

export const adminPaymentsSchema = z.object({
  payments: z.array(adminPaymentSchema),
  health: webhookHealthSchema,
  taxSetup: taxSetupSchema,
});
export type AdminPayments = z.infer<typeof adminPaymentsSchema>;

export const paymentParamsSchema = z.object({ paymentId: z.uuid() });

export const refundInputSchema = z.object({
  /** Minor units; the whole refundable rest when left out. */
  amount: z.number().int().positive().optional(),
  reason: z.string().trim().max(500).optional(),
  /** Also end the subscription this payment paid for, now. */
  cancelSubscription: z.boolean().optional(),
});
export type RefundInput = z.infer<typeof refundInputSchema>;

export const refundSchema = z.object({
  id: z.string(),
  paymentId: z.string(),
  kind: z.enum(['refund', 'dispute']),
  amount: z.number().int(),
  tokensTakenBack: z.number().int(),
  tokensNotRecovered: z.number().int(),
  creditNoteNumber: z.string().nullable(),
  createdAt: z.string(),
});
export type Refund = z.infer<typeof refundSchema>;
