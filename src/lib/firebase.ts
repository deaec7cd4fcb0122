import { type FirebaseApp, initializeApp } from 'firebase/app';
import {
  type Auth,
  browserLocalPersistence,
  browserSessionPersistence,
  connectAuthEmulator,
  indexedDBLocalPersistence,
  initializeAuth,
} from 'firebase/auth';
import { setTokenSource } from './api-token';
import { announceFirebaseStarted } from './firebase-loader';

const env = import.meta.env;
const emulatorUrl = env.VITE_FIREBASE_AUTH_EMULATOR_URL;

/** In emulator mode any API key works and the project id must be a `demo-` one, matching the server's. */
const firebaseConfig = {
  apiKey: env.VITE_FIREBASE_API_KEY ?? (emulatorUrl ? 'demo-api-key' : ''),
  // The redirect flow requires an auth domain; against the emulator any value does (its handler serves the pages).
  authDomain: env.VITE_FIREBASE_AUTH_DOMAIN ?? (emulatorUrl ? 'demo-gnss-portal.firebaseapp.com' : undefined),
  projectId: env.VITE_FIREBASE_PROJECT_ID ?? 'demo-gnss-portal',
  appId: env.VITE_FIREBASE_APP_ID,
};

let app: FirebaseApp | undefined;
let auth: Auth | undefined;

/**
 * The one Firebase Auth instance; throws the spec's message when no configuration was built in. Loaded lazily
 * (firebase-loader.ts): the first call tells the AuthProvider to follow the session.
 */
export function firebaseAuth(): Auth {
  if (auth) return auth;
  if (!firebaseConfig.apiKey) throw new Error('Authentication object is not initialized.');
  app = initializeApp(firebaseConfig);
  // getAuth() would also set up the Google redirect helper, which on mobile browsers loads Google's gapi script at
  // once: a request to another origin on every page. The redirect calls (auth-actions.ts) bring it themselves.
  auth = initializeAuth(app, {
    persistence: [indexedDBLocalPersistence, browserLocalPersistence, browserSessionPersistence],
  });
  if (emulatorUrl) connectAuthEmulator(auth, emulatorUrl, { disableWarnings: true });
  // Set here, not by the AuthProvider once its session module has loaded: a sign-up's first API call follows the new
  // account at once, and without a token it was answered 401 whenever that module came later.
  setTokenSource(async () => (await auth?.currentUser?.getIdToken()) ?? null);
  announceFirebaseStarted();
  return auth;
}
