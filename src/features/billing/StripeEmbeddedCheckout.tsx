import type { StripeEmbeddedCheckout as EmbeddedCheckout } from '@stripe/stripe-js';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Preloader } from '../../components/Preloader';
import { stripeJs } from './stripe';

/**
 * Stripe's embedded checkout for a Checkout Session created with `ui_mode: 'embedded_page'`, mounted in our page.
 * Stripe reports completion here; the page then follows the session on our server, which asks Stripe.
 */
export default function StripeEmbeddedCheckout({
  clientSecret,
  onComplete,
}: {
  clientSecret: string;
  onComplete: () => void;
}) {
  const { t } = useTranslation('billing');
  const host = useRef<HTMLDivElement>(null);
  const completed = useRef(onComplete);
  completed.current = onComplete;
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');

  useEffect(() => {
    let checkout: EmbeddedCheckout | undefined;
    let gone = false;
    stripeJs()
      .then((stripe) => stripe.createEmbeddedCheckoutPage({ clientSecret, onComplete: () => completed.current() }))
      .then((created) => {
        if (gone || !host.current) return created.destroy();
        checkout = created;
        created.mount(host.current);
        setState('ready');
      })
      .catch(() => !gone && setState('failed'));
    return () => {
      gone = true;
      checkout?.destroy();
    };
  }, [clientSecret]);

  return (
    <div data-testid="stripe-checkout">
      {state === 'loading' && <Preloader label={t('pay.loading')} />}
      {state === 'failed' && (
        <p role="alert" className="text-sm text-status-red">
          {t('pay.stripeFailed')}
        </p>
      )}
      <div ref={host} />
    </div>
  );
}
