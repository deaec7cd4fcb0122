/**
 * The SPA's Content Security Policy, made when it is built: only the build knows the brand (Tag Manager or not),
 * the Firebase project, the Auth Emulator, the API base, the demo webhook and the map style. Pure (no import.meta,
 * no DOM) because vite.config.ts imports it. The build puts it into index.html; the server repeats it as a header
 * and adds what a meta tag cannot carry (frame-ancestors).
 */
export interface CspBuildEnv {
  VITE_API_BASE_URL?: string | undefined;
  VITE_FIREBASE_AUTH_DOMAIN?: string | undefined;
  VITE_FIREBASE_AUTH_EMULATOR_URL?: string | undefined;
  VITE_DEMO_WEBHOOK_URL?: string | undefined;
  VITE_MAP_STYLE_URL?: string | undefined;
  VITE_STRIPE_PUBLISHABLE_KEY?: string | undefined;
}

/**
 * Stripe's documented sources for Stripe.js with embedded Checkout and the Payment Element; only a build with a
 * publishable key (the Stripe provider) allows them, so a sandbox build reaches no other site.
 */
const STRIPE = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: [
    'https://js.stripe.com',
    'https://*.js.stripe.com',
    'https://hooks.stripe.com',
    'https://checkout.stripe.com',
  ],
  connect: ['https://api.stripe.com', 'https://checkout.stripe.com'],
  img: ['https://*.stripe.com'],
};

/** Google's documented sources for a Tag Manager container with Google Analytics 4. */
const TAG_MANAGER = {
  script: ['https://www.googletagmanager.com'],
  connect: ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://*.googletagmanager.com'],
  img: ['https://*.google-analytics.com', 'https://*.googletagmanager.com'],
};

/** The origin of an absolute http(s) URL; nothing for a relative one (same origin) or an empty value. */
function originOf(url: string | undefined): string[] {
  const value = url?.trim();
  if (!value || !/^https?:\/\//i.test(value)) return [];
  return [new URL(value).origin];
}

export function spaContentSecurityPolicy(env: CspBuildEnv, options: { tagManager: boolean }): string {
  const emulator = originOf(env.VITE_FIREBASE_AUTH_EMULATOR_URL);
  // Firebase's redirect sign-in reads its result through a hidden iframe of the auth domain (the emulator's own
  // page with the emulator), driven by Google's gapi loader.
  const authDomain = env.VITE_FIREBASE_AUTH_DOMAIN?.trim();
  const authFrames = emulator.length ? emulator : authDomain ? [`https://${authDomain}`] : [];
  const gtm = options.tagManager;
  const stripe = Boolean(env.VITE_STRIPE_PUBLISHABLE_KEY?.trim());
  const frames = [...authFrames, ...(stripe ? STRIPE.frame : [])];
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': [
      "'self'",
      'https://apis.google.com',
      ...(gtm ? TAG_MANAGER.script : []),
      ...(stripe ? STRIPE.script : []),
    ],
    // Tailwind's stylesheet is a file; MapLibre and React set element styles through the DOM, which CSP allows.
    'style-src': ["'self'"],
    // MapLibre draws its markers from data: and blob: images; Google accounts bring their avatar from Google.
    'img-src': [
      "'self'",
      'data:',
      'blob:',
      'https://*.googleusercontent.com',
      ...originOf(env.VITE_MAP_STYLE_URL),
      ...(gtm ? TAG_MANAGER.img : []),
      ...(stripe ? STRIPE.img : []),
    ],
    'font-src': ["'self'", 'data:'],
    'connect-src': [
      "'self'",
      'https://identitytoolkit.googleapis.com',
      'https://securetoken.googleapis.com',
      ...emulator,
      ...originOf(env.VITE_API_BASE_URL),
      ...originOf(env.VITE_DEMO_WEBHOOK_URL),
      ...originOf(env.VITE_MAP_STYLE_URL),
      ...(gtm ? TAG_MANAGER.connect : []),
      ...(stripe ? STRIPE.connect : []),
    ],
    // MapLibre runs its tile workers from a blob: URL.
    'worker-src': ["'self'", 'blob:'],
    'frame-src': frames.length ? frames : ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${[...new Set(sources)].join(' ')}`)
    .join('; ');
}
