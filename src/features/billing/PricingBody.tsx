import { useTranslation } from 'react-i18next';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { ModalTitle } from '../../components/modal';
import { Preloader } from '../../components/Preloader';
import { CheckoutOrganization } from './BuyButton';
import { useSubscriptionPricingTables, useTokenProducts } from './billing.hooks';
import { PricingTables } from './PricingGrid';

/** The scrolling body of a pricing modal: 450px high at most on small screens (spec §9). */
export function PricingBody({
  kind,
  close,
  orgId,
}: {
  kind: 'subscription' | 'token';
  close: () => void;
  orgId?: string;
}) {
  const { t } = useTranslation('billing');
  const subscriptions = useSubscriptionPricingTables();
  const tokens = useTokenProducts();
  const query = kind === 'subscription' ? subscriptions : tokens;
  return (
    <div className="flex flex-col gap-4">
      <ModalTitle>{kind === 'subscription' ? t('pricing.subscriptionsTitle') : t('pricing.tokensTitle')}</ModalTitle>
      <div className="max-h-[450px] overflow-y-auto pr-1 md:max-h-none" data-testid="pricing-modal-body">
        {query.isPending ? (
          <Preloader />
        ) : query.isError ? (
          <GenericErrorBlock />
        ) : (
          <CheckoutOrganization.Provider value={orgId}>
            <PricingTables tables={query.data} onOpened={close} />
          </CheckoutOrganization.Provider>
        )}
      </div>
    </div>
  );
}
