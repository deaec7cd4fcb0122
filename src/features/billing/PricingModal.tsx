import { Suspense } from 'react';
import { useModal } from '../../components/modal';
import { Preloader } from '../../components/Preloader';
import { track } from '../../lib/analytics';
import { lazyWithQueries } from '../../lib/query-client-slot';

// The header opens it from every page; its products, hooks and schemas load when it opens.
const PricingBody = lazyWithQueries(async () => (await import('./PricingBody')).PricingBody);

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
      modal.open(
        ({ close }) => (
          <Suspense fallback={<Preloader />}>
            <PricingBody kind="subscription" close={close} orgId={orgId} />
          </Suspense>
        ),
        { large: true },
      );
    },
    openTokens() {
      track({ event: 'tokenOpenPricingTable' });
      modal.open(
        ({ close }) => (
          <Suspense fallback={<Preloader />}>
            <PricingBody kind="token" close={close} />
          </Suspense>
        ),
        { large: true },
      );
    },
  };
}
