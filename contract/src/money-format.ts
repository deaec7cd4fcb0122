/**
 * Money without zod: the SPA's shell formats amounts on the first page load (lib/format.ts), which must not bring
 * the schemas (docs/adr/0030). money.ts adds the schema and re-exports these.
 */

/** The currencies products are sold in; stored and sent as ISO 4217 codes. */
export const currencyCodes = ['EUR', 'USD', 'GBP'] as const;
export type CurrencyCode = (typeof currencyCodes)[number];

/** Decimals of every supported currency (spec §9: currency decimals 2). */
export const CURRENCY_DECIMALS = 2;

const SYMBOLS: Record<CurrencyCode, string> = { EUR: '€', USD: '$', GBP: '£' };

/**
 * The spec's currency names (EURO/euro, USD/usd, POUND/pound, in any case) and the ISO codes the API sends
 * (EUR, USD, GBP) map to one code; anything else is undefined.
 */
export function normalizeCurrency(currency: string): CurrencyCode | undefined {
  switch (currency.trim().toUpperCase()) {
    case 'EUR':
    case 'EURO':
      return 'EUR';
    case 'USD':
      return 'USD';
    case 'GBP':
    case 'POUND':
      return 'GBP';
    default:
      return undefined;
  }
}

export function currencySymbol(currency: string): string | undefined {
  const code = normalizeCurrency(currency);
  return code && SYMBOLS[code];
}

/** Minor units (an integer, e.g. cents) as a decimal string with 2 decimals: 1999 -> '19.99', -5 -> '-0.05'. */
export function minorToDecimalString(amount: number): string {
  if (!Number.isInteger(amount)) throw new RangeError(`Money amounts are integer minor units, got ${amount}`);
  const sign = amount < 0 ? '-' : '';
  const abs = Math.abs(amount);
  const major = Math.floor(abs / 100);
  const minor = String(abs % 100).padStart(CURRENCY_DECIMALS, '0');
  return `${sign}${major}.${minor}`;
}

/** Spec §3 money value: currency and a decimal string value. */
export interface MoneyValue {
  currency: CurrencyCode;
  value: string;
}

export function toMoneyValue(amount: number, currency: string): MoneyValue {
  const code = normalizeCurrency(currency);
  if (!code) throw new RangeError(`Unsupported currency '${currency}'`);
  return { currency: code, value: minorToDecimalString(amount) };
}

/**
 * Formats minor units for display: symbol then the amount with 2 decimals and digit grouping,
 * e.g. formatMoney(129900, 'euro') -> '€1,299.00'. An unknown currency falls back to its code after the amount.
 * With a language (the SPA passes its own), Intl writes it the way that language does: 'nl' gives '€ 1.299,00'.
 */
export function formatMoney(amount: number, currency: string, language?: string): string {
  const code = normalizeCurrency(currency);
  if (language && code) {
    minorToDecimalString(amount); // the same refusal of a fractional amount
    return new Intl.NumberFormat(language, {
      style: 'currency',
      currency: code,
      minimumFractionDigits: CURRENCY_DECIMALS,
      maximumFractionDigits: CURRENCY_DECIMALS,
    }).format(amount / 10 ** CURRENCY_DECIMALS);
  }
  const decimal = minorToDecimalString(amount);
  const negative = decimal.startsWith('-');
  const [major = '0', minor = '00'] = decimal.replace('-', '').split('.');
  const grouped = major.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const symbol = currencySymbol(currency);
  const body = symbol ? `${symbol}${grouped}.${minor}` : `${grouped}.${minor} ${currency.toUpperCase()}`;
  return negative ? `-${body}` : body;
}
