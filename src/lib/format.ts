import { formatMoney } from '@portal/contract/money-format';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

type When = string | number | Date;

const BYTE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB'];

/**
 * Numbers, money, dates and country names written the way the app's language writes them (docs/language.md): the
 * language the reader chose in the portal, never the browser's, so a Dutch page never shows an English date.
 */
export function formatterFor(language: string) {
  const lng = language || 'en';
  const numbers = new Intl.NumberFormat(lng);
  const dates = new Intl.DateTimeFormat(lng, { dateStyle: 'medium' });
  const dateTimes = new Intl.DateTimeFormat(lng, { dateStyle: 'medium', timeStyle: 'short' });
  const moments = new Intl.DateTimeFormat(lng, { dateStyle: 'medium', timeStyle: 'medium' });
  const times = new Intl.DateTimeFormat(lng, { timeStyle: 'short' });
  const amounts = new Intl.NumberFormat(lng, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    useGrouping: false,
  });
  let regions: Intl.DisplayNames | undefined;
  return {
    language: lng,
    number: (n: number) => numbers.format(n),
    /** Minor units in their currency (contract's formatMoney): `€10.00` in English, `€ 10,00` in Dutch. */
    money: (amount: number, currency: string) => formatMoney(amount, currency, lng),
    /** Minor units as a form field's starting value, without symbol or grouping: `49.00` / `49,00`. */
    amountInput: (amount: number) => amounts.format(amount / 100),
    date: (when: When) => dates.format(new Date(when)),
    dateTime: (when: When) => dateTimes.format(new Date(when)),
    /** Date and time to the second, where the second matters (logs, diagnostics, live status). */
    moment: (when: When) => moments.format(new Date(when)),
    time: (when: When) => times.format(new Date(when)),
    bytes: (n: number) => {
      let value = n;
      let unit = 0;
      while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
        value /= 1000;
        unit++;
      }
      const digits = new Intl.NumberFormat(lng, { maximumFractionDigits: unit === 0 ? 0 : 1 });
      return `${digits.format(value)} ${BYTE_UNITS[unit]}`;
    },
    duration: (seconds: number) => {
      const h = Math.floor(seconds / 3600);
      const m = Math.floor((seconds % 3600) / 60);
      const s = seconds % 60;
      return h > 0 ? `${h} h ${m} min` : m > 0 ? `${m} min ${s} s` : `${s} s`;
    },
    /** A country's name from its ISO 3166 code ("NL" → "Netherlands" / "Nederland"); the code if unknown. */
    region: (code: string) => {
      regions ??= new Intl.DisplayNames([lng], { type: 'region' });
      return regions.of(code) ?? code;
    },
    compare: (a: string, b: string) => a.localeCompare(b, lng),
  };
}

export type Formatter = ReturnType<typeof formatterFor>;

/** The formatters in the app's current language; a language switch renders with the new ones. */
export function useFormat(): Formatter {
  const { i18n } = useTranslation();
  return useMemo(() => formatterFor(i18n.language), [i18n.language]);
}
