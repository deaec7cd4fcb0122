import Cookies from 'js-cookie';
import { injectGtm } from '../../lib/analytics';
import { brand } from '../../lib/brand';

/** The visitor's answer to the cookie question, kept for a year. */
export const CONSENT_COOKIE = 'cookie_consent';
const CONSENT_DAYS = 365;

export type Consent = 'granted' | 'denied';

export function readConsent(): Consent | undefined {
  const value = Cookies.get(CONSENT_COOKIE);
  return value === 'granted' || value === 'denied' ? value : undefined;
}

/** Only a brand with a Tag Manager container has anything to ask consent for. */
export function consentNeeded(containerId: string = brand.gtmContainerId): boolean {
  return Boolean(containerId) && readConsent() === undefined;
}

/**
 * Records the answer; a yes loads Tag Manager at once. Nothing outside the portal's origin is asked for before
 * that yes, so the portal also runs on a closed network.
 */
export function answerConsent(answer: Consent, containerId: string = brand.gtmContainerId): void {
  Cookies.set(CONSENT_COOKIE, answer, {
    expires: CONSENT_DAYS,
    sameSite: 'lax',
    secure: location.protocol === 'https:',
  });
  if (answer === 'granted') injectGtm(containerId);
}

/** At start: Tag Manager only for a visitor who said yes before. */
export function startTagManagerIfConsented(containerId: string = brand.gtmContainerId): void {
  if (readConsent() === 'granted') injectGtm(containerId);
}
