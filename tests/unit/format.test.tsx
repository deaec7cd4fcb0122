import { act, render, renderHook, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PriceTag } from '../../src/features/billing/PricingCard';
import { useFormat } from '../../src/lib/format';
import { i18nIn } from './support/i18n';

const NOON = '2026-11-23T12:00:00.000Z';

/** An app whose reader chose `language` in the portal, in a browser that says `browser`. */
function appIn(language: 'en' | 'nl', browser: string) {
  vi.spyOn(window.navigator, 'language', 'get').mockReturnValue(browser);
  vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue([browser]);
  const app = i18nIn(language);
  const wrapper = ({ children }: { children: ReactNode }) => <I18nextProvider i18n={app}>{children}</I18nextProvider>;
  return { app, wrapper };
}

describe("formatting in the app's language, not the browser's", () => {
  beforeEach(() => vi.restoreAllMocks());
  afterEach(() => vi.restoreAllMocks());

  it('writes numbers, money, dates and sizes the Dutch way for a Dutch reader in an English browser', async () => {
    const { wrapper } = appIn('nl', 'en-US');
    const { result } = renderHook(() => useFormat(), { wrapper });
    expect(result.current.number(1234567.5)).toBe('1.234.567,5');
    expect(result.current.money(129900, 'EUR')).toBe('€\u00a01.299,00');
    expect(result.current.amountInput(4900)).toBe('49,00');
    expect(result.current.date(NOON)).toBe('23 nov 2026');
    expect(result.current.bytes(1_500_000)).toBe('1,5 MB');
    expect(result.current.region('DE')).toBe('Duitsland');

    render(<PriceTag amount={1000} currency="EUR" />, { wrapper });
    expect(screen.getByTestId('price')).toHaveTextContent('€ 10,00');
  });

  it('writes them the English way for an English reader in a Dutch browser', async () => {
    const { wrapper } = appIn('en', 'nl-NL');
    const { result } = renderHook(() => useFormat(), { wrapper });
    expect(result.current.number(1234567.5)).toBe('1,234,567.5');
    expect(result.current.money(129900, 'EUR')).toBe('€1,299.00');
    expect(result.current.amountInput(4900)).toBe('49.00');
    expect(result.current.date(NOON)).toBe('Nov 23, 2026');
    expect(result.current.region('DE')).toBe('Germany');
  });

  it('follows a language switch in the portal', async () => {
    const { app, wrapper } = appIn('en', 'en-US');
    render(<PriceTag amount={1000} currency="EUR" />, { wrapper });
    expect(screen.getByTestId('price')).toHaveTextContent('€10.00');
    await act(() => app.changeLanguage('nl'));
    expect(screen.getByTestId('price')).toHaveTextContent('€ 10,00');
  });
});
