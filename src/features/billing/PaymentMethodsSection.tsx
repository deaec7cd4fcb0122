import type { CustomerSecret, PaymentMethod } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { Button } from '../../components/Button';
import { Preloader } from '../../components/Preloader';
import { fetchCustomerSecret, saveSandboxCard } from './billing.api';
import { usePaymentMethodAction, usePaymentMethods } from './billing.hooks';
import { billingKeys } from './billing.keys';
import { CARDS_ANCHOR } from './payment-state';
import { SandboxCardForm } from './SandboxCardForm';

/** Stripe's code is fetched only when a card is added with the Stripe provider (docs/adr/0031). */
const StripeCardSetup = lazy(() => import('./StripeCardSetup'));

const brandName = (brand: string) => brand.charAt(0).toUpperCase() + brand.slice(1);

/**
 * Saved cards on /settings/billing: the list, the default one marked, and adding one through the Payment Element
 * (or the sandbox's card form) on the SetupIntent of `GET /getCustomerSecret`. Renewals charge the default card.
 */
export function PaymentMethodsSection() {
  const { t } = useTranslation('billing');
  const queryClient = useQueryClient();
  const methods = usePaymentMethods();
  const action = usePaymentMethodAction();
  const [adding, setAdding] = useState<CustomerSecret | 'loading'>();
  const [error, setError] = useState<string>();
  const section = useRef<HTMLElement>(null);
  const { hash } = useLocation();

  // The router does not scroll to an anchor; "Update card" of the failed-renewal banner comes here by one.
  useEffect(() => {
    if (hash === `#${CARDS_ANCHOR}`) section.current?.scrollIntoView({ block: 'start' });
  }, [hash]);

  const startAdding = async () => {
    setError(undefined);
    setAdding('loading');
    try {
      setAdding(await fetchCustomerSecret());
    } catch {
      setAdding(undefined);
      setError(t('cards.failed'));
    }
  };
  const saved = () => {
    setAdding(undefined);
    void queryClient.invalidateQueries({ queryKey: billingKeys.paymentMethods });
  };
  const run = (kind: 'default' | 'remove', method: PaymentMethod) => {
    setError(undefined);
    action.mutate({ action: kind, paymentMethodId: method.id }, { onError: () => setError(t('cards.failed')) });
  };

  const list = methods.data?.paymentMethods ?? [];
  return (
    <section
      ref={section}
      id={CARDS_ANCHOR}
      data-testid="payment-methods"
      className="scroll-mt-20 rounded-2xl border border-line bg-panel p-4 sm:p-6"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="text-base font-semibold text-ink">{t('cards.title')}</h2>
          <p className="mt-1 text-sm text-muted">{t('cards.intro')}</p>
        </div>
        {!adding && (
          <Button variant="secondary" onClick={startAdding}>
            {t('cards.add')}
          </Button>
        )}
      </div>
      {methods.isPending ? (
        <Preloader />
      ) : methods.isError ? (
        <p role="alert" className="mt-4 text-sm text-status-red">
          {t('cards.failed')}
        </p>
      ) : list.length === 0 ? (
        <p className="mt-4 text-sm text-muted">{t('cards.none')}</p>
      ) : (
        <ul className="mt-4 divide-y divide-line">
          {list.map((m) => {
            const label = t('cards.label', { brand: brandName(m.brand), last4: m.last4 });
            return (
              <li
                key={m.id}
                className="flex flex-wrap items-center justify-between gap-3 py-3"
                data-testid="payment-method"
              >
                <div>
                  <span className="font-medium text-ink">{label}</span>
                  <span className="ml-3 text-sm text-muted">
                    {t('cards.expires', { month: String(m.expMonth).padStart(2, '0'), year: m.expYear })}
                  </span>
                  {m.isDefault && (
                    <span className="ml-3 rounded-md bg-status-green/15 px-2 py-0.5 text-xs font-semibold text-status-green">
                      {t('cards.default')}
                    </span>
                  )}
                </div>
                <div className="flex gap-2">
                  {!m.isDefault && (
                    <Button
                      size="sm"
                      variant="secondary"
                      disabled={action.isPending}
                      aria-label={t('cards.makeDefaultLabel', { card: label })}
                      onClick={() => run('default', m)}
                    >
                      {t('cards.makeDefault')}
                    </Button>
                  )}
                  <Button
                    size="sm"
                    variant="danger"
                    disabled={action.isPending}
                    aria-label={t('cards.removeLabel', { card: label })}
                    onClick={() => run('remove', m)}
                  >
                    {t('cards.remove')}
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {error && (
        <p role="alert" className="mt-3 text-sm text-status-red">
          {error}
        </p>
      )}
      {adding && (
        <div className="mt-4 border-t border-line pt-4">
          {adding === 'loading' ? (
            <Preloader />
          ) : adding.provider === 'stripe' ? (
            <Suspense fallback={<Preloader label={t('pay.loading')} />}>
              <StripeCardSetup
                clientSecret={adding.clientSecret}
                onSaved={saved}
                onCancel={() => setAdding(undefined)}
              />
            </Suspense>
          ) : (
            <SandboxCardForm
              submitLabel={t('cards.save')}
              onSubmit={async (card) => {
                await saveSandboxCard({ ...card, clientSecret: adding.clientSecret });
                saved();
              }}
              onCancel={() => setAdding(undefined)}
            />
          )}
        </div>
      )}
    </section>
  );
}
