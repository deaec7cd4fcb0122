import { join } from 'node:path';
import { loadDotEnv } from '../server/src/config.ts';
import { root, spawnNode, startServer, withEmulator } from './launch.ts';

loadDotEnv();

/** `npm run dev`: Vite with HMR on :5173 proxying /api to the API on :8080, plus the Auth Emulator. */
const port = process.env.AUTH_EMULATOR_PORT ?? '9099';
await withEmulator((emulatorHost) => [
  startServer({ FIREBASE_AUTH_EMULATOR_HOST: emulatorHost, SEED_DEMO: 'true' }),
  spawnNode([join(root, 'node_modules/vite/bin/vite.js')], {
    VITE_FIREBASE_AUTH_EMULATOR_URL: `http://127.0.0.1:${port}`,
  }),
]);
