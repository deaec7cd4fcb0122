import { loadDotEnv } from '../server/src/config.ts';
import { buildSpaIfStale, pathFromEnv, startServer, withEmulator } from './launch.ts';

loadDotEnv();

/** `npm start`: the whole portal (SPA, API, caster, Auth Emulator) with demo data on one URL. */
const port = process.env.AUTH_EMULATOR_PORT ?? '9099';
const staticDir = pathFromEnv(process.env.STATIC_DIR ?? 'dist');
await buildSpaIfStale({ VITE_FIREBASE_AUTH_EMULATOR_URL: `http://127.0.0.1:${port}` }, staticDir);
await withEmulator((emulatorHost) => [
  startServer({
    FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
    STATIC_DIR: staticDir,
    SEED_DEMO: process.env.SEED_DEMO ?? 'true',
  }),
]);
