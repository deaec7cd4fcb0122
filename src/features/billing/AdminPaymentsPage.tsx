import {
  type AdminPayment,
  type AdminPaymentQuery,
  refundInputSchema,
  type TaxSetup,
  type WebhookHealth,
} from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, ButtonLink } from '../../components/Button';
import { CardSection } from '../../components/CardSection';
import { Checkbox, SelectField, TextField } from '../../components/form';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { ModalTitle, useModal } from '../../components/modal';
import { Page } from '../../components/Page';
import { Preloader } from '../../components/Preloader';
import { StatCard } from '../../components/StatCard';
import { useFormat } from '../../lib/format';
import { useZodForm } from '../../lib/forms/useZodForm';
import { DateRange } from './AdminInvoicesPage';
import { download } from './invoicing.api';
import { useAdminPayments, useRefund } from './invoicing.hooks';

type Status = NonNullable<AdminPaymentQuery['status']>;
const STATUSES: Status[] = ['paid', 'partially_refunded', 'refunded', 'failed'];

function toMinor(text: string): number | undefined {
  const match = /^(\d+)(?:[.,](\d{1,2}))?$/.exec(text.trim());
  return match ? Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0')) : undefined;
}

function RefundForm({ payment, close }: { payment: AdminPayment; close: () => void }) {
  const { t } = useTranslation('billing');
  const format = useFormat();
  const refund = useRefund();
  const refundable = payment.amount - payment.refundedAmount;
  const form = useZodForm({
    initialValues: { amount: format.amountInput(refundable), reason: '', cancelSubscription: false },
    // The server refunds at most what is left; the form says so before asking.
    schema: refundInputSchema.refine((b) => b.amount === undefined || b.amount <= refundable, { path: ['amount'] }),
    toBody: (v) => ({
      amount: toMinor(v.amount) ?? Number.NaN,
      ...(v.reason.trim() && { reason: v.reason.trim() }),
      cancelSubscription: v.cancelSubscription,
    }),
    submit: (body) => refund.mutateAsync({ paymentId: payment.id, body }),
    onSuccess: close,
    ns: 'billing',
    fieldTexts: { amount: t('refund.invalidAmount') },
    failedText: t('buy.errorText'),
  });
  const { amount, reason, cancelSubscription } = form.values;
  const minor = toMinor(amount);

  return (
    <form onSubmit={form.handleSubmit} className="flex flex-col gap-4" data-testid="refund-form">
      <ModalTitle>{t('refund.title')}</ModalTitle>
      <p className="text-sm text-muted">
        {t('refund.intro', {
          description: payment.description,
          email: payment.userEmail ?? '',
          refundable: format.money(refundable, payment.currency),
        })}
      </p>
      {payment.creditsAmount !== null && (
        <p className="text-sm text-muted">{t('refund.tokens', { count: payment.creditsAmount })}</p>
      )}
      <TextField
        label={t('refund.amount')}
        inputMode="decimal"
        value={amount}
        onChange={(e) => form.set('amount')(e.target.value)}
        error={form.errors.amount ?? form.general}
      />
      <TextField
        label={t('refund.reason')}
        value={reason}
        maxLength={500}
        onChange={(e) => form.set('reason')(e.target.value)}
      />
      {payment.subscriptionId && (
        <Checkbox
          label={t('refund.cancelSubscription')}
          checked={cancelSubscription}
          onChange={(e) => form.set('cancelSubscription')(e.target.checked)}
        />
      )}
      <div className="flex justify-end gap-3">
        <Button variant="ghost" onClick={close}>
          {t('actions.cancel')}
        </Button>
        <Button type="submit" variant="danger" disabled={form.pending}>
          {t('refund.confirm', { amount: minor ? format.money(minor, payment.currency) : '' })}
        </Button>
      </div>
    </form>
  );
}

function Health({ health }: { health: WebhookHealth }) {
  const { t } = useTranslation('billing');
  const format = useFormat();
  const ok = (value: boolean) => (value ? t('paymentsAdmin.ok') : t('paymentsAdmin.missing'));
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4" data-testid="provider-health">
      <StatCard title={t('paymentsAdmin.provider')} value={t(`paymentsAdmin.providers.${health.provider}`)} />
      <StatCard
        title={t('paymentsAdmin.keys')}
        value={`${ok(health.keysConfigured)} / ${ok(health.webhookConfigured)}`}
      />
      <StatCard
        title={t('paymentsAdmin.lastEvent')}
        value={health.lastEventAt ? format.date(health.lastEventAt) : t('paymentsAdmin.noEvents')}
        hint={health.lastEventType ?? undefined}
      />
      <StatCard title={t('paymentsAdmin.failures')} value={String(health.failedEvents)} />
    </div>
  );
}

/** While the seller or a rate is missing, production takes no payment: the banner says what to set (docs/adr/0061). */
function TaxSetupBanner({ setup }: { setup: TaxSetup }) {
  const { t } = useTranslation('billing');
  if (setup.ready) return null;
  return (
    <div role="alert" data-testid="tax-setup-banner" className="rounded-2xl border border-status-red/60 bg-panel p-4">
      <p className="font-semibold text-ink">{t('paymentsAdmin.setupTitle')}</p>
      <p className="mt-1 text-sm text-muted">{t('paymentsAdmin.setupIntro')}</p>
      <ul className="mt-2 list-disc pl-5 text-sm text-ink">
        {setup.sellerFieldsMissing.length > 0 && (
          <li>
            {t('paymentsAdmin.setupSeller', {
              fields: setup.sellerFieldsMissing.map((field) => t(`tax.seller.${field}`)).join(', '),
            })}
          </li>
        )}
        {setup.ratesMissing.length > 0 && (
          <li>{t('paymentsAdmin.setupRates', { countries: setup.ratesMissing.join(', ') })}</li>
        )}
      </ul>
      <ButtonLink className="mt-3" variant="secondary" to="/admin/settings/tax-management">
        {t('paymentsAdmin.setupFix')}
      </ButtonLink>
    </div>
  );
}

/** /admin/settings/payments: the provider and its webhook's health, every payment, filters, CSV, refunds. */
export function AdminPaymentsPage() {
  const { t } = useTranslation('billing');
  const format = useFormat();
  const modal = useModal();
  const [status, setStatus] = useState<Status | ''>('');
  const [range, setRange] = useState({ from: '', to: '' });
  const [q, setQ] = useState('');
  const query = {
    ...(status && { status }),
    ...(range.from && { from: range.from }),
    ...(range.to && { to: range.to }),
    ...(q.trim() && { q: q.trim() }),
  };
  const payments = useAdminPayments(query);
  const refundable = (p: AdminPayment) =>
    (p.status === 'paid' || p.status === 'partially_refunded') && p.amount > p.refundedAmount;

  return (
    <Page name="admin-settings-payments" title={t('paymentsAdmin.title')} subtitle={t('paymentsAdmin.subtitle')}>
      {payments.data && <TaxSetupBanner setup={payments.data.taxSetup} />}
      {payments.data && <Health health={payments.data.health} />}
      <div className="grid grid-cols-1 items-end gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <SelectField
          label={t('columns.status')}
          value={status}
          onChange={(e) => setStatus(e.target.value as Status | '')}
          options={[
            { value: '', label: t('filters.all') },
            ...STATUSES.map((s) => ({ value: s, label: t(`payment.${s}`) })),
          ]}
        />
        <DateRange from={range.from} to={range.to} onChange={setRange} />
        <TextField label={t('filters.search')} icon="search" value={q} onChange={(e) => setQ(e.target.value)} />
        <Button
          variant="secondary"
          onClick={() => void download('/admin/payments', { ...query, format: 'csv' }, 'payments.csv')}
        >
          {t('filters.csv')}
        </Button>
      </div>
      {payments.isPending ? (
        <Preloader />
      ) : payments.isError ? (
        <GenericErrorBlock />
      ) : (
        <CardSection
          defaultView="list"
          rows={payments.data.payments.map((p) => ({
            id: p.id,
            name: p.description,
            status: p.status === 'paid' ? 'green' : p.status === 'failed' ? 'red' : 'yellow',
            records: {
              user: p.userEmail ?? p.userId,
              date: format.date(p.createdAt),
              amount: format.money(p.amount, p.currency),
              refunded: p.refundedAmount ? format.money(p.refundedAmount, p.currency) : '',
              status: t(`payment.${p.status}`),
              invoice: p.invoiceNumber ?? '',
            },
            ...(refundable(p) && {
              actionButton: {
                text: t('refund.action'),
                color: 'red' as const,
                action: () => modal.open(({ close }) => <RefundForm payment={p} close={close} />),
              },
            }),
          }))}
          columns={[
            { key: 'user', header: t('columns.user') },
            { key: 'date', header: t('columns.date') },
            { key: 'amount', header: t('columns.amount') },
            { key: 'refunded', header: t('paymentsAdmin.refunded') },
            { key: 'status', header: t('columns.status'), colored: true },
            { key: 'invoice', header: t('columns.invoice') },
          ]}
          emptyText={t('paymentsAdmin.none')}
        />
      )}
    </Page>
  );
}
