import type { PricingProduct } from '@portal/contract';
import { createContext, useContext, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { MessageDialog } from '../../components/dialogs';
import { useModal } from '../../components/modal';
import { apiError } from '../../lib/api';
import { createCheckout } from './billing.api';

/**
 * Opens a URL in a new tab; when the browser blocks the tab, in this window (spec §4). No 'noopener' feature:
 * with it window.open always answers null and a blocked tab could not be told apart; the opener is cut instead.
 */
export function openCheckoutUrl(url: string, win: Pick<Window, 'open' | 'location'> = window): 'tab' | 'window' {
  const tab = win.open(url, '_blank');
  if (tab) {
    try {
      tab.opener = null;
    } catch {
      // a cross-origin tab may refuse; it is already open
    }
    return 'tab';
  }
  win.location.assign(url);
  return 'window';
}

/**
 * Set around the pricing tables an organisation's owner or admin opened on its settings page: the buy buttons inside
 * purchase for that organisation (docs/adr/0010-organization-billing.md). A context rather than a prop, because
 * the tables, grids and cards between the modal and the button have nothing to do with it.
 */
export const CheckoutOrganization = createContext<string | undefined>(undefined);

/**
 * Spec §4 buy button: a loading label while the checkout link is fetched, then the URL opens in a new tab
 * (the current window if the tab is blocked); a failure shows an error modal.
 */
export function BuyButton({
  product,
  disabled,
  onOpened,
  className = '',
}: {
  product: Pick<PricingProduct, 'priceId' | 'type' | 'name'>;
  disabled?: boolean;
  /** After the checkout page opened (e.g. close the pricing modal). */
  onOpened?: (where: 'tab' | 'window') => void;
  className?: string;
}) {
  const { t } = useTranslation('billing');
  const modal = useModal();
  const orgId = useContext(CheckoutOrganization);
  const [loading, setLoading] = useState(false);

  const buy = async () => {
    setLoading(true);
    try {
      const { url } = await createCheckout(product.type, product.priceId, orgId);
      // Not `onOpened?.(openCheckoutUrl(url))`: without a callback that would skip opening the page altogether.
      const where = openCheckoutUrl(url);
      onOpened?.(where);
    } catch (error) {
      const reason = apiError(error);
      modal.open(({ close }) => (
        <MessageDialog
          title={t('buy.errorTitle')}
          actions={
            <Button variant="secondary" onClick={close} data-autofocus>
              {t('actions.close')}
            </Button>
          }
        >
          <span data-testid="checkout-error">
            {reason?.code === 'already_subscribed'
              ? t(orgId ? 'buy.organizationAlreadySubscribed' : 'buy.alreadySubscribed')
              : t('buy.errorText')}
          </span>
        </MessageDialog>
      ));
    } finally {
      setLoading(false);
    }
  };

  return (
    <Button
      className={`w-full ${className}`}
      onClick={buy}
      disabled={disabled || loading}
      aria-busy={loading}
      data-testid={`buy-${product.priceId}`}
    >
      {loading ? t('buy.loading') : t('buy.label')}
    </Button>
  );
}
