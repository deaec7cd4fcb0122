import type { FastifyPluginAsync } from 'fastify';
import type Stripe from 'stripe';
import type { Database } from '../../db/client.ts';
import { createInvoicingModule, type Invoicing, type VatVerifier } from '../invoicing/index.ts';
import { createAccessGrantsWriter, type GrantsWriter } from './billing.grants.ts';
import { createTokenLedger, type TokenLedger } from './billing.ledger.ts';
import { createBillingRepo } from './billing.repo.ts';
import { billingRoutes } from './billing.routes.ts';
import {
  type BillingService,
  type BillingServiceDeps,
  createBillingService,
  type OrganizationRoles,
} from './billing.service.ts';
import type { PaymentProvider } from './providers/provider.ts';
import { createSandboxProvider } from './providers/sandbox.ts';
import { createStripeClient, createStripeProvider } from './providers/stripe.ts';
import { sandboxRoutes } from './sandbox.routes.ts';

export { insufficientTokens, type TokenLedger } from './billing.ledger.ts';
export { seedDemoProducts } from './billing.seed.ts';
export { type OrganizationRoles, paymentsNotConfigured, providerUnavailable } from './billing.service.ts';

/** The personal token ledger every module that spends or grants tokens shares; `notify` hears of low balances. */
export function createLedger(db: Database, notify?: Parameters<typeof createTokenLedger>[0]['notify']): TokenLedger {
  return createTokenLedger({ repo: createBillingRepo(db), notify });
}

export interface BillingOptions {
  /** `sandbox` (default, offline) or `stripe` (needs a secret key or an injected client). */
  provider?: 'sandbox' | 'stripe';
  stripeSecretKey?: string;
  stripeWebhookSecret?: string;
  /** Tests inject an SDK instance whose outgoing calls are replaced. */
  stripeClient?: Stripe;
  /** Public address of the portal, for checkout return links and sandbox pages. */
  publicUrl?: string;
  clock?: () => Date;
  grants?: GrantsWriter;
  /** The mails payments cause (receipts, failed renewals) and the ledger's low-balance notice. */
  notices?: BillingServiceDeps['notices'];
  /** The personal token ledger, built once (createLedger) and shared with the modules that spend tokens. */
  ledger?: TokenLedger;
  /** The app's logger: callers get a 502 or the last known state when the provider fails; the cause goes here. */
  log?: BillingServiceDeps['log'];
  /** Production: checkouts are refused until the seller's details and tax rates are set (docs/adr/0061). */
  requireTaxSetup?: boolean;
  /** Where customers' VAT numbers are confirmed; none by default (an admin confirms them). */
  vatVerifier?: VatVerifier;
}

export interface BillingModule {
  service: BillingService;
  invoicing: Invoicing;
  provider: PaymentProvider;
  routes: FastifyPluginAsync;
}

/** Composition of the billing module: repo, ledger, provider, service and their routes. */
export function createBillingModule(
  deps: BillingOptions & { db: Database; organizations: OrganizationRoles },
): BillingModule {
  const { db, organizations, ...options } = deps;
  const publicUrl = (options.publicUrl ?? 'http://localhost:8080').replace(/\/$/, '');
  const repo = createBillingRepo(db);
  const ledger = options.ledger ?? createTokenLedger({ repo });
  const sandbox = createSandboxProvider({ db, publicUrl, clock: options.clock });
  let provider: PaymentProvider = sandbox;
  if (options.provider === 'stripe') {
    const stripe =
      options.stripeClient ?? (options.stripeSecretKey ? createStripeClient(options.stripeSecretKey) : undefined);
    if (!stripe) throw new Error('PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY');
    provider = createStripeProvider({ stripe, webhookSecret: options.stripeWebhookSecret });
  }
  const { invoicing, routes: invoicingRoutes } = createInvoicingModule({
    db,
    billingRepo: repo,
    ledger,
    provider,
    roleOf: (orgId, userId) => organizations.roleOf(orgId, userId),
    keys: { secretKey: Boolean(options.stripeSecretKey), webhookSecret: Boolean(options.stripeWebhookSecret) },
    clock: options.clock,
    log: options.log,
    ...(options.vatVerifier && { vatVerifier: options.vatVerifier }),
  });
  const service = createBillingService({
    repo,
    invoicing,
    ledger,
    organizations,
    grants: options.grants ?? createAccessGrantsWriter(),
    provider,
    publicUrl,
    clock: options.clock,
    log: options.log,
    notices: options.notices,
    requireTaxSetup: options.requireTaxSetup ?? false,
  });
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(billingRoutes(service));
    await app.register(invoicingRoutes);
    if (provider === sandbox) await app.register(sandboxRoutes(service, sandbox, publicUrl));
  };
  return { service, invoicing, provider, routes };
}
