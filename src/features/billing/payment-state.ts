import type { PaymentProviderName } from '@portal/contract';

/** What the checkout page needs to show the payment form of a session just created by the buy button. */
export type PaymentState = { pay?: { provider: PaymentProviderName; clientSecret: string } };

/** The checkout page of a session; an organisation's purchase carries the organisation (docs/adr/0010). */
export function checkoutPath(checkoutSessionId: string, orgId?: string): string {
  return `/checkout?${new URLSearchParams({ checkoutSessionId, ...(orgId && { orgId }) })}`;
}

/** The anchor of the saved cards on /settings/billing, where the failed-renewal banner's "Update card" leads. */
export const CARDS_ANCHOR = 'cards';
