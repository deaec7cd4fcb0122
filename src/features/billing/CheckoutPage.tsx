import type { CheckoutSession } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ButtonLink } from '../../components/Button';
import { MessageDialog } from '../../components/dialogs';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { Page } from '../../components/Page';
import { Preloader } from '../../components/Preloader';
import { track } from '../../lib/analytics';
import { announceBillingChange } from '../../lib/billing-channel';
import { useFormat } from '../../lib/format';
import { paySandboxCheckout } from './billing.api';
import { useCheckoutSession, useRefreshBilling } from './billing.hooks';
import { billingKeys } from './billing.keys';
import { SandboxCardForm } from './SandboxCardForm';

/** Stripe's code is fetched only when the Stripe provider's session is paid (docs/adr/0031). */
const StripeEmbeddedCheckout = lazy(() => import('./StripeEmbeddedCheckout'));

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

/**
 * /checkout?checkoutSessionId=…: where a purchase is paid and confirmed, in the tab the buy button opened (spec §4).
 * While the session is open, its buyer gets what pays it with the session and sees the payment form (Stripe's
 * embedded checkout, or the sandbox's card form, docs/adr/0031); once paid, or back from a provider's page, the
 * session is followed until the provider confirms it, and the other tabs (the one with the buy button) hear of it. A
 * purchase for an organisation carries its `orgId` (docs/adr/0010), is read through the organisation and leads back
 * to the organisation's page.
 */
export function CheckoutPage() {
  const { t } = useTranslation('billing');
  const format = useFormat();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const checkoutSessionId = params.get('checkoutSessionId');
  const orgId = params.get('orgId') ?? undefined;
  const cancelled = params.get('cancelled') === 'true';
  const [paid, setPaid] = useState(false);
  const payHere = !paid && !cancelled;
  const session = useCheckoutSession(checkoutSessionId, orgId, payHere);
  const refresh = useRefreshBilling(orgId);
  const data = session.data;
  const pay =
    payHere && data?.status === 'open' && data.provider && data.clientSecret
      ? { provider: data.provider, clientSecret: data.clientSecret }
      : undefined;
  const organizationPage = orgId && `/settings/organization?${new URLSearchParams({ org: orgId })}`;
  const backTo = organizationPage || (data?.type === 'Subscription' ? '/subscriptions' : '/credits');

  /** Paid in the form: from now on the session is followed until the provider confirms it. */
  const onPaid = () => {
    setPaid(true);
    void queryClient.resetQueries({ queryKey: billingKeys.checkout(checkoutSessionId ?? '', orgId) });
  };

  // Once per completed session: a later answer for it is a new `data`, and `refresh` is a new function each render.
  const completed = useRef<string | null>(null);
  useEffect(() => {
    if (data?.status !== 'complete' || completed.current === data.id) return;
    completed.current = data.id;
    reportPurchase(data);
    void refresh();
    announceBillingChange();
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
    const price = format.money(data.amount, data.currency);
    body = (
      <MessageDialog
        icon="check"
        tone="green"
        title={t('checkout.successTitle')}
        actions={
          organizationPage ? (
            <ButtonLink to={organizationPage} data-testid="checkout-continue">
              {t('checkout.toOrganization')}
            </ButtonLink>
          ) : (
            <>
              <ButtonLink
                to={isSubscription ? '/subscriptions' : '/credits'}
                variant="secondary"
                data-testid="checkout-continue"
              >
                {isSubscription ? t('checkout.toSubscriptions') : t('checkout.toCredits')}
              </ButtonLink>
              {/* Issue 17: what to do with the purchase, one click away. */}
              <ButtonLink to="/accounts?create=1" variant={isSubscription ? 'primary' : 'secondary'}>
                {t('checkout.createAccount')}
              </ButtonLink>
              {!isSubscription && <ButtonLink to="/accounts?activate=1">{t('checkout.activateNetwork')}</ButtonLink>}
            </>
          )
        }
      >
        <span data-testid="checkout-success">
          {organizationPage
            ? t('checkout.organizationSubscriptionText', { name: data.productName, price })
            : isSubscription
              ? t('checkout.subscriptionText', { name: data.productName, price })
              : t('checkout.tokenText', { count: data.creditsAmount ?? 0, price })}
        </span>
        {!organizationPage && (
          <span className="mt-2 block" data-testid="checkout-next-steps">
            {t('checkout.nextSteps')} {isSubscription ? t('checkout.nextSubscription') : t('checkout.nextTokens')}
          </span>
        )}
      </MessageDialog>
    );
  } else if (pay) {
    const price = format.money(data.amount, data.currency);
    body = (
      <div data-testid="checkout-pay">
        <h2 className="text-base font-semibold text-ink">{data.productName}</h2>
        <p className="mb-4 text-2xl font-bold text-ink" data-testid="checkout-amount">
          {price}
        </p>
        {pay.provider === 'stripe' ? (
          <>
            <Suspense fallback={<Preloader label={t('pay.loading')} />}>
              <StripeEmbeddedCheckout clientSecret={pay.clientSecret} onComplete={onPaid} />
            </Suspense>
            <ButtonLink to={backTo} variant="ghost" className="mt-4">
              {t('actions.cancel')}
            </ButtonLink>
          </>
        ) : (
          <SandboxCardForm
            submitLabel={t('pay.submit', { price })}
            onSubmit={async (card) => {
              await paySandboxCheckout({ ...card, clientSecret: pay.clientSecret });
              onPaid();
            }}
            onCancel={() => navigate(backTo)}
          />
        )}
      </div>
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
          <ButtonLink to={backTo} variant="secondary">
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
      <div
        className={`mx-auto w-full rounded-xl border border-line bg-surface p-6 ${pay?.provider === 'stripe' ? 'max-w-4xl' : 'max-w-md'}`}
      >
        {body}
      </div>
    </Page>
  );
}
