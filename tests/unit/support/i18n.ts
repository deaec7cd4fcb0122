import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18n, { type i18n as I18n, type InitOptions } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { brand } from '../../../src/lib/brand';
import { SUPPORTED_LANGUAGES } from '../../../src/lib/i18n';

const localesDir = join(import.meta.dirname, '../../../public/locales');

/** Every namespace of one language, read synchronously from the real locale files: tests read what users read. */
function localeFiles(lng: string) {
  const dir = join(localesDir, lng);
  return Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(join(dir, f), 'utf8'))]),
  );
}

const resources = Object.fromEntries(SUPPORTED_LANGUAGES.map((lng) => [lng, localeFiles(lng)]));

/** As src/lib/i18n.ts sets the app up, with the texts in memory instead of the HTTP backend and detector. */
const options = (lng: string): InitOptions => ({
  lng,
  fallbackLng: 'en',
  ns: Object.keys(resources.en ?? {}),
  defaultNS: 'common',
  resources,
  initAsync: false,
  interpolation: { escapeValue: false, defaultVariables: { product: brand.name, brand: brand.secondName } },
});

/**
 * The app's own i18next instance (the one src/ imports), in English with every namespace of both languages, ready
 * when this returns. Every render helper calls it; calling it again changes nothing.
 */
export function initTestI18n(): I18n {
  if (!i18n.isInitialized) void i18n.use(initReactI18next).init(options('en'));
  return i18n;
}

/** An instance of its own in `lng`, for a test that reads another language without switching the app's. */
export function i18nIn(lng: (typeof SUPPORTED_LANGUAGES)[number]): I18n {
  const instance = i18n.createInstance();
  void instance.use(initReactI18next).init(options(lng));
  return instance;
}
