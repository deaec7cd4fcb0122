import i18n, { type BackendModule, type ReadCallback, type Resource, type Services } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import type HttpBackend from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';
import { brand } from './brand';

export const SUPPORTED_LANGUAGES = ['en', 'nl'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];

/**
 * Where the portal server puts texts of the language it detected into index.html: `i18n-<namespace>`, the shell's
 * (`common`) always, a route's own on the routes that draw them first (server/src/http/spa-document.ts).
 */
export const INLINE_LOCALE_PREFIX = 'i18n-';

/**
 * The texts the portal server wrote into the page, so the first paint waits for no locale file; nothing when the
 * page came from elsewhere (the dev server).
 */
function inlinedResources(): Resource | undefined {
  const resources: Resource = {};
  for (const element of document.querySelectorAll<HTMLScriptElement>(
    `script[type="application/json"][id^="${INLINE_LOCALE_PREFIX}"]`,
  )) {
    const language = element.dataset.lng;
    if (!element.textContent || !SUPPORTED_LANGUAGES.includes(language as Language)) continue;
    try {
      const namespace = element.id.slice(INLINE_LOCALE_PREFIX.length);
      resources[language as Language] = {
        ...resources[language as Language],
        [namespace]: JSON.parse(element.textContent),
      };
    } catch {
      // unreadable: that namespace loads from its file as before
    }
  }
  return Object.keys(resources).length ? resources : undefined;
}

/**
 * i18next-http-backend, loaded with the first text the page does not hold: the portal server writes the shell's and
 * the first route's texts into the page, so a first visit that changes nothing reads no file and fetches no backend
 * (first-visit JavaScript, issue 39); another page's namespace or another language loads it then.
 */
function lazyHttpBackend(): BackendModule {
  let init: [Services, object, object] | undefined;
  let backend: Promise<HttpBackend> | undefined;
  const load = () => {
    backend ??= import('i18next-http-backend').then(({ default: Backend }) => new Backend(...(init ?? [])));
    return backend;
  };
  return {
    type: 'backend',
    init(services, options, allOptions) {
      init = [services, options, allOptions];
    },
    read(language: string, namespace: string, callback: ReadCallback) {
      load().then(
        (loaded) => loaded.read(language, namespace, callback),
        (error) => callback(error, false),
      );
    },
  };
}

/**
 * Translations load from /locales/{lng}/{ns}.json; detection order and fallback as spec §9 says. Features add
 * their own namespace file (catalogue.json, billing.json…) and call useTranslation('<ns>').
 * {{product}} in any string is the brand's product name.
 */
export function initI18n() {
  i18n.on('languageChanged', (lng) => {
    document.documentElement.lang = lng;
  });
  const resources = inlinedResources();
  return i18n
    .use(lazyHttpBackend())
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      ...(resources && { resources, partialBundledLanguages: true }),
      fallbackLng: 'en',
      supportedLngs: [...SUPPORTED_LANGUAGES],
      nonExplicitSupportedLngs: true,
      load: 'languageOnly',
      ns: ['common'],
      defaultNS: 'common',
      backend: { loadPath: '/locales/{{lng}}/{{ns}}.json' },
      detection: {
        order: ['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag'],
        lookupQuerystring: 'lng',
        caches: ['localStorage', 'cookie'],
      },
      interpolation: { escapeValue: false, defaultVariables: { product: brand.name, brand: brand.secondName } },
    });
}

export default i18n;
