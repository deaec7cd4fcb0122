import type {
  AdminInvoiceQuery,
  AdminPaymentQuery,
  AdminPayments,
  BillingDetailsAnswer,
  BillingDetailsInput,
  InvoiceSummary,
  Refund,
  RefundInput,
  TaxInfo,
  TaxSettings,
  TaxSettingsInput,
} from '@portal/contract';
import { api, download } from '../../lib/api';

export { download };

/** Billing details, tax settings, invoices, payments and refunds (docs/adr/0029). */

const detailsPath = (orgId?: string) => (orgId ? `/org/${orgId}/billing/details` : '/billing/details');

export async function fetchBillingDetails(orgId?: string): Promise<BillingDetailsAnswer> {
  return (await api.get<BillingDetailsAnswer>(detailsPath(orgId))).data;
}

export async function saveBillingDetails(body: BillingDetailsInput, orgId?: string): Promise<BillingDetailsAnswer> {
  return (await api.put<BillingDetailsAnswer>(detailsPath(orgId), body)).data;
}

export async function fetchTaxInfo(): Promise<TaxInfo> {
  return (await api.get<TaxInfo>('/billing/tax-info')).data;
}

export async function fetchInvoices(): Promise<InvoiceSummary[]> {
  return (await api.get<{ invoices: InvoiceSummary[] }>('/billing/invoices')).data.invoices;
}

export async function fetchAdminInvoices(query: Omit<AdminInvoiceQuery, 'format'>): Promise<InvoiceSummary[]> {
  return (await api.get<{ invoices: InvoiceSummary[] }>('/admin/invoices', { params: query })).data.invoices;
}

export async function fetchTaxSettings(): Promise<TaxSettings> {
  return (await api.get<TaxSettings>('/admin/settings/tax')).data;
}

export async function saveTaxSettings(body: TaxSettingsInput): Promise<TaxSettings> {
  return (await api.put<TaxSettings>('/admin/settings/tax', body)).data;
}

export async function fetchAdminPayments(query: Omit<AdminPaymentQuery, 'format'>): Promise<AdminPayments> {
  return (await api.get<AdminPayments>('/admin/payments', { params: query })).data;
}

export async function refundPayment(paymentId: string, body: RefundInput): Promise<Refund> {
  return (await api.post<Refund>(`/admin/payments/${paymentId}/refund`, body)).data;
}

export const downloadInvoicePdf = (id: string, number: string) =>
  download(`/billing/invoices/${id}/pdf`, undefined, `${number}.pdf`);
