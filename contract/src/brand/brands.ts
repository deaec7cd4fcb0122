import type { Brand } from './schema.ts';

/**
 * The brand registry. Pure data (no import.meta, no DOM): vite.config.ts imports it too, so an unknown
 * VITE_BRAND fails `vite build` before anything is bundled, and validates the brand with brandSchema there: the
 * browser gets checked data and no zod in its first download.
 */
const registry = {
  default: {
    key: 'default',
    name: 'Meridian RTK',
    secondName: 'Meridian',
    termsLink: '',
    support: { email: 'support@meridian-rtk.example' },
    iconLogo: '/brands/default/icon.svg',
    favicon: '/brands/default/favicon.svg',
    textLogo: '/brands/default/logo.svg',
    isRebranded: false,
    showPromotionCTAs: true,
    darkModePrimaryColor: '#4afc2d',
    onPrimaryColor: '#06210a',
    darkMapDefault: true,
    gtmContainerId: 'GTM-MRDN7K2',
    paymentWidgetColors: {
      colorPrimary: '#4afc2d',
      colorBackground: '#12161c',
      colorText: '#e8eaed',
      colorDanger: '#ff5d5d',
      colorBorder: '#2a313b',
    },
  },
  terraview: {
    key: 'terraview',
    name: 'TerraView Positioning',
    secondName: 'TerraView',
    termsLink: '',
    support: { email: 'support@terraview-positioning.example' },
    iconLogo: '/brands/terraview/icon.svg',
    favicon: '/brands/terraview/favicon.svg',
    textLogo: '/brands/terraview/logo.svg',
    isRebranded: true,
    showPromotionCTAs: false,
    darkModePrimaryColor: '#38bdf8',
    onPrimaryColor: '#04202e',
    darkMapDefault: false,
    gtmContainerId: '',
    paymentWidgetColors: {
      colorPrimary: '#38bdf8',
      colorBackground: '#101820',
      colorText: '#e6edf3',
      colorDanger: '#f87171',
      colorBorder: '#263342',
    },
    poweredBy: { name: 'Meridian RTK', url: 'https://meridian-rtk.example' },
  },
} satisfies Record<string, Brand>;

export type BrandKey = keyof typeof registry;
export const BRAND_KEYS = Object.keys(registry) as BrandKey[];
export const DEFAULT_BRAND_KEY: BrandKey = 'default';

export class UnknownBrandError extends Error {
  constructor(key: string) {
    super(`Unknown brand "${key}" (VITE_BRAND). Allowed values: ${BRAND_KEYS.join(', ')}.`);
    this.name = 'UnknownBrandError';
  }
}

/** The brand for a VITE_BRAND value (empty or unset → default); throws listing the allowed keys otherwise. */
export function resolveBrand(key: string | undefined): Brand {
  const wanted = key?.trim() || DEFAULT_BRAND_KEY;
  if (!Object.hasOwn(registry, wanted)) throw new UnknownBrandError(wanted);
  return registry[wanted as BrandKey];
}
