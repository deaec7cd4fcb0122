import Cookies from 'js-cookie';

/** The data-layer events of spec §7, each with its payload. */
export type AnalyticsEvent =
  | { event: 'login'; userId: string; userRole: 'admin' | 'user' }
  | { event: 'subscriptionOpenPricingTable'; network: string }
  | { event: 'tokenOpenPricingTable' }
  | { event: 'subscriptionPurchase'; value: number; currency: string; transactionId: string }
  | { event: 'tokenPurchase'; value: number; currency: string; transactionId: string }
  | { event: 'organizationCreated'; name: string };

type DataLayerEntry = Record<string, unknown>;

declare global {
  interface Window {
    dataLayer?: DataLayerEntry[];
  }
}

function dataLayer(): DataLayerEntry[] {
  window.dataLayer = window.dataLayer ?? [];
  return window.dataLayer;
}

/** Pushes one of the spec's events to the data layer. */
export function track(entry: AnalyticsEvent): void {
  dataLayer().push({ ...entry });
}

/** A page view, pushed on every route change. */
export function trackPageView(path: string, title = document.title): void {
  dataLayer().push({ event: 'page_view', page_path: path, page_title: title, page_location: window.location.href });
}

let injected: string | undefined;

/**
 * Loads the Google Tag Manager container. No id → nothing is loaded. A failure is only logged
 * ('GTM injection failed'), never thrown.
 */
export function injectGtm(containerId: string | undefined, doc: Document = document): boolean {
  if (!containerId) return false;
  if (injected === containerId) return true;
  try {
    dataLayer().push({ 'gtm.start': Date.now(), event: 'gtm.js' });
    const script = doc.createElement('script');
    script.async = true;
    script.src = `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(containerId)}`;
    script.onerror = () => console.warn('GTM injection failed', containerId);
    const head = doc.head ?? doc.getElementsByTagName('head')[0];
    if (!head) throw new Error('no <head>');
    head.appendChild(script);
    injected = containerId;
    return true;
  } catch (error) {
    console.warn('GTM injection failed', error);
    return false;
  }
}

/** For tests. */
export function resetGtmInjection(): void {
  injected = undefined;
}

export const GCLID_KEY = 'gclid';

/**
 * The Google Ads click id (spec §7): the `gclid` cookie, else the `gclid` query parameter, else local storage.
 * A value found in the query is kept in local storage so it survives navigation.
 */
export function readGclid(search: string = window.location.search): string | undefined {
  const fromCookie = Cookies.get(GCLID_KEY);
  if (fromCookie) return fromCookie;
  const fromQuery = new URLSearchParams(search).get(GCLID_KEY);
  if (fromQuery) {
    try {
      window.localStorage.setItem(GCLID_KEY, fromQuery);
    } catch {
      // storage unavailable
    }
    return fromQuery;
  }
  try {
    return window.localStorage.getItem(GCLID_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}
