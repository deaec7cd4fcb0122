import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import authEn from '../../../public/locales/en/auth.json';
import commonEn from '../../../public/locales/en/common.json';

/** English texts straight from the locale files, so a test reads the real sentences. */
export const en = authEn;

let ready: Promise<unknown> | undefined;
export function initTestI18n() {
  ready ??= i18n.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    ns: ['common', 'auth'],
    defaultNS: 'common',
    resources: { en: { common: commonEn, auth: authEn } },
    interpolation: { escapeValue: false, defaultVariables: { product: 'GNSS Portal' } },
    react: { useSuspense: false },
  });
  return ready;
}

/** A Firebase-shaped error: FirebaseError's message is "Firebase: <text> (code)." */
export function firebaseError(code: string, text = 'Error') {
  return Object.assign(new Error(`Firebase: ${text} (${code}).`), { code, name: 'FirebaseError' });
}

/** A promise the test settles by hand, to look at the form while a call runs. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
