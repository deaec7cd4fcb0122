/** Tabs of the portal tell each other that something was bought or refunded (docs/adr/0029). */
const BILLING_CHANNEL = 'portal-billing';

/** Tells the portal's other open tabs that billing changed, so their header balance and lists refetch. */
export function announceBillingChange(): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(BILLING_CHANNEL);
  channel.postMessage({ type: 'billing-changed' });
  channel.close();
}

/** Calls `onChange` when another tab announces a billing change; answers the unsubscribe. */
export function onBillingChange(onChange: () => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const channel = new BroadcastChannel(BILLING_CHANNEL);
  channel.onmessage = onChange;
  return () => channel.close();
}
