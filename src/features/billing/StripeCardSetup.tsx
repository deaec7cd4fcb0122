import type { Stripe, StripeElements } from '@stripe/stripe-js';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { Preloader } from '../../components/Preloader';
import { stripeJs } from './stripe';

/**
 * Stripe's Payment Element on the SetupIntent of `GET /getCustomerSecret`: the card is saved at Stripe with
 * confirmSetup and never passes through the portal. Redirect-based methods come back to the billing page.
 */
export default function StripeCardSetup({
  clientSecret,
  onSaved,
  onCancel,
}: {
  clientSecret: string;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation('billing');
  const host = useRef<HTMLDivElement>(null);
  const stripe = useRef<{ stripe: Stripe; elements: StripeElements }>(undefined);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let gone = false;
    let unmount: (() => void) | undefined;
    stripeJs()
      .then((loaded) => {
        if (gone || !host.current) return;
        const locale = i18n.language === 'nl' ? 'nl' : 'en';
        const elements = loaded.elements({ clientSecret, locale });
        const element = elements.create('payment');
        element.mount(host.current);
        unmount = () => element.destroy();
        stripe.current = { stripe: loaded, elements };
        setState('ready');
      })
      .catch(() => !gone && setState('failed'));
    return () => {
      gone = true;
      unmount?.();
    };
  }, [clientSecret, i18n.language]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe.current) return;
    setBusy(true);
    setError(undefined);
    const { error: refused } = await stripe.current.stripe.confirmSetup({
      elements: stripe.current.elements,
      redirect: 'if_required',
      confirmParams: { return_url: `${window.location.origin}/settings/billing#cards` },
    });
    setBusy(false);
    // Stripe's message for a refused card is already in the customer's language.
    if (refused) setError(refused.message ?? t('pay.failed'));
    else onSaved();
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" data-testid="stripe-card-setup">
      {state === 'loading' && <Preloader label={t('pay.loading')} />}
      {state === 'failed' && (
        <p role="alert" className="text-sm text-status-red">
          {t('pay.stripeFailed')}
        </p>
      )}
      <div ref={host} />
      {error && (
        <p role="alert" className="text-sm text-status-red">
          {error}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={state !== 'ready' || busy} aria-busy={busy}>
          {t('cards.save')}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          {t('actions.cancel')}
        </Button>
      </div>
    </form>
  );
}
