import type { AdminUser } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { CardSection } from '../../components/CardSection';
import { SelectField, TextField } from '../../components/form';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { Page } from '../../components/Page';
import { Preloader } from '../../components/Preloader';
import { apiError } from '../../lib/api';
import { UserPicker } from '../users/UserPicker';
import { useAdminProducts, useAdminSubscriptions, useAssignSubscription, useGrantTokens } from './billing.hooks';
import { useSubscriptionRows } from './SubscriptionsPage';

function GrantTokensForm() {
  const { t } = useTranslation('billing');
  const grant = useGrantTokens();
  const [customer, setCustomer] = useState<AdminUser | null>(null);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [message, setMessage] = useState<string>();
  return (
    <form
      className="flex flex-wrap items-end gap-3 rounded-xl border border-line bg-surface p-4"
      onSubmit={(event) => {
        event.preventDefault();
        setMessage(undefined);
        grant.mutate(
          { userId: customer?.id ?? '', tokenAmount: Number.parseInt(amount, 10), reason: reason.trim() },
          {
            onSuccess: (r) => setMessage(t('admin.granted', { balance: r.tokenAmount })),
            onError: (e) => setMessage(apiError(e)?.message ?? t('buy.errorText')),
          },
        );
      }}
    >
      <UserPicker label={t('admin.user')} value={customer} onChange={setCustomer} className="min-w-64" />
      <TextField
        label={t('admin.tokenAmount')}
        value={amount}
        inputMode="numeric"
        onChange={(e) => setAmount(e.target.value)}
      />
      <TextField label={t('admin.reason')} value={reason} maxLength={200} onChange={(e) => setReason(e.target.value)} />
      <Button
        type="submit"
        disabled={!customer || !/^-?\d+$/.test(amount) || reason.trim().length < 3 || grant.isPending}
      >
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
  const [priceId, setPriceId] = useState('');
  const [days, setDays] = useState('30');
  const [message, setMessage] = useState<string>();
  const options = (products.data ?? []).map((p) => ({ value: p.priceId, label: p.name }));
  const chosen = priceId || options[0]?.value || '';
  return (
    <form
      className="flex flex-wrap items-end gap-3 rounded-xl border border-line bg-surface p-4"
      onSubmit={(event) => {
        event.preventDefault();
        setMessage(undefined);
        assign.mutate(
          { userId: customer?.id ?? '', priceId: chosen, days: Number.parseInt(days, 10) },
          {
            onSuccess: () => setMessage(t('admin.assigned')),
            onError: (e) => setMessage(apiError(e)?.message ?? t('buy.errorText')),
          },
        );
      }}
    >
      <UserPicker label={t('admin.user')} value={customer} onChange={setCustomer} className="min-w-64" />
      <SelectField
        label={t('admin.product')}
        value={chosen}
        options={options}
        onChange={(e) => setPriceId(e.target.value)}
      />
      <TextField label={t('admin.days')} value={days} inputMode="numeric" onChange={(e) => setDays(e.target.value)} />
      <Button type="submit" disabled={!customer || !chosen || !/^\d+$/.test(days) || assign.isPending}>
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
