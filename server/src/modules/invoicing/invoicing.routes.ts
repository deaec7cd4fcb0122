import {
  adminInvoiceQuerySchema,
  adminPaymentQuerySchema,
  adminPaymentsSchema,
  billingDetailsAnswerSchema,
  billingDetailsInputSchema,
  invoiceListSchema,
  invoiceParamsSchema,
  organizationParamsSchema,
  taxInfoSchema,
  taxSettingsInputSchema,
  taxSettingsSchema,
  taxSetupSchema,
  vatVerificationBodySchema,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../http/auth.ts';
import { auditWho, recordAudit } from '../audit/index.ts';
import type { Invoicing } from './invoicing.service.ts';

const tags = ['billing'];

const today = () => new Date().toISOString().slice(0, 10);

/** Billing details, tax settings, invoices and admin payments (docs/adr/0029); refunds are billing's routes. */
export function invoicingRoutes(invoicing: Invoicing): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/billing/details',
      { config: { auth: 'user' }, schema: { tags, response: { 200: billingDetailsAnswerSchema } } },
      async (request) => invoicing.getDetails(actorOf(request)),
    );
    app.put(
      '/billing/details',
      {
        config: { auth: 'user' },
        schema: { tags, body: billingDetailsInputSchema, response: { 200: billingDetailsAnswerSchema } },
      },
      async (request) => invoicing.saveDetails(actorOf(request), request.body),
    );
    app.get(
      '/org/:orgId/billing/details',
      {
        config: { auth: 'user' },
        schema: { tags, params: organizationParamsSchema, response: { 200: billingDetailsAnswerSchema } },
      },
      async (request) => invoicing.getDetails(actorOf(request), request.params.orgId),
    );
    app.put(
      '/org/:orgId/billing/details',
      {
        config: { auth: 'user' },
        schema: {
          tags,
          params: organizationParamsSchema,
          body: billingDetailsInputSchema,
          response: { 200: billingDetailsAnswerSchema },
        },
      },
      async (request) => invoicing.saveDetails(actorOf(request), request.body, request.params.orgId),
    );

    app.get(
      '/billing/tax-info',
      { config: { auth: 'optional' }, schema: { tags, response: { 200: taxInfoSchema } } },
      async () => ({ pricesIncludeTax: await invoicing.pricesIncludeTax() }),
    );

    app.get(
      '/billing/invoices',
      { config: { auth: 'user', apiKey: 'billing:read' }, schema: { tags, response: { 200: invoiceListSchema } } },
      async (request) => ({ invoices: await invoicing.listInvoices({ userId: actorOf(request).userId }) }),
    );
    app.get(
      '/billing/invoices/:invoiceId/pdf',
      { config: { auth: 'user' }, schema: { tags, params: invoiceParamsSchema } },
      async (request, reply) => {
        const { number, pdf } = await invoicing.invoicePdf(actorOf(request), request.params.invoiceId);
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `attachment; filename="${number}.pdf"`)
          .header('cache-control', 'private, no-store')
          .send(Buffer.from(pdf));
      },
    );

    // --- admin ---
    app.get(
      '/admin/invoices',
      { config: { auth: 'admin' }, schema: { tags, querystring: adminInvoiceQuerySchema } },
      async (request, reply) => {
        const { format, ...filter } = request.query;
        const invoices = await invoicing.listInvoices(filter);
        if (format === 'csv') {
          return reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="invoices-${today()}.csv"`)
            .send(invoicing.invoicesCsv(invoices));
        }
        return invoiceListSchema.parse({ invoices });
      },
    );

    app.get(
      '/admin/settings/tax',
      { config: { auth: 'admin' }, schema: { tags, response: { 200: taxSettingsSchema } } },
      async () => invoicing.getTaxSettings(),
    );
    app.put(
      '/admin/settings/tax',
      {
        config: { auth: 'admin' },
        schema: { tags, body: taxSettingsInputSchema, response: { 200: taxSettingsSchema } },
      },
      async (request) => {
        const actor = actorOf(request);
        return invoicing.saveTaxSettings(actor, request.body, async (trx, before, after) => {
          await recordAudit(trx, {
            ...auditWho(request),
            action: 'settings.tax.update',
            target: { type: 'setting', id: 'tax' },
            before,
            after,
          });
        });
      },
    );

    app.get(
      '/admin/settings/tax/setup',
      { config: { auth: 'admin' }, schema: { tags, response: { 200: taxSetupSchema } } },
      async () => invoicing.taxSetup(),
    );

    app.put(
      '/admin/billing-details/vat-verification',
      {
        config: { auth: 'admin' },
        schema: { tags, body: vatVerificationBodySchema, response: { 200: billingDetailsAnswerSchema } },
      },
      async (request) => {
        const { userId, organizationId, verified } = request.body;
        const details = await invoicing.setVatVerified(actorOf(request), request.body, async (trx, after) => {
          await recordAudit(trx, {
            ...auditWho(request),
            action: verified ? 'billing.vat_verified' : 'billing.vat_unverified',
            target: userId ? { type: 'user', id: userId } : { type: 'organization', id: organizationId ?? '' },
            before: null,
            after: { vatNumber: after.vatNumber, vatVerified: after.vatVerified },
          });
        });
        return { details };
      },
    );

    app.get(
      '/admin/payments',
      { config: { auth: 'admin' }, schema: { tags, querystring: adminPaymentQuerySchema } },
      async (request, reply) => {
        const { format, ...filter } = request.query;
        const payments = await invoicing.adminPayments(filter);
        if (format === 'csv') {
          return reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="payments-${today()}.csv"`)
            .send(invoicing.paymentsCsv(payments));
        }
        const [health, taxSetup] = await Promise.all([invoicing.health(), invoicing.taxSetup()]);
        return adminPaymentsSchema.parse({ payments, health, taxSetup });
      },
    );
  };
}
