import { useTranslation } from 'react-i18next';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { ModalTitle, useModal } from '../../components/modal';
import { Preloader } from '../../components/Preloader';
import { track } from '../../lib/analytics';
import { CheckoutOrganization } from './BuyButton';
import { useSubscriptionPricingTables, useTokenProducts } from './billing.hooks';
import { PricingTables } from './PricingGrid';

/** The scrolling body of a pricing modal: 450px high at most on small screens (spec §9). */
function PricingBody({ kind, close, orgId }: { kind: 'subscription' | 'token'; close: () => void; orgId?: string }) {
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

/**
 * Opens the subscription or token pricing table in the modal host and reports it to analytics
 * (subscriptionOpenPricingTable with the network, tokenOpenPricingTable).
 */
export function usePricingModal() {
  const modal = useModal();
  return {
    /** `orgId`: the plans are bought for that organisation. */
    openSubscriptions(network = 'all', orgId?: string) {
      track({ event: 'subscriptionOpenPricingTable', network });
      modal.open(({ close }) => <PricingBody kind="subscription" close={close} orgId={orgId} />, { large: true });
    },
    openTokens() {
      track({ event: 'tokenOpenPricingTable' });
      modal.open(({ close }) => <PricingBody kind="token" close={close} />, { large: true });
    },
  };
}
