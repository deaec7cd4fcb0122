import { describe, expect, it } from 'vitest';
import { spaContentSecurityPolicy } from '../../src/lib/content-security-policy';

const directive = (policy: string, name: string) =>
  policy
    .split('; ')
    .find((d) => d.startsWith(`${name} `))
    ?.split(' ')
    .slice(1) ?? [];

describe("the SPA's Content Security Policy", () => {
  it('loads Tag Manager only for a brand with a container', () => {
    const withGtm = spaContentSecurityPolicy({}, { tagManager: true });
    const without = spaContentSecurityPolicy({}, { tagManager: false });
    expect(directive(withGtm, 'script-src')).toContain('https://www.googletagmanager.com');
    expect(without).not.toContain('googletagmanager');
    expect(without).not.toContain('google-analytics');
  });

  it("frames the real project's auth domain, or the Auth Emulator and nothing else", () => {
    const real = spaContentSecurityPolicy({ VITE_FIREBASE_AUTH_DOMAIN: 'acme.firebaseapp.com' }, { tagManager: false });
    expect(directive(real, 'frame-src')).toEqual(['https://acme.firebaseapp.com']);
    expect(directive(real, 'connect-src')).toContain('https://identitytoolkit.googleapis.com');
    const emulator = spaContentSecurityPolicy(
      { VITE_FIREBASE_AUTH_DOMAIN: 'acme.firebaseapp.com', VITE_FIREBASE_AUTH_EMULATOR_URL: 'http://127.0.0.1:9099' },
      { tagManager: false },
    );
    expect(directive(emulator, 'frame-src')).toEqual(['http://127.0.0.1:9099']);
    expect(directive(emulator, 'connect-src')).toContain('http://127.0.0.1:9099');
  });

  it('allows Stripe.js, its frames and its API only in a build with a Stripe publishable key', () => {
    const sandbox = spaContentSecurityPolicy({ VITE_STRIPE_PUBLISHABLE_KEY: '' }, { tagManager: false });
    expect(sandbox).not.toContain('stripe');
    const stripe = spaContentSecurityPolicy({ VITE_STRIPE_PUBLISHABLE_KEY: 'pk_test_123' }, { tagManager: false });
    expect(directive(stripe, 'script-src')).toContain('https://js.stripe.com');
    expect(directive(stripe, 'frame-src')).toEqual(
      expect.arrayContaining(['https://js.stripe.com', 'https://checkout.stripe.com']),
    );
    expect(directive(stripe, 'connect-src')).toContain('https://api.stripe.com');
  });

  it('lets the page reach a separate API, the demo webhook and the map style host, by origin', () => {
    const policy = spaContentSecurityPolicy(
      {
        VITE_API_BASE_URL: 'https://api.acme.example/api',
        VITE_DEMO_WEBHOOK_URL: 'https://hooks.zapier.com/hooks/catch/1/abc',
        VITE_MAP_STYLE_URL: 'https://tiles.example.com/style.json?key=k',
      },
      { tagManager: false },
    );
    expect(directive(policy, 'connect-src')).toEqual(
      expect.arrayContaining(['https://api.acme.example', 'https://hooks.zapier.com', 'https://tiles.example.com']),
    );
    expect(directive(policy, 'img-src')).toContain('https://tiles.example.com');
    expect(
      directive(spaContentSecurityPolicy({ VITE_API_BASE_URL: '/api' }, { tagManager: false }), 'connect-src'),
    ).not.toContain('/api');
  });

  it('runs no inline script and no plugin, keeps forms and base on the portal, and MapLibre workers from blob:', () => {
    const policy = spaContentSecurityPolicy({}, { tagManager: true });
    expect(directive(policy, 'script-src')).not.toContain("'unsafe-inline'");
    expect(directive(policy, 'object-src')).toEqual(["'none'"]);
    expect(directive(policy, 'base-uri')).toEqual(["'self'"]);
    expect(directive(policy, 'form-action')).toEqual(["'self'"]);
    expect(directive(policy, 'worker-src')).toEqual(["'self'", 'blob:']);
  });
});
