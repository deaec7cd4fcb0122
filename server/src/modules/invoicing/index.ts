import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.ts';
import { createInvoicingRepo } from './invoicing.repo.ts';
import { invoicingRoutes } from './invoicing.routes.ts';
import { createInvoicing, type Invoicing, type InvoicingDeps } from './invoicing.service.ts';

export type {
  BillingPayments,
  CustomerDetails,
  CustomerProvider,
  Invoicing,
  RefundLedger,
} from './invoicing.service.ts';
export { seedDemoSeller } from './tax.seed.ts';
export type { VatVerifier } from './vat-verifier.ts';

export interface InvoicingModuleDeps extends Omit<InvoicingDeps, 'repo'> {
  db: Database;
}

export interface InvoicingModule {
  invoicing: Invoicing;
  routes: FastifyPluginAsync;
}

/**
 * Billing details, tax settings, invoices, credit notes and refunds (docs/adr/0029). Billing builds it and hands in
 * its payments, the token ledger and the payment provider; billing uses invoicing, never the reverse.
 */
export function createInvoicingModule(deps: InvoicingModuleDeps): InvoicingModule {
  const { db, ...rest } = deps;
  const invoicing = createInvoicing({ ...rest, repo: createInvoicingRepo(db) });
  return { invoicing, routes: invoicingRoutes(invoicing) };
}
