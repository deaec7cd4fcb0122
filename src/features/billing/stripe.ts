import type { Stripe } from '@stripe/stripe-js';

let loading: Promise<Stripe> | undefined;

/**
 * Stripe.js for the Stripe provider's embedded checkout and Payment Element, loaded on first use only: the `pure`
 * entry adds Stripe's script when asked, not on import, so a portal on the sandbox never contacts Stripe.
 */
export function stripeJs(): Promise<Stripe> {
  const key = import.meta.env.VITE_STRIPE_PUBLISHABLE_KEY?.trim();
  if (!key) return Promise.reject(new Error('VITE_STRIPE_PUBLISHABLE_KEY is not set in this build'));
  loading ??= import('@stripe/stripe-js/pure')
    .then(({ loadStripe }) => loadStripe(key))
    .then((stripe) => {
      if (!stripe) throw new Error('Stripe.js did not load');
      return stripe;
    })
    .catch((err: unknown) => {
      loading = undefined;
      throw err;
    });
  return loading;
}
