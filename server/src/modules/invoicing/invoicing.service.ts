import {
  type AdminPayment,
  type AdminPaymentQuery,
  type BillingDetails,
  type BillingDetailsInput,
  billingDetailsInputSchema,
  EU_COUNTRIES,
  type InvoiceSummary,
  isEuCountry,
  type LedgerNoteCode,
  normalizeVatNumber,
  type OrganizationRole,
  type Refund,
  SELLER_REQUIRED_FIELDS,
  type SellerRequiredField,
  type TaxSettings,
  type TaxSetup,
  type VatVerificationBody,
  type WebhookHealth,
} from '@portal/contract';
import type { Selectable } from 'kysely';
import type { Database } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../shared/actor.ts';
import { AppError, conflict, forbidden, notFound } from '../../shared/errors.ts';
import { iso } from '../../shared/iso.ts';
import { createOrganizationsRepo } from '../organizations/index.ts';
import { createUsersRepo } from '../users/index.ts';
import { type InvoiceDocument, renderInvoicePdf } from './invoice.pdf.ts';
import type { DetailsOwner, InvoicingRepo } from './invoicing.repo.ts';
import type { BillingDetailsTable, InvoiceLine, InvoiceParty } from './invoicing.tables.ts';
import { quoteTax, splitGross, type TaxRules, taxTreatment } from './tax.policy.ts';
import { noVatRegistry, type VatVerifier } from './vat-verifier.ts';

/** Billing details as the payment provider's customer record takes them. */
export interface CustomerDetails {
  name: string | null;
  email: string | null;
  address: { line1: string; line2: string | null; postalCode: string; city: string; country: string };
  vatNumber: string | null;
}

/**
 * What invoicing needs of billing's payments, customers and balances. Billing builds on invoicing (a payment is
 * recorded with its invoice), so billing hands these in rather than invoicing importing billing.
 */
export interface BillingPayments {
  db: Database;
  transaction<T>(fn: (trx: Database) => Promise<T>): Promise<T>;
  lockBalance(userId: string, trx: Database): Promise<number>;
  findCustomerId(userId: string, provider: string): Promise<string | undefined>;
  lockPayment(id: string, trx: Database): Promise<Selectable<DB['payments']> | undefined>;
  findCheckout(id: string, trx: Database): Promise<Selectable<DB['checkout_sessions']> | undefined>;
  quotedTaxOf(paymentId: string, trx: Database): Promise<{ rateBp: number; reverseCharge: boolean } | null>;
  setPaymentRefunded(id: string, refundedAmount: number, fully: boolean, trx: Database): Promise<void>;
  eventHealth(
    provider: string,
    since: Date,
  ): Promise<{ last: { received_at: Date; type: string } | undefined; failed: number }>;
}

/** The token ledger, for the tokens a refund or dispute takes back. */
export interface RefundLedger {
  append(
    entry: {
      userId: string;
      kind: 'refund';
      delta: number;
      referenceId: string;
      note: string;
      noteCode: LedgerNoteCode;
      createdBy?: string;
    },
    trx?: Database,
  ): Promise<unknown>;
}

/** The payment provider, as far as invoicing talks to it: its name and its customer records. */
export interface CustomerProvider {
  readonly name: WebhookHealth['provider'];
  updateCustomer(customerId: string, details: CustomerDetails): Promise<void>;
}

export interface InvoicingDeps {
  repo: InvoicingRepo;
  billingRepo: BillingPayments;
  ledger: RefundLedger;
  provider: CustomerProvider;
  roleOf(orgId: string, userId: string): Promise<OrganizationRole | undefined>;
  /** Stripe keys as configured, for the payments page's health panel. */
  keys: { secretKey: boolean; webhookSecret: boolean };
  /** Where VAT numbers are confirmed; none by default (admins confirm them, docs/adr/0061). */
  vatVerifier?: VatVerifier;
  clock?: () => Date;
  log?: { warn(obj: object, msg: string): void };
}

export type Invoicing = ReturnType<typeof createInvoicing>;

type Trx = Database;

const organizationNotFound = () => notFound('Organisation');

/** `YYYY-MM-DD` as the start of that UTC day; `to` is inclusive, so its next day is the bound. */
const dayStart = (date: string | undefined, plusDays = 0) =>
  date ? new Date(Date.parse(`${date}T00:00:00Z`) + plusDays * 86_400_000) : undefined;

type DetailsRow = Pick<
  Selectable<BillingDetailsTable>,
  | 'company_name'
  | 'address_line1'
  | 'address_line2'
  | 'postal_code'
  | 'city'
  | 'country'
  | 'vat_number'
  | 'invoice_email'
  | 'updated_at'
  | 'vat_verified_number'
>;

/** A VAT number counts as verified only while it is the very number that was confirmed. */
const vatVerifiedOf = (row: Pick<DetailsRow, 'vat_number' | 'vat_verified_number'>) =>
  row.vat_number !== null && row.vat_verified_number === row.vat_number;

/**
 * What is missing before a payment may be taken: the seller's details an invoice needs, and a rate for every country
 * sold to (the seller's own and, from the EU, every member state: consumers there pay their own country's VAT).
 */
export function taxSetupOf(
  settings: {
    seller_legal_name: string;
    seller_address_line1: string;
    seller_postal_code: string;
    seller_city: string;
    seller_country: string;
    seller_vat_number: string | null;
    seller_email: string | null;
  },
  rates: readonly { country: string }[],
): TaxSetup {
  const values: Record<SellerRequiredField, string | null> = {
    legalName: settings.seller_legal_name,
    addressLine1: settings.seller_address_line1,
    postalCode: settings.seller_postal_code,
    city: settings.seller_city,
    vatNumber: settings.seller_vat_number,
    email: settings.seller_email,
  };
  const sellerFieldsMissing = SELLER_REQUIRED_FIELDS.filter((field) => !values[field]?.trim());
  const rated = new Set(rates.map((r) => r.country));
  const soldTo = new Set([settings.seller_country, ...(isEuCountry(settings.seller_country) ? EU_COUNTRIES : [])]);
  const ratesMissing = [...soldTo].filter((country) => !rated.has(country)).sort();
  return { ready: sellerFieldsMissing.length === 0 && ratesMissing.length === 0, sellerFieldsMissing, ratesMissing };
}

export function toDetails(row: DetailsRow): BillingDetails {
  return {
    companyName: row.company_name,
    addressLine1: row.address_line1,
    addressLine2: row.address_line2,
    postalCode: row.postal_code,
    city: row.city,
    country: row.country,
    vatNumber: row.vat_number,
    vatVerified: vatVerifiedOf(row),
    invoiceEmail: row.invoice_email,
    updatedAt: iso(row.updated_at),
  };
}

const CSV_SAFE = /^[=+\-@\t\r]/;
/** One CSV cell; cells a spreadsheet would run as a formula are prefixed with a quote. */
export function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  const text = String(value);
  const guarded = typeof value === 'string' && CSV_SAFE.test(text) ? `'${text}` : text;
  return /[",\n\r;]/.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}
export const csv = (rows: (string | number | boolean | null)[][]) =>
  `${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
const decimal = (minor: number) => (minor / 100).toFixed(2);

/**
 * Billing details, tax, invoices, credit notes and refunds (docs/adr/0029). Invoices are issued inside the
 * transaction that records the payment, so their numbers come from a counter row that transaction locks.
 */
export function createInvoicing(deps: InvoicingDeps) {
  const { repo, billingRepo, ledger, provider } = deps;
  const vatVerifier = deps.vatVerifier ?? noVatRegistry;
  const clock = deps.clock ?? (() => new Date());
  const log = deps.log ?? { warn: () => {} };

  async function rules(trx?: Trx) {
    const [settings, rates] = await Promise.all([repo.taxSettings(trx), repo.taxRates(trx)]);
    const taxRules: TaxRules = {
      sellerCountry: settings.seller_country,
      pricesIncludeTax: settings.prices_include_tax,
      reverseCharge: settings.reverse_charge,
      rates: new Map(rates.map((r) => [r.country, r.rate_bp])),
    };
    const seller: InvoiceParty = {
      name: settings.seller_legal_name,
      companyName: null,
      addressLines: [
        settings.seller_address_line1,
        ...(settings.seller_address_line2 ? [settings.seller_address_line2] : []),
        `${settings.seller_postal_code} ${settings.seller_city}`.trim(),
      ].filter(Boolean),
      country: settings.seller_country,
      vatNumber: settings.seller_vat_number,
      email: settings.seller_email,
    };
    return { settings, rates, taxRules, seller };
  }

  /** The buyer of a payment: the organisation's details when it bought, else the payer's own. */
  async function buyer(userId: string | null, organizationId: string | null, trx?: Trx) {
    const owner: DetailsOwner | undefined = organizationId ? { organizationId } : userId ? { userId } : undefined;
    const details = owner ? await repo.findDetails(owner, trx) : undefined;
    const user = userId ? await createUsersRepo(trx ?? billingRepo.db).findAdminView(userId) : undefined;
    const org = organizationId ? await createOrganizationsRepo(trx ?? billingRepo.db).find(organizationId) : undefined;
    const party: InvoiceParty = {
      name: org?.name ?? user?.display_name ?? user?.email ?? 'Customer',
      companyName: details?.company_name ?? null,
      addressLines: details
        ? [
            details.address_line1,
            ...(details.address_line2 ? [details.address_line2] : []),
            `${details.postal_code} ${details.city}`,
          ]
        : [],
      country: details?.country ?? null,
      vatNumber: details?.vat_number ?? null,
      email: details?.invoice_email ?? user?.email ?? null,
    };
    return {
      party,
      taxBuyer: {
        country: details?.country ?? null,
        vatNumber: details?.vat_number ?? null,
        vatVerified: details ? vatVerifiedOf(details) : false,
      },
    };
  }

  async function issue(
    trx: Trx,
    input: {
      kind: 'invoice' | 'credit_note';
      paymentId: string;
      refundId: string | null;
      userId: string | null;
      organizationId: string | null;
      currency: 'EUR' | 'USD' | 'GBP';
      lines: InvoiceLine[];
      reverseCharge: boolean;
      seller: InvoiceParty;
      buyer: InvoiceParty;
      prefix: string;
    },
  ) {
    const now = clock();
    const series = `${input.prefix}${input.kind === 'credit_note' ? '-CN' : ''}-${now.getUTCFullYear()}`;
    const sequence = await repo.nextSequence(series, trx);
    const net = input.lines.reduce((sum, l) => sum + l.netAmount, 0);
    const tax = input.lines.reduce((sum, l) => sum + l.taxAmount, 0);
    return repo.insertInvoice(
      {
        kind: input.kind,
        series,
        sequence,
        number: `${series}-${String(sequence).padStart(6, '0')}`,
        payment_id: input.paymentId,
        refund_id: input.refundId,
        user_id: input.userId,
        organization_id: input.organizationId,
        currency: input.currency,
        net_amount: net,
        tax_amount: tax,
        total_amount: net + tax,
        reverse_charge: input.reverseCharge,
        seller: input.seller,
        buyer: input.buyer,
        lines: input.lines,
        issued_at: now,
      },
      trx,
    );
  }

  /** Lines of a gross amount at one rate; the provider's own tax figure wins when it computed one. */
  const linesOf = (description: string, gross: number, rateBp: number, providerTax?: number | null): InvoiceLine[] => {
    const split = providerTax != null ? { net: gross - providerTax, tax: providerTax } : splitGross(gross, rateBp);
    const rate = providerTax != null && split.net > 0 ? Math.round((split.tax * 10_000) / split.net) : rateBp;
    return [{ description, quantity: 1, netAmount: split.net, rateBp: rate, taxAmount: split.tax }];
  };

  /** A registry that fails leaves the number unverified; the customer is charged VAT, never refused. */
  async function askRegistry(country: string, vat: string) {
    try {
      return await vatVerifier.verify(country, vat);
    } catch (err) {
      log.warn({ err, registry: vatVerifier.name }, 'VAT registry failed');
      return 'unavailable' as const;
    }
  }

  async function ownDetailsOwner(actor: Actor, orgId: string | undefined, write: boolean): Promise<DetailsOwner> {
    if (orgId === undefined) return { userId: actor.userId };
    const role = await deps.roleOf(orgId, actor.userId);
    if (!role) throw organizationNotFound();
    if (write && role === 'member')
      throw forbidden('Only owners and admins of the organisation may change its billing details.');
    return { organizationId: orgId };
  }

  return {
    /** What a checkout charges this buyer for a product price. */
    async quote(userId: string, organizationId: string | null, price: number) {
      const { taxRules, settings } = await rules();
      const { taxBuyer } = await buyer(userId, organizationId);
      return { ...quoteTax(taxRules, taxBuyer, price), automaticTax: settings.stripe_automatic_tax };
    },

    /** What the seller still has to set before payments open (docs/adr/0061). */
    async taxSetup(): Promise<TaxSetup> {
      const [settings, rates] = await Promise.all([repo.taxSettings(), repo.taxRates()]);
      return taxSetupOf(settings, rates);
    },

    async pricesIncludeTax(): Promise<boolean> {
      return (await repo.taxSettings()).prices_include_tax;
    },

    /**
     * Issues the invoice of a paid payment, once (a second call for the same payment returns). `gross` is what
     * the provider charged; the rate is the checkout's quote, or for renewals the buyer's treatment today.
     */
    /** Issues the payment's invoice unless it has one; answers its number either way. */
    async issueInvoice(
      trx: Trx,
      input: {
        paymentId: string;
        userId: string;
        organizationId: string | null;
        description: string;
        gross: number;
        currency: 'EUR' | 'USD' | 'GBP';
        providerTax?: number | null;
      },
    ) {
      const existing = await repo.invoiceForPayment(input.paymentId, trx);
      if (existing) return existing.number;
      const { taxRules, seller, settings } = await rules(trx);
      const who = await buyer(input.userId, input.organizationId, trx);
      const quoted = (await billingRepo.quotedTaxOf(input.paymentId, trx)) ?? taxTreatment(taxRules, who.taxBuyer);
      const invoice = await issue(trx, {
        kind: 'invoice',
        paymentId: input.paymentId,
        refundId: null,
        userId: input.userId,
        organizationId: input.organizationId,
        currency: input.currency,
        lines: linesOf(input.description, input.gross, quoted.rateBp, input.providerTax),
        reverseCharge: quoted.reverseCharge,
        seller,
        buyer: who.party,
        prefix: settings.invoice_prefix,
      });
      return invoice.number;
    },

    /**
     * Records a refund or dispute of a payment, once per provider id: takes back the tokens it bought as far
     * as they are unspent (the rest is recorded, the balance never goes negative) and issues the credit note.
     */
    async applyRefund(
      trx: Trx,
      input: {
        paymentId: string;
        providerRefundId: string;
        amount: number;
        kind: 'refund' | 'dispute';
        reason: string | null;
        createdBy: string | null;
      },
    ) {
      const payment = await billingRepo.lockPayment(input.paymentId, trx);
      if (!payment) throw notFound('Payment');
      // Asked under the payment's lock: simultaneous identical refunds (one provider refund, one idempotency key)
      // wait here for the first and then find what it recorded (issue 31), instead of inserting it again.
      const known = await repo.findRefund(provider.name, input.providerRefundId, trx);
      if (known) return known;
      const refundedAfter = Math.min(payment.amount, payment.refunded_amount + input.amount);
      const amount = refundedAfter - payment.refunded_amount;
      if (amount <= 0) {
        log.warn(
          { paymentId: payment.id, refund: input.providerRefundId },
          'refund of a payment already refunded in full',
        );
        return undefined;
      }
      const checkout = payment.checkout_session_id
        ? await billingRepo.findCheckout(payment.checkout_session_id, trx)
        : undefined;
      let taken = 0;
      let notRecovered = 0;
      if (checkout?.kind === 'token' && checkout.credits_amount) {
        const credits = checkout.credits_amount;
        const before = (await repo.refundsOf(payment.id, trx)).reduce(
          (sum, r) => sum + r.tokens_taken_back + r.tokens_not_recovered,
          0,
        );
        const due =
          refundedAfter >= payment.amount
            ? credits - before
            : Math.round((credits * refundedAfter) / payment.amount) - before;
        const balance = await billingRepo.lockBalance(payment.user_id, trx);
        taken = Math.max(0, Math.min(due, balance));
        notRecovered = Math.max(0, due - taken);
      }
      const refund = await repo.insertRefund(
        {
          payment_id: payment.id,
          provider: provider.name,
          provider_refund_id: input.providerRefundId,
          kind: input.kind,
          amount,
          reason: input.reason,
          tokens_taken_back: taken,
          tokens_not_recovered: notRecovered,
          created_by: input.createdBy,
        },
        trx,
      );
      if (taken > 0) {
        await ledger.append(
          {
            userId: payment.user_id,
            kind: 'refund',
            delta: -taken,
            referenceId: refund.id,
            note: input.kind === 'dispute' ? 'Taken back: payment disputed' : 'Taken back: payment refunded',
            noteCode: input.kind === 'dispute' ? 'taken_back_disputed' : 'taken_back_refunded',
            ...(input.createdBy && { createdBy: input.createdBy }),
          },
          trx,
        );
      }
      await billingRepo.setPaymentRefunded(payment.id, refundedAfter, refundedAfter >= payment.amount, trx);
      const invoice = await repo.invoiceForPayment(payment.id, trx);
      // A dispute is not a correction the seller issues; its outcome is settled with the bank, not on paper.
      if (invoice && input.kind === 'refund') {
        const rateBp = invoice.lines[0]?.rateBp ?? 0;
        const split = splitGross(amount, rateBp);
        const { settings } = await rules(trx);
        await issue(trx, {
          kind: 'credit_note',
          paymentId: payment.id,
          refundId: refund.id,
          userId: invoice.user_id,
          organizationId: invoice.organization_id,
          currency: invoice.currency,
          lines: [
            {
              description: `Refund: ${payment.description} (invoice ${invoice.number})`,
              quantity: 1,
              netAmount: -split.net,
              rateBp,
              taxAmount: -split.tax,
            },
          ],
          reverseCharge: invoice.reverse_charge,
          seller: invoice.seller,
          buyer: invoice.buyer,
          prefix: settings.invoice_prefix,
        });
      }
      return refund;
    },

    async presentRefund(
      row: {
        id: string;
        payment_id: string;
        kind: 'refund' | 'dispute';
        amount: number;
        tokens_taken_back: number;
        tokens_not_recovered: number;
        created_at: Date;
      },
      trx?: Trx,
    ): Promise<Refund> {
      const note = await repo.creditNoteOf(row.id, trx);
      return {
        id: row.id,
        paymentId: row.payment_id,
        kind: row.kind,
        amount: row.amount,
        tokensTakenBack: row.tokens_taken_back,
        tokensNotRecovered: row.tokens_not_recovered,
        creditNoteNumber: note?.number ?? null,
        createdAt: iso(row.created_at),
      };
    },

    // --- billing details ---
    async getDetails(actor: Actor, orgId?: string) {
      const owner = await ownDetailsOwner(actor, orgId, false);
      const row = await repo.findDetails(owner);
      return { details: row ? toDetails(row) : null };
    },

    /**
     * Saves billing details and sends them to the payer's provider customer first (organisations' details go on
     * their invoices; their payers' customers stay the payers' own).
     */
    async saveDetails(actor: Actor, input: BillingDetailsInput, orgId?: string) {
      const owner = await ownDetailsOwner(actor, orgId, true);
      const parsed = billingDetailsInputSchema.parse(input);
      const vat = parsed.vatNumber ? (normalizeVatNumber(parsed.country, parsed.vatNumber) ?? null) : null;
      if ('userId' in owner) {
        const customerId = await billingRepo.findCustomerId(actor.userId, provider.name);
        if (customerId) {
          const details: CustomerDetails = {
            name: parsed.companyName,
            email: parsed.invoiceEmail ?? actor.email,
            address: {
              line1: parsed.addressLine1,
              line2: parsed.addressLine2,
              postalCode: parsed.postalCode,
              city: parsed.city,
              country: parsed.country,
            },
            vatNumber: vat && isEuCountry(parsed.country) ? vat : null,
          };
          try {
            await provider.updateCustomer(customerId, details);
          } catch (err) {
            log.warn({ err, userId: actor.userId }, 'payment provider refused the billing details');
            throw new AppError(
              502,
              'payment_provider_unavailable',
              'The payment provider could not be reached. Nothing was changed; please try again later.',
            );
          }
        }
      }
      const verdict = vat && isEuCountry(parsed.country) ? await askRegistry(parsed.country, vat) : 'unavailable';
      const row = await repo.saveDetails(owner, {
        ...(verdict === 'valid' && {
          vat_verified_number: vat,
          vat_verified_at: clock(),
          vat_verified_source: 'registry' as const,
          vat_verified_by: null,
        }),
        ...(verdict === 'invalid' && { vat_verified_number: null, vat_verified_at: null, vat_verified_source: null }),
        company_name: parsed.companyName,
        address_line1: parsed.addressLine1,
        address_line2: parsed.addressLine2,
        postal_code: parsed.postalCode.toUpperCase(),
        city: parsed.city,
        country: parsed.country,
        vat_number: vat,
        invoice_email: parsed.invoiceEmail,
      });
      return { details: toDetails(row) };
    },

    /** A customer's own billing details as the back office shows them. */
    async detailsOf(userId: string): Promise<BillingDetails | null> {
      const row = await repo.findDetails({ userId });
      return row ? toDetails(row) : null;
    },

    /**
     * An admin confirms (or withdraws) a customer's VAT number after checking it, when no registry can be asked.
     * Only the number the admin saw: if the customer changed it meanwhile, nothing changes (409). `onChanged` runs in
     * the same transaction (the audit entry).
     */
    async setVatVerified(
      actor: Actor,
      body: VatVerificationBody,
      onChanged: (trx: Trx, details: BillingDetails) => Promise<void>,
    ): Promise<BillingDetails> {
      const owner: DetailsOwner = body.userId ? { userId: body.userId } : { organizationId: body.organizationId ?? '' };
      return billingRepo.transaction(async (trx) => {
        const current = await repo.findDetails(owner, trx);
        if (!current) throw notFound('Billing details');
        if (!current.vat_number || current.vat_number !== body.vatNumber.replace(/[\s.-]/g, '').toUpperCase()) {
          throw conflict(
            'vat_number_changed',
            'The VAT number is no longer the one you checked; reload and check again.',
          );
        }
        const row = await repo.setVatVerification(
          owner,
          body.verified ? { number: current.vat_number, at: clock(), source: 'admin', by: actor.userId } : null,
          trx,
        );
        const details = toDetails(row);
        await onChanged(trx, details);
        return details;
      });
    },

    /** The payer's details as the provider's customer takes them when it is created. */
    async customerDetailsOf(userId: string, email: string | null): Promise<CustomerDetails | undefined> {
      const row = await repo.findDetails({ userId });
      if (!row) return undefined;
      return {
        name: row.company_name,
        email: row.invoice_email ?? email,
        address: {
          line1: row.address_line1,
          line2: row.address_line2,
          postalCode: row.postal_code,
          city: row.city,
          country: row.country,
        },
        vatNumber: row.vat_number && isEuCountry(row.country) ? row.vat_number : null,
      };
    },

    // --- tax settings ---
    async getTaxSettings(): Promise<TaxSettings> {
      const { settings: s, rates } = await rules();
      return {
        seller: {
          legalName: s.seller_legal_name,
          addressLine1: s.seller_address_line1,
          addressLine2: s.seller_address_line2,
          postalCode: s.seller_postal_code,
          city: s.seller_city,
          country: s.seller_country as TaxSettings['seller']['country'],
          vatNumber: s.seller_vat_number,
          email: s.seller_email,
        },
        invoicePrefix: s.invoice_prefix,
        pricesIncludeTax: s.prices_include_tax,
        reverseCharge: s.reverse_charge,
        stripeAutomaticTax: s.stripe_automatic_tax,
        rates: rates.map((r) => ({ country: r.country as TaxSettings['seller']['country'], rateBp: r.rate_bp })),
      };
    },

    /** Saves the tax settings; `onSaved` runs in the same transaction (the audit entry). */
    async saveTaxSettings(
      actor: Actor,
      input: TaxSettings,
      onSaved?: (trx: Trx, before: TaxSettings, after: TaxSettings) => Promise<void>,
    ): Promise<TaxSettings> {
      const before = await this.getTaxSettings();
      const seller = input.seller;
      const vat = seller.vatNumber ? (normalizeVatNumber(seller.country, seller.vatNumber) ?? null) : null;
      await billingRepo.transaction(async (trx) => {
        await repo.saveTaxSettings(
          {
            seller_legal_name: seller.legalName,
            seller_address_line1: seller.addressLine1,
            seller_address_line2: seller.addressLine2,
            seller_postal_code: seller.postalCode.toUpperCase(),
            seller_city: seller.city,
            seller_country: seller.country,
            seller_vat_number: vat,
            seller_email: seller.email,
            invoice_prefix: input.invoicePrefix,
            prices_include_tax: input.pricesIncludeTax,
            reverse_charge: input.reverseCharge,
            stripe_automatic_tax: input.stripeAutomaticTax,
            updated_by: actor.userId,
          },
          input.rates.map((r) => ({ country: r.country, rate_bp: r.rateBp })),
          trx,
        );
        if (onSaved) {
          const after = { ...input, seller: { ...seller, vatNumber: vat } };
          await onSaved(trx, before, after);
        }
      });
      return this.getTaxSettings();
    },

    // --- invoices ---
    async listInvoices(
      filter: { userId?: string } & Partial<AdminPaymentQuery> & { kind?: 'invoice' | 'credit_note' },
    ) {
      const rows = await repo.listInvoices({
        userId: filter.userId,
        kind: filter.kind,
        from: dayStart(filter.from),
        to: dayStart(filter.to, 1),
        q: filter.q,
      });
      return rows.map(
        (r): InvoiceSummary => ({
          id: r.id,
          kind: r.kind,
          number: r.number,
          paymentId: r.payment_id,
          issuedAt: iso(r.issued_at),
          currency: r.currency,
          netAmount: r.net_amount,
          taxAmount: r.tax_amount,
          totalAmount: r.total_amount,
          reverseCharge: r.reverse_charge,
          buyerName: r.buyer.companyName ?? r.buyer.name,
          buyerEmail: r.buyer.email,
          buyerCountry: r.buyer.country,
        }),
      );
    },

    invoicesCsv(invoices: InvoiceSummary[]): string {
      return csv([
        [
          'number',
          'kind',
          'issued_at',
          'buyer',
          'buyer_email',
          'buyer_country',
          'currency',
          'net',
          'tax',
          'total',
          'reverse_charge',
        ],
        ...invoices.map((i) => [
          i.number,
          i.kind,
          i.issuedAt,
          i.buyerName,
          i.buyerEmail,
          i.buyerCountry,
          i.currency,
          decimal(i.netAmount),
          decimal(i.taxAmount),
          decimal(i.totalAmount),
          i.reverseCharge,
        ]),
      ]);
    },

    /** The PDF of an invoice or credit note: the payer's own, or any for an admin; others' answer 404. */
    async invoicePdf(actor: Actor, invoiceId: string): Promise<{ number: string; pdf: Uint8Array }> {
      const row = await repo.findInvoice(invoiceId);
      if (!row || (!actor.isAdmin && row.user_id !== actor.userId)) throw notFound('Invoice');
      const corrected = row.kind === 'credit_note' ? await repo.invoiceForPayment(row.payment_id) : undefined;
      const doc: InvoiceDocument = {
        kind: row.kind,
        number: row.number,
        issuedAt: new Date(row.issued_at),
        correctsNumber: corrected?.number ?? null,
        currency: row.currency,
        seller: row.seller,
        buyer: row.buyer,
        lines: row.lines,
        netAmount: row.net_amount,
        taxAmount: row.tax_amount,
        totalAmount: row.total_amount,
        reverseCharge: row.reverse_charge,
      };
      return { number: row.number, pdf: await renderInvoicePdf(doc) };
    },

    // --- admin payments ---
    async adminPayments(query: AdminPaymentQuery): Promise<AdminPayment[]> {
      const rows = await repo.listPayments({
        status: query.status,
        from: dayStart(query.from),
        to: dayStart(query.to, 1),
        q: query.q,
      });
      return rows.map((p) => ({
        id: p.id,
        userId: p.user_id,
        userEmail: p.user_email ?? null,
        provider: p.provider,
        providerPaymentId: p.provider_payment_id,
        description: p.description,
        amount: p.amount,
        refundedAmount: p.refunded_amount,
        currency: p.currency,
        status: p.status,
        invoiceNumber: p.our_invoice_number ?? p.invoice_number,
        createdAt: iso(p.created_at),
        creditsAmount: p.checkout_kind === 'token' ? (p.credits_amount ?? null) : null,
        subscriptionId: p.subscription_id,
      }));
    },

    paymentsCsv(payments: AdminPayment[]): string {
      return csv([
        [
          'created_at',
          'customer',
          'description',
          'status',
          'currency',
          'amount',
          'refunded',
          'invoice',
          'provider',
          'provider_payment_id',
        ],
        ...payments.map((p) => [
          p.createdAt,
          p.userEmail,
          p.description,
          p.status,
          p.currency,
          decimal(p.amount),
          decimal(p.refundedAmount),
          p.invoiceNumber,
          p.provider,
          p.providerPaymentId,
        ]),
      ]);
    },

    async health(): Promise<WebhookHealth> {
      const since = new Date(clock().getTime() - 30 * 86_400_000);
      const { last, failed } = await billingRepo.eventHealth(provider.name, since);
      const stripe = provider.name === 'stripe';
      return {
        provider: provider.name,
        keysConfigured: stripe ? deps.keys.secretKey : true,
        webhookConfigured: stripe ? deps.keys.webhookSecret : true,
        lastEventAt: last ? iso(last.received_at) : null,
        lastEventType: last?.type ?? null,
        failedEvents: failed,
      };
    },
  };
}
