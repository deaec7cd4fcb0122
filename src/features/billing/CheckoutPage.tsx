import type { CheckoutSession } from '@portal/contract';
import { formatMoney } from '@portal/contract';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ButtonLink } from '../../components/Button';
import { MessageDialog } from '../../components/dialogs';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { Page } from '../../components/Page';
import { Preloader } from '../../components/Preloader';
import { track } from '../../lib/analytics';
import { useCheckoutSession, useRefreshBilling } from './billing.hooks';

const reportedKey = (id: string) => `checkout-reported-${id}`;

/** Pushes subscriptionPurchase / tokenPurchase once per session, also across reloads of the return page. */
export function reportPurchase(session: CheckoutSession, storage: Storage = window.sessionStorage): boolean {
  try {
    if (storage.getItem(reportedKey(session.id))) return false;
    storage.setItem(reportedKey(session.id), '1');
  } catch {
    // no storage: the in-memory guard of the page still holds
  }
  track({
    event: session.type === 'Subscription' ? 'subscriptionPurchase' : 'tokenPurchase',
    value: session.value,
    currency: session.currency,
    transactionId: session.transactionId,
  });
  return true;
}

/** /checkout?checkoutSessionId=…: the return page of a checkout. */
export function CheckoutPage() {
  const { t } = useTranslation('billing');
  const [params] = useSearchParams();
  const checkoutSessionId = params.get('checkoutSessionId');
  const cancelled = params.get('cancelled') === 'true';
  const session = useCheckoutSession(checkoutSessionId);
  const refresh = useRefreshBilling();
  const data = session.data;

  useEffect(() => {
    if (data?.status !== 'complete') return;
    reportPurchase(data);
    void refresh();
  }, [data, refresh]);

  let body: React.ReactNode;
  if (!checkoutSessionId) {
    body = <GenericErrorBlock />;
  } else if (session.isPending) {
    body = <Preloader label={t('checkout.loading')} />;
  } else if (session.isError || !data) {
    body = <GenericErrorBlock />;
  } else if (data.status === 'complete') {
    const isSubscription = data.type === 'Subscription';
    body = (
      <MessageDialog
        icon="check"
        tone="green"
        title={t('checkout.successTitle')}
        actions={
          <ButtonLink to={isSubscription ? '/subscriptions' : '/credits'} data-testid="checkout-continue">
            {isSubscription ? t('checkout.toSubscriptions') : t('checkout.toCredits')}
          </ButtonLink>
        }
      >
        <span data-testid="checkout-success">
          {isSubscription
            ? t('checkout.subscriptionText', { name: data.productName, price: formatMoney(data.amount, data.currency) })
            : t('checkout.tokenText', {
                count: data.creditsAmount ?? 0,
                price: formatMoney(data.amount, data.currency),
              })}
        </span>
      </MessageDialog>
    );
  } else if (data.status === 'open' && !cancelled) {
    body = <Preloader label={t('checkout.waiting')} />;
  } else {
    body = (
      <MessageDialog
        icon="warning"
        tone="yellow"
        title={t('checkout.notCompletedTitle')}
        actions={
          <ButtonLink to={data.type === 'Subscription' ? '/subscriptions' : '/credits'} variant="secondary">
            {t('checkout.back')}
          </ButtonLink>
        }
      >
        <span data-testid="checkout-not-completed">{t('checkout.notCompletedText')}</span>
      </MessageDialog>
    );
  }

  return (
    <Page name="checkout" title={t('checkout.title')}>
      <div className="mx-auto w-full max-w-md rounded-xl border border-line bg-surface p-6">{body}</div>
    </Page>
  );
}
