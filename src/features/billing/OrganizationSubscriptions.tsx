import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { CardSection } from '../../components/CardSection';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { Preloader } from '../../components/Preloader';
import { useOrganizationSubscriptions } from './billing.hooks';
import { usePricingModal } from './PricingModal';
import { useSubscriptionRows } from './SubscriptionsPage';

/**
 * An organisation's subscriptions on its settings page (docs/adr/0010): every member sees them; the rows carry a
 * cancel or resume action only where the server said the caller's role allows it. Owners and admins also buy here.
 */
export function OrganizationSubscriptions({ orgId, canBuy }: { orgId: string; canBuy: boolean }) {
  const { t } = useTranslation('billing');
  const subscriptions = useOrganizationSubscriptions(orgId);
  const toRow = useSubscriptionRows({ orgId });
  const pricing = usePricingModal();

  return (
    <section
      aria-labelledby="org-subscriptions"
      className="flex flex-col gap-4 rounded-2xl border border-line bg-panel p-5"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="org-subscriptions" className="text-base font-semibold text-ink">
          {t('organization.title')}
        </h2>
        {canBuy && (
          <Button size="sm" onClick={() => pricing.openSubscriptions('all', orgId)}>
            {t('organization.buy')}
          </Button>
        )}
      </div>
      {subscriptions.isPending ? (
        <Preloader />
      ) : subscriptions.isError ? (
        <GenericErrorBlock />
      ) : (
        <CardSection
          defaultView="list"
          rows={subscriptions.data.map(toRow)}
          columns={[
            { key: 'status', header: t('columns.status'), colored: true },
            { key: 'price', header: t('columns.price') },
            { key: 'period', header: t('columns.period') },
            { key: 'user', header: t('organization.boughtBy') },
          ]}
          emptyText={t('organization.none')}
        />
      )}
    </section>
  );
}
