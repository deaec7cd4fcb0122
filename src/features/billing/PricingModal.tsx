import { useTranslation } from 'react-i18next';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { ModalTitle, useModal } from '../../components/modal';
import { Preloader } from '../../components/Preloader';
import { track } from '../../lib/analytics';
import { useSubscriptionPricingTables, useTokenProducts } from './billing.hooks';
import { PricingTables } from './PricingGrid';

/** The scrolling body of a pricing modal: 450px high at most on small screens (spec §9). */
function PricingBody({ kind, close }: { kind: 'subscription' | 'token'; close: () => void }) {
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
          <PricingTables tables={query.data} onOpened={close} />
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
    openSubscriptions(network = 'all') {
      track({ event: 'subscriptionOpenPricingTable', network });
      modal.open(({ close }) => <PricingBody kind="subscription" close={close} />, { large: true });
    },
    openTokens() {
      track({ event: 'tokenOpenPricingTable' });
      modal.open(({ close }) => <PricingBody kind="token" close={close} />, { large: true });
    },
  };
}
