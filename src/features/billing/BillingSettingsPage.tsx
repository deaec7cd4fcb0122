import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { CardSection } from '../../components/CardSection';
import { BillingDetailsErrorDialog, NoBillingHistoryDialog } from '../../components/dialogs';
import { useModal } from '../../components/modal';
import { Page } from '../../components/Page';
import { Preloader } from '../../components/Preloader';
import { useFormat } from '../../lib/format';
import { BillingDetailsForm } from './BillingDetailsForm';
import { usePayments, useSubscriptions } from './billing.hooks';
import { downloadInvoicePdf } from './invoicing.api';
import { useInvoices } from './invoicing.hooks';
import { PaymentMethodsSection } from './PaymentMethodsSection';
import { RenewalFailedBanner } from './RenewalFailedBanner';

/**
 * /settings/billing: saved cards, payment history with invoices, billing details. A failed read shows 'Could Not Retrieve Billing Details';
 * no payments and no subscriptions shows 'No Billing History' (spec §8).
 */
export function BillingSettingsPage() {
  const { t } = useTranslation('billing');
  const payments = usePayments();
  const subscriptions = useSubscriptions();
  const modal = useModal();
  const format = useFormat();
  const invoices = useInvoices();
  const shown = useRef<'error' | 'empty' | null>(null);

  const failed = payments.isError || subscriptions.isError;
  const empty =
    payments.isSuccess &&
    subscriptions.isSuccess &&
    payments.data.length === 0 &&
    subscriptions.data.subscriptions.length === 0;

  useEffect(() => {
    if (failed && shown.current !== 'error') {
      shown.current = 'error';
      modal.open(({ close }) => <BillingDetailsErrorDialog onClose={close} />);
    } else if (empty && shown.current !== 'empty') {
      shown.current = 'empty';
      modal.open(({ close }) => <NoBillingHistoryDialog onClose={close} />);
    }
  }, [failed, empty, modal]);

  return (
    <Page name="settings-billing" title={t('settings.title')} subtitle={t('settings.subtitle')}>
      <RenewalFailedBanner />
      <PaymentMethodsSection />
      {payments.isPending ? (
        <Preloader />
      ) : (
        <CardSection
          title={t('settings.payments')}
          defaultView="list"
          rows={(payments.data ?? []).map((p) => ({
            id: p.id,
            name: p.description,
            status: p.status === 'paid' ? 'green' : p.status === 'failed' ? 'red' : 'yellow',
            records: {
              date: format.date(p.createdAt),
              amount: format.money(p.amount, p.currency),
              status: t(`payment.${p.status}`),
              invoice: p.invoiceUrl ? (
                <a href={p.invoiceUrl} target="_blank" rel="noopener noreferrer" className="text-accent underline">
                  {p.invoiceNumber ?? t('settings.invoice')}
                </a>
              ) : (
                ''
              ),
            },
          }))}
          columns={[
            { key: 'date', header: t('columns.date') },
            { key: 'amount', header: t('columns.amount') },
            { key: 'status', header: t('columns.status'), colored: true },
            { key: 'invoice', header: t('columns.invoice') },
          ]}
          emptyText={t('settings.noPayments')}
        />
      )}
      <CardSection
        title={t('invoices.title')}
        defaultView="list"
        rows={(invoices.data ?? []).map((i) => ({
          id: i.id,
          name: i.number,
          status: i.kind === 'invoice' ? 'green' : 'blue',
          records: {
            kind: t(`invoices.kind.${i.kind}`),
            date: format.date(i.issuedAt),
            amount: format.money(i.totalAmount, i.currency),
            tax: format.money(i.taxAmount, i.currency),
          },
          actionButton: {
            text: t('invoices.download'),
            color: 'green' as const,
            action: () => void downloadInvoicePdf(i.id, i.number),
          },
        }))}
        columns={[
          { key: 'kind', header: t('invoices.columns.kind') },
          { key: 'date', header: t('columns.date') },
          { key: 'amount', header: t('columns.amount') },
          { key: 'tax', header: t('invoices.columns.tax') },
        ]}
        emptyText={t('invoices.none')}
      />
      <BillingDetailsForm />
    </Page>
  );
}
