import { buildSpaIfStale, startServer, withEmulator } from './launch.ts';

/** `npm start`: the whole portal (SPA, API, caster, Auth Emulator) with demo data on one URL. */
const port = process.env.AUTH_EMULATOR_PORT ?? '9099';
await buildSpaIfStale({ VITE_FIREBASE_AUTH_EMULATOR_URL: `http://127.0.0.1:${port}` });
await withEmulator((emulatorHost) => [
  startServer({
    FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
    STATIC_DIR: process.env.STATIC_DIR ?? 'dist',
    SEED_DEMO: process.env.SEED_DEMO ?? 'true',
  }),
]);
