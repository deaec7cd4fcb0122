import Cookies from 'js-cookie';

/** Set once a demo request went through; while present the page shows 'Thank you!' instead of step 1. */
export const DEMO_SUBMITTED_COOKIE = 'demo_request_submitted';
/** Spec §9: the demo-submitted cookie lives 86400 seconds. */
export const DEMO_SUBMITTED_COOKIE_MAX_AGE_S = 86_400;

export function hasSubmittedDemo(): boolean {
  return Cookies.get(DEMO_SUBMITTED_COOKIE) !== undefined;
}

export function markDemoSubmitted(): void {
  Cookies.set(DEMO_SUBMITTED_COOKIE, '1', {
    // js-cookie counts expiry in days.
    expires: DEMO_SUBMITTED_COOKIE_MAX_AGE_S / 86_400,
    sameSite: 'lax',
    secure: window.location.protocol === 'https:',
  });
}
