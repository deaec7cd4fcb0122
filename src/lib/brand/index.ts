import { resolveBrand } from '@portal/contract/brand';
import type { Brand } from '@portal/contract/brand-schema';

export { BRAND_KEYS, resolveBrand, UnknownBrandError } from '@portal/contract/brand';
export type { Brand } from '@portal/contract/brand-schema';

/** The brand this build was made for; an unknown VITE_BRAND throws at start with the allowed keys. */
export const brand: Brand = resolveBrand(import.meta.env.VITE_BRAND);

function hexToRgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `${(n >> 16) & 255} ${(n >> 8) & 255} ${n & 255}`;
}

/** The CSS variables Tailwind's theme reads (src/index.css): the brand's accent and its text colour. */
export function brandCssVariables(b: Brand): Record<string, string> {
  return {
    '--brand-primary': b.darkModePrimaryColor,
    '--brand-primary-rgb': hexToRgb(b.darkModePrimaryColor),
    '--brand-on-primary': b.onPrimaryColor,
  };
}

export function applyBrandTheme(b: Brand = brand, root: HTMLElement = document.documentElement): void {
  for (const [name, value] of Object.entries(brandCssVariables(b))) root.style.setProperty(name, value);
  root.dataset.brand = b.key;
  root.classList.toggle('dark', true);
}
