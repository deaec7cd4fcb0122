import { describe, expect, it } from 'vitest';
import { currencySymbol, formatMoney, minorToDecimalString, normalizeCurrency, toMoneyValue } from '../src/money.ts';

describe('money', () => {
  it.each([
    ['EURO', 'EUR'],
    ['euro', 'EUR'],
    ['Euro', 'EUR'],
    ['EUR', 'EUR'],
    ['USD', 'USD'],
    ['usd', 'USD'],
    ['POUND', 'GBP'],
    ['pound', 'GBP'],
    ['PoUnD', 'GBP'],
    ['gbp', 'GBP'],
  ])('reads %s as %s', (name, code) => {
    expect(normalizeCurrency(name)).toBe(code);
  });

  it('knows no other currency', () => {
    expect(normalizeCurrency('JPY')).toBeUndefined();
    expect(currencySymbol('yen')).toBeUndefined();
  });

  it.each([
    [1999, 'euro', '€19.99'],
    [1999, 'EURO', '€19.99'],
    [500, 'usd', '$5.00'],
    [5, 'POUND', '£0.05'],
    [0, 'EUR', '€0.00'],
    [129900, 'USD', '$1,299.00'],
    [123456789, 'pound', '£1,234,567.89'],
    [-250, 'EUR', '-€2.50'],
  ])('formats %i minor units of %s as %s', (amount, currency, text) => {
    expect(formatMoney(amount, currency)).toBe(text);
  });

  it('divides minor units by 100 with exactly 2 decimals, without floating point', () => {
    expect(minorToDecimalString(1)).toBe('0.01');
    expect(minorToDecimalString(10)).toBe('0.10');
    expect(minorToDecimalString(100)).toBe('1.00');
    expect(minorToDecimalString(-1)).toBe('-0.01');
    expect(toMoneyValue(4900, 'euro')).toEqual({ currency: 'EUR', value: '49.00' });
    expect(() => minorToDecimalString(1.5)).toThrow(RangeError);
  });

  it("writes an amount the way the reader's language does when given one", () => {
    // Intl separates symbol and amount with a no-break space in Dutch.
    expect(formatMoney(1000, 'EUR', 'nl').replace(/\s/g, ' ')).toBe('€ 10,00');
    expect(formatMoney(129900, 'euro', 'nl').replace(/\s/g, ' ')).toBe('€ 1.299,00');
    expect(formatMoney(129900, 'USD', 'en')).toBe('$1,299.00');
    expect(() => formatMoney(1.5, 'EUR', 'nl')).toThrow(RangeError);
  });

  it('shows an unknown currency by its code', () => {
    expect(formatMoney(100, 'chf')).toBe('1.00 CHF');
  });
});
