import { BRAND_KEYS, resolveBrand, UnknownBrandError } from '@portal/contract/brand';
import { brandSchema, externalHttpsUrlSchema } from '@portal/contract/brand-schema';
import { describe, expect, it } from 'vitest';
import { brandCssVariables } from '../../src/lib/brand/index';

describe('brands', () => {
  it('selects the default brand when VITE_BRAND is unset or empty', () => {
    expect(resolveBrand(undefined).key).toBe('default');
    expect(resolveBrand('').key).toBe('default');
  });

  it('the default brand shows promotions, uses dark mode, links terms and has accent #4afc2d', () => {
    const brand = resolveBrand('default');
    expect(brand).toMatchObject({ showPromotionCTAs: true, isRebranded: false, darkModePrimaryColor: '#4afc2d' });
    // No page of its own: its terms are the portal's published ones at /legal/terms.
    expect(brand.termsLink).toBe('');
    expect(brand.support.email).toMatch(/@/);
    expect(brand.gtmContainerId).toMatch(/^GTM-/);
  });

  it('ships a rebranded brand with its own logo and colours', () => {
    const brand = resolveBrand('terraview');
    expect(brand.isRebranded).toBe(true);
    expect(brand.textLogo).toContain('/brands/terraview/');
    expect(brand.darkModePrimaryColor).not.toBe('#4afc2d');
    expect(brandCssVariables(brand)['--brand-primary']).toBe(brand.darkModePrimaryColor);
  });

  it('refuses an unknown key with an error listing the allowed keys', () => {
    expect(() => resolveBrand('nope')).toThrow(UnknownBrandError);
    expect(() => resolveBrand('nope')).toThrow(`Allowed values: ${BRAND_KEYS.join(', ')}.`);
    expect(BRAND_KEYS).toEqual(['default', 'terraview']);
  });

  it("a brand's own terms link must be a real https page; a placeholder fails the build", () => {
    const terms = (termsLink: string) => brandSchema.safeParse({ ...resolveBrand('default'), termsLink }).success;
    expect(terms('https://www.meridian-rtk.nl/voorwaarden')).toBe(true);
    expect(terms('')).toBe(true);
    for (const bad of [
      'http://www.meridian-rtk.nl/voorwaarden',
      'https://meridian-rtk.example/terms-and-conditions',
      'https://example.com/terms',
      'https://portal.test/terms',
      'https://localhost/terms',
      'not a url',
    ]) {
      expect(terms(bad), bad).toBe(false);
    }
    expect(externalHttpsUrlSchema.safeParse('https://docs.meridian-rtk.example').success).toBe(false);
    expect(brandSchema.safeParse({ ...resolveBrand('default'), support: {} }).success).toBe(false);
  });

  it('holds only brands the build accepts (vite.config.ts validates; the browser does not)', () => {
    for (const key of BRAND_KEYS) expect(() => brandSchema.parse(resolveBrand(key))).not.toThrow();
  });
});
