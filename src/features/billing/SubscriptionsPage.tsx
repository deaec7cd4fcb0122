import type { Subscription } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { type CardRow, CardSection } from '../../components/CardSection';
import { UnexpectedErrorDialog } from '../../components/dialogs';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { useModal } from '../../components/modal';
import { Page } from '../../components/Page';
import { Preloader } from '../../components/Preloader';
import type { StatusColor } from '../../components/StatCard';
import { useFormat } from '../../lib/format';
import {
  type SubscriptionScope,
  useSubscriptionAction,
  useSubscriptionPricingTables,
  useSubscriptions,
} from './billing.hooks';
import { PricingTables } from './PricingGrid';
import { usePricingModal } from './PricingModal';
import { RenewalFailedBanner } from './RenewalFailedBanner';

export const STATUS_COLOR: Record<Subscription['status'], StatusColor> = {
  active: 'green',
  cancelling: 'yellow',
  cancelled: 'red',
  past_due: 'red',
  expired: 'blue',
};

/**
 * Cancel / resume actions of a subscription row, for the owner's page, the admin page and an organisation's
 * settings. The admin and organisation rows also name who bought the subscription (`user`).
 */
export function useSubscriptionRows(scope: SubscriptionScope = 'user') {
  const { t } = useTranslation('billing');
  const format = useFormat();
  const modal = useModal();
  const action = useSubscriptionAction(scope);
  const admin = scope === 'admin';
  const run = (kind: 'cancel' | 'resume' | 'end', subscriptionId: string) =>
    action.mutate(
      { action: kind, subscriptionId },
      { onError: () => modal.open(({ close }) => <UnexpectedErrorDialog onClose={close} />) },
    );
  return (s: Subscription & { userEmail?: string | null }): CardRow => ({
    id: s.id,
    name: s.productName,
    status: STATUS_COLOR[s.status],
    records: {
      ...(scope !== 'user' && { user: s.userEmail ?? s.userId }),
      status: <span data-testid={`status-${s.id}`}>{t(`status.${s.status}`)}</span>,
      price: s.billable
        ? `${format.money(s.amount, s.currency)}${s.interval ? ` ${t(`card.per.${s.interval}`)}` : ''}`
        : t('subscriptions.manual'),
      period:
        s.status === 'cancelling'
          ? t('subscriptions.endsOn', { date: format.date(s.currentPeriodEnd) })
          : s.endedAt
            ? t('subscriptions.endedOn', { date: format.date(s.endedAt) })
            : t('subscriptions.renewsOn', { date: format.date(s.currentPeriodEnd) }),
    },
    actionButton: s.canCancel
      ? { text: t('subscriptions.cancel'), color: 'red', action: () => run('cancel', s.id) }
      : s.canResume
        ? { text: t('subscriptions.resume'), color: 'green', action: () => run('resume', s.id) }
        : admin && (s.status === 'past_due' || s.status === 'cancelling')
          ? { text: t('admin.end'), color: 'red', action: () => run('end', s.id) }
          : undefined,
  });
}

/** /subscriptions: the user's subscriptions with cancel/resume, and the plans for sale. */
export function SubscriptionsPage() {
  const { t } = useTranslation('billing');
  const subscriptions = useSubscriptions();
  const tables = useSubscriptionPricingTables();
  const pricing = usePricingModal();
  const toRow = useSubscriptionRows();

  return (
    <Page
      name="subscriptions"
      title={t('subscriptions.title')}
      subtitle={t('subscriptions.subtitle')}
      actions={
        <Button onClick={() => pricing.openSubscriptions()} data-testid="open-subscription-pricing">
          {t('subscriptions.buy')}
        </Button>
      }
    >
      <RenewalFailedBanner />
      {subscriptions.isPending ? (
        <Preloader />
      ) : subscriptions.isError ? (
        <GenericErrorBlock />
      ) : (
        <CardSection
          title={t('subscriptions.yours')}
          rows={subscriptions.data.subscriptions.map(toRow)}
          columns={[
            { key: 'status', header: t('columns.status'), colored: true },
            { key: 'price', header: t('columns.price') },
            { key: 'period', header: t('columns.period') },
          ]}
          emptyText={t('subscriptions.none')}
        />
      )}
      <section className="flex flex-col gap-4">
        <h2 className="text-base font-semibold text-ink">{t('subscriptions.plans')}</h2>
        {tables.isPending ? (
          <Preloader />
        ) : tables.isError ? (
          <GenericErrorBlock />
        ) : (
          <PricingTables tables={tables.data} />
        )}
      </section>
    </Page>
  );
}
