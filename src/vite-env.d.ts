/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_API_BASE_URL?: string;
  readonly VITE_BRAND?: string;
  readonly VITE_FIREBASE_API_KEY?: string;
  readonly VITE_FIREBASE_AUTH_DOMAIN?: string;
  readonly VITE_FIREBASE_PROJECT_ID?: string;
  readonly VITE_FIREBASE_APP_ID?: string;
  /** e.g. http://127.0.0.1:9099: the SPA signs in against the Firebase Auth Emulator instead of Google. */
  readonly VITE_FIREBASE_AUTH_EMULATOR_URL?: string;
  readonly VITE_RELAY_HOST?: string;
  readonly VITE_RELAY_PORT?: string;
  readonly VITE_RELAY_TLS_PORT?: string;
  readonly VITE_STRIPE_PUBLISHABLE_KEY?: string;
  readonly VITE_DOCS_URL?: string;
  /** Automation webhook the sales-demo form posts to; empty: POST /api/demo-requests. */
  readonly VITE_DEMO_WEBHOOK_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

/** The offline basemap's address (vite.config.ts, offlineBasemap). */
declare module 'virtual:offline-basemap' {
  const url: string;
  export default url;
}
