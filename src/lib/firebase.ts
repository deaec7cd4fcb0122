import { type FirebaseApp, initializeApp } from 'firebase/app';
import { type Auth, connectAuthEmulator, getAuth } from 'firebase/auth';

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

/** The one Firebase Auth instance; throws the spec's message when no configuration was built in. */
export function firebaseAuth(): Auth {
  if (auth) return auth;
  if (!firebaseConfig.apiKey) throw new Error('Authentication object is not initialized.');
  app = initializeApp(firebaseConfig);
  auth = getAuth(app);
  if (emulatorUrl) connectAuthEmulator(auth, emulatorUrl, { disableWarnings: true });
  return auth;
}
