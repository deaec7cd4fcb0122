import { dirname, join } from 'node:path';
import { loadDotEnv } from '../server/src/config.ts';
import { buildSpaIfStale, pathFromEnv, startServer, withEmulator } from './launch.ts';
import { localCertificate } from './local-certificate.ts';

loadDotEnv();

/** `npm start`: the whole portal (SPA, API, caster, Auth Emulator) with demo data on one URL. */
const port = process.env.AUTH_EMULATOR_PORT ?? '9099';
const staticDir = pathFromEnv(process.env.STATIC_DIR ?? 'dist');
await buildSpaIfStale({ VITE_FIREBASE_AUTH_EMULATOR_URL: `http://127.0.0.1:${port}` }, staticDir);
// NTRIP over TLS works out of the box: a certificate for localhost unless CASTER_TLS_CERT names one. It is kept
// beside the PGlite data, so each portal's data folder has its own.
let tls = {};
if (!process.env.CASTER_TLS_CERT && !process.env.CASTER_TLS_KEY) {
  const pglite = process.env.PGLITE_DATA_DIR;
  const tlsDir = join(dirname(pathFromEnv(pglite && !pglite.includes('://') ? pglite : './data/db')), 'tls');
  const local = await localCertificate(tlsDir);
  if (local.made) console.log(`Made a self-signed certificate for localhost: ${local.certFile}`);
  tls = { CASTER_TLS_CERT: local.certFile, CASTER_TLS_KEY: local.keyFile };
}
await withEmulator((emulatorHost) => [
  startServer({
    ...tls,
    FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
    STATIC_DIR: staticDir,
    SEED_DEMO: process.env.SEED_DEMO ?? 'true',
  }),
]);
