import type {
  AdminInvoiceQuery,
  AdminPaymentQuery,
  BillingDetailsInput,
  RefundInput,
  TaxSettingsInput,
} from '@portal/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { announceBillingChange } from '../../lib/billing-channel';
import { useRefreshBilling } from './billing.hooks';
import { invoicingKeys } from './billing.keys';
import {
  fetchAdminInvoices,
  fetchAdminPayments,
  fetchBillingDetails,
  fetchInvoices,
  fetchTaxInfo,
  fetchTaxSettings,
  refundPayment,
  saveBillingDetails,
  saveTaxSettings,
} from './invoicing.api';

export function useBillingDetails(orgId?: string) {
  return useQuery({ queryKey: invoicingKeys.details(orgId), queryFn: () => fetchBillingDetails(orgId) });
}

export function useSaveBillingDetails(orgId?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BillingDetailsInput) => saveBillingDetails(body, orgId),
    onSuccess: (data) => queryClient.setQueryData(invoicingKeys.details(orgId), data),
  });
}

export function useInvoices() {
  return useQuery({ queryKey: invoicingKeys.invoices, queryFn: fetchInvoices });
}

export function useTaxInfo() {
  return useQuery({ queryKey: invoicingKeys.taxInfo, queryFn: fetchTaxInfo, staleTime: 5 * 60_000 });
}

export function useTaxSettings() {
  return useQuery({ queryKey: invoicingKeys.taxSettings, queryFn: fetchTaxSettings });
}

export function useSaveTaxSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TaxSettingsInput) => saveTaxSettings(body),
    onSuccess: (data) => {
      queryClient.setQueryData(invoicingKeys.taxSettings, data);
      return queryClient.invalidateQueries({ queryKey: invoicingKeys.taxInfo });
    },
  });
}

export function useAdminInvoices(query: Omit<AdminInvoiceQuery, 'format'>) {
  return useQuery({
    queryKey: invoicingKeys.adminInvoices(query),
    queryFn: () => fetchAdminInvoices(query),
    placeholderData: keepPreviousData,
  });
}

export function useAdminPayments(query: Omit<AdminPaymentQuery, 'format'>) {
  return useQuery({
    queryKey: invoicingKeys.adminPayments(query),
    queryFn: () => fetchAdminPayments(query),
    placeholderData: keepPreviousData,
  });
}

export function useRefund() {
  const queryClient = useQueryClient();
  const refresh = useRefreshBilling();
  return useMutation({
    mutationFn: ({ paymentId, body }: { paymentId: string; body: RefundInput }) => refundPayment(paymentId, body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: invoicingKeys.allAdminPayments }),
        queryClient.invalidateQueries({ queryKey: invoicingKeys.allAdminInvoices }),
        queryClient.invalidateQueries({ queryKey: invoicingKeys.invoices }),
        refresh(),
      ]).then(announceBillingChange),
  });
}
