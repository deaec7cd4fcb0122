import type { PricingProduct } from '@portal/contract';
import { createContext, useContext, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { MessageDialog } from '../../components/dialogs';
import { useModal } from '../../components/modal';
import { apiError } from '../../lib/api';
import { createCheckout } from './billing.api';

/** Spec §4: the checkout's URL in a new tab, or in this window when the tab is blocked; answers which. */
export function openCheckoutUrl(url: string, win: Window = window): 'tab' | 'window' {
  if (win.open(url, '_blank')) return 'tab';
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
 * Spec §4 buy button: a loading label while the checkout session is created, then its URL opens in a new tab (this
 * window if the tab is blocked); a failure shows an error modal. The URL is the portal's own checkout page, where the
 * session is paid (docs/adr/0031); this tab hears of the purchase through the billing channel.
 */
export function BuyButton({
  product,
  disabled,
  onOpened,
  className = '',
}: {
  product: Pick<PricingProduct, 'priceId' | 'type' | 'name'>;
  disabled?: boolean;
  /** After the checkout page opened in a new tab (e.g. close the pricing modal). */
  onOpened?: () => void;
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
      if (openCheckoutUrl(url) === 'tab') onOpened?.();
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
