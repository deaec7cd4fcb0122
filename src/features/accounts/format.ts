import { useTranslation } from 'react-i18next';

/** Locale-aware formatters for this feature's pages. */
export function useFormat() {
  const { i18n } = useTranslation();
  const lng = i18n.language || 'en';
  return {
    dateTime: (iso: string) =>
      new Intl.DateTimeFormat(lng, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)),
    date: (iso: string) => new Intl.DateTimeFormat(lng, { dateStyle: 'medium' }).format(new Date(iso)),
    number: (n: number) => new Intl.NumberFormat(lng).format(n),
    bytes: (n: number) => {
      const units = ['B', 'kB', 'MB', 'GB', 'TB'];
      let value = n;
      let unit = 0;
      while (value >= 1000 && unit < units.length - 1) {
        value /= 1000;
        unit++;
      }
      return `${new Intl.NumberFormat(lng, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)} ${units[unit]}`;
    },
    duration: (seconds: number) => {
      const h = Math.floor(seconds / 3600);
      const m = Math.floor((seconds % 3600) / 60);
      const s = seconds % 60;
      return h > 0 ? `${h} h ${m} min` : m > 0 ? `${m} min ${s} s` : `${s} s`;
    },
  };
}
