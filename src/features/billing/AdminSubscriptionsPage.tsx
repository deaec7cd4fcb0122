import { type AdminUser, adminAssignSubscriptionSchema, adminTokenGrantSchema } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { CardSection } from '../../components/CardSection';
import { SelectField, TextField } from '../../components/form';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { Page } from '../../components/Page';
import { Preloader } from '../../components/Preloader';
import { useZodForm } from '../../lib/forms/useZodForm';
import { UserPicker } from '../users/UserPicker';
import { useAdminProducts, useAdminSubscriptions, useAssignSubscription, useGrantTokens } from './billing.hooks';
import { useSubscriptionRows } from './SubscriptionsPage';

function GrantTokensForm() {
  const { t } = useTranslation('billing');
  const grant = useGrantTokens();
  const [customer, setCustomer] = useState<AdminUser | null>(null);
  const [granted, setGranted] = useState<number>();
  const form = useZodForm({
    initialValues: { amount: '', reason: '' },
    schema: adminTokenGrantSchema,
    toBody: (v) => ({
      userId: customer?.id ?? '',
      tokenAmount: /^-?\d+$/.test(v.amount) ? Number.parseInt(v.amount, 10) : Number.NaN,
      reason: v.reason.trim(),
    }),
    submit: (body) => {
      setGranted(undefined);
      return grant.mutateAsync(body);
    },
    onSuccess: (r) => setGranted(r.tokenAmount),
    ns: 'billing',
    failedText: t('buy.errorText'),
  });
  const { amount, reason } = form.values;
  const message = form.general ?? (granted === undefined ? undefined : t('admin.granted', { balance: granted }));
  return (
    <form
      className="flex flex-wrap items-end gap-3 rounded-xl border border-line bg-surface p-4"
      onSubmit={form.handleSubmit}
    >
      <UserPicker label={t('admin.user')} value={customer} onChange={setCustomer} className="min-w-64" />
      <TextField
        label={t('admin.tokenAmount')}
        value={amount}
        inputMode="numeric"
        onChange={(e) => form.set('amount')(e.target.value)}
      />
      <TextField
        label={t('admin.reason')}
        value={reason}
        maxLength={200}
        onChange={(e) => form.set('reason')(e.target.value)}
      />
      <Button type="submit" disabled={!customer || !form.valid || form.pending}>
        {t('admin.grant')}
      </Button>
      {message && <p className="w-full text-sm text-muted">{message}</p>}
    </form>
  );
}

/** Gives a user a manual (non-billable) subscription for a number of days. */
function AssignSubscriptionForm() {
  const { t } = useTranslation('billing');
  const products = useAdminProducts({ kind: 'subscription', billable: false });
  const assign = useAssignSubscription();
  const [customer, setCustomer] = useState<AdminUser | null>(null);
  const [assigned, setAssigned] = useState(false);
  const options = (products.data ?? []).map((p) => ({ value: p.priceId, label: p.name }));
  const form = useZodForm({
    initialValues: { priceId: '', days: '30' },
    schema: adminAssignSubscriptionSchema,
    toBody: (v) => ({
      userId: customer?.id ?? '',
      priceId: v.priceId || options[0]?.value || '',
      days: /^\d+$/.test(v.days) ? Number.parseInt(v.days, 10) : Number.NaN,
    }),
    submit: (body) => {
      setAssigned(false);
      return assign.mutateAsync(body);
    },
    onSuccess: () => setAssigned(true),
    ns: 'billing',
    failedText: t('buy.errorText'),
  });
  const chosen = form.values.priceId || options[0]?.value || '';
  const { days } = form.values;
  const message = form.general ?? (assigned ? t('admin.assigned') : undefined);
  return (
    <form
      className="flex flex-wrap items-end gap-3 rounded-xl border border-line bg-surface p-4"
      onSubmit={form.handleSubmit}
    >
      <UserPicker label={t('admin.user')} value={customer} onChange={setCustomer} className="min-w-64" />
      <SelectField
        label={t('admin.product')}
        value={chosen}
        options={options}
        onChange={(e) => form.set('priceId')(e.target.value)}
      />
      <TextField
        label={t('admin.days')}
        value={days}
        inputMode="numeric"
        onChange={(e) => form.set('days')(e.target.value)}
      />
      <Button type="submit" disabled={!customer || !form.valid || form.pending}>
        {t('admin.assign')}
      </Button>
      {message && <p className="w-full text-sm text-muted">{message}</p>}
    </form>
  );
}

/** /admin/subscriptions: every subscription with cancel, resume and end; and the admin token grant. */
export function AdminSubscriptionsPage() {
  const { t } = useTranslation('billing');
  const subscriptions = useAdminSubscriptions();
  const toRow = useSubscriptionRows('admin');
  return (
    <Page name="admin-subscriptions" title={t('admin.subscriptionsTitle')}>
      {subscriptions.isPending ? (
        <Preloader />
      ) : subscriptions.isError ? (
        <GenericErrorBlock />
      ) : (
        <CardSection
          rows={subscriptions.data.map(toRow)}
          filter={(row, q) => JSON.stringify([row.name, row.records.user]).toLowerCase().includes(q.toLowerCase())}
          columns={[
            { key: 'user', header: t('columns.user') },
            { key: 'status', header: t('columns.status'), colored: true },
            { key: 'price', header: t('columns.price') },
            { key: 'period', header: t('columns.period') },
          ]}
          emptyText={t('admin.noSubscriptions')}
        />
      )}
      <section className="flex flex-col gap-3">
        <h2 className="text-base font-semibold text-ink">{t('admin.assignTitle')}</h2>
        <AssignSubscriptionForm />
      </section>
      <section className="flex flex-col gap-3">
        <h2 className="text-base font-semibold text-ink">{t('admin.grantTitle')}</h2>
        <GrantTokensForm />
      </section>
    </Page>
  );
}
