import authEn from '../../../public/locales/en/auth.json';

/** English texts straight from the locale files, so a test reads the real sentences. */
export const en = authEn;

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
