/**
 * Firebase Auth is a third of the app's JavaScript; a visitor who never logged in does not need it. It loads when a
 * session may exist (session-hint below) or when the log-in modal's forms load, and whoever is waiting for it (the
 * AuthProvider) hears of it here. This module must not import Firebase.
 */

type Listener = () => void;
const listeners = new Set<Listener>();
let started = false;

/** Called by lib/firebase.ts when it creates the Auth instance. */
export function announceFirebaseStarted(): void {
  if (started) return;
  started = true;
  for (const listener of listeners) listener();
}

/** Calls `listener` once Firebase Auth has started (at once if it has); answers the unsubscribe. */
export function whenFirebaseStarts(listener: Listener): () => void {
  if (started) {
    listener();
    return () => {};
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Firebase's own store of the signed-in user (browserLocalPersistence, IndexedDB). */
const FIREBASE_DB = 'firebaseLocalStorageDb';

/**
 * Whether this browser may hold a Firebase session, or a Google sign-in redirect on its way back: Firebase's
 * IndexedDB database exists, or its keys are in web storage (its fallback persistence and the pending redirect).
 * When the browser cannot say (no indexedDB.databases()), the answer is yes, which loads Firebase as before.
 */
export async function mayHaveSession(): Promise<boolean> {
  try {
    const stored = (storage: Storage) => Object.keys(storage).some((key) => key.startsWith('firebase:'));
    if (stored(window.sessionStorage) || stored(window.localStorage)) return true;
    if (typeof indexedDB === 'undefined' || typeof indexedDB.databases !== 'function') return true;
    return (await indexedDB.databases()).some((db) => db.name === FIREBASE_DB);
  } catch {
    return true;
  }
}
