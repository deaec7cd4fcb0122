import {
  type AdminInvoiceQuery,
  type AdminPaymentQuery,
  type AdminPayments,
  adminPaymentsSchema,
  type BillingDetailsAnswer,
  type BillingDetailsInput,
  billingDetailsAnswerSchema,
  type InvoiceSummary,
  invoiceListSchema,
  type Refund,
  type RefundInput,
  refundSchema,
  type TaxInfo,
  type TaxSettings,
  type TaxSettingsInput,
  taxInfoSchema,
  taxSettingsSchema,
} from '@portal/contract';
import { api, download } from '../../lib/api';

export { download };

/** Billing details, tax settings, invoices, payments and refunds (docs/adr/0029). */

const detailsPath = (orgId?: string) => (orgId ? `/org/${orgId}/billing/details` : '/billing/details');

export async function fetchBillingDetails(orgId?: string): Promise<BillingDetailsAnswer> {
  return billingDetailsAnswerSchema.parse((await api.get(detailsPath(orgId))).data);
}

export async function saveBillingDetails(body: BillingDetailsInput, orgId?: string): Promise<BillingDetailsAnswer> {
  return billingDetailsAnswerSchema.parse((await api.put(detailsPath(orgId), body)).data);
}

export async function fetchTaxInfo(): Promise<TaxInfo> {
  return taxInfoSchema.parse((await api.get('/billing/tax-info')).data);
}

export async function fetchInvoices(): Promise<InvoiceSummary[]> {
  return invoiceListSchema.parse((await api.get('/billing/invoices')).data).invoices;
}

export async function fetchAdminInvoices(query: Omit<AdminInvoiceQuery, 'format'>): Promise<InvoiceSummary[]> {
  return invoiceListSchema.parse((await api.get('/admin/invoices', { params: query })).data).invoices;
}

export async function fetchTaxSettings(): Promise<TaxSettings> {
  return taxSettingsSchema.parse((await api.get('/admin/settings/tax')).data);
}

export async function saveTaxSettings(body: TaxSettingsInput): Promise<TaxSettings> {
  return taxSettingsSchema.parse((await api.put('/admin/settings/tax', body)).data);
}

export async function fetchAdminPayments(query: Omit<AdminPaymentQuery, 'format'>): Promise<AdminPayments> {
  return adminPaymentsSchema.parse((await api.get('/admin/payments', { params: query })).data);
}

export async function refundPayment(paymentId: string, body: RefundInput): Promise<Refund> {
  return refundSchema.parse((await api.post(`/admin/payments/${paymentId}/refund`, body)).data);
}

export const downloadInvoicePdf = (id: string, number: string) =>
  download(`/billing/invoices/${id}/pdf`, undefined, `${number}.pdf`);
