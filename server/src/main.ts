import { connectTelemetryClient, type LiveTelemetry, loadTlsFiles, TlsConfigError } from '@portal/caster';
import type { ArchiveStore } from '@portal/caster/archive';
import { apiOptionsOf } from './api-options.ts';
import { buildApp } from './app.ts';
import { listenForOperators } from './cli/control-socket.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { feedSecretKeyOf } from './feed-secret-key.ts';
import { firebaseVerifier } from './http/firebase-verifier.ts';
import { openArchiveStore, startCasterArchive } from './modules/archive/index.ts';
import { type CasterService, jsonLogger, startCasterService } from './modules/ntrip/index.ts';
import { DEMO_PASSWORDS, seedDemo } from './seed/demo.ts';
import { reconcileWithAuthEmulator } from './seed/reconcile-emulator.ts';

/** Composition root: config, database, migrations, then the services named in SERVICES. */
async function main(): Promise<void> {
  const loaded = loadConfig();
  const feedSecretKey = feedSecretKeyOf(loaded);
  const config = { ...loaded, FEED_SECRET_KEY: feedSecretKey };
  if (config.SERVICES.includes('caster') && config.CASTER_TLS_CERT) {
    // Checked before the database is opened, so a bad certificate stops the start at once; the caster loads it again.
    try {
      loadTlsFiles({ certFile: config.CASTER_TLS_CERT, keyFile: config.CASTER_TLS_KEY as string }, new Date());
    } catch (err) {
      if (!(err instanceof TlsConfigError)) throw err;
      throw new Error(`Invalid configuration:\n  CASTER_TLS_CERT, CASTER_TLS_KEY: ${err.message}`);
    }
  }
  // firebase-admin reads this variable itself, relative to its own working directory; give it the file checked.
  if (config.GOOGLE_APPLICATION_CREDENTIALS)
    process.env.GOOGLE_APPLICATION_CREDENTIALS = config.GOOGLE_APPLICATION_CREDENTIALS;
  const handle = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDataDir: config.PGLITE_DATA_DIR });
  const applied = await migrate(handle.db);
  if (config.FIREBASE_AUTH_EMULATOR_HOST) {
    const passwords = config.SEED_DEMO ? DEMO_PASSWORDS : undefined;
    const changes = await reconcileWithAuthEmulator(handle.db, { projectId: config.FIREBASE_PROJECT_ID, passwords });
    for (const line of changes) console.warn(`  ${line}`);
  }
  const demoAccounts = config.SEED_DEMO
    ? await seedDemo(handle.db, { projectId: config.FIREBASE_PROJECT_ID, feedSecretKey })
    : [];
  const closers: Array<() => Promise<void>> = [];
  let caster: CasterService | undefined;
  // The operator CLIs cannot open a PGlite directory this process owns; they hand their command to it instead,
  // from before the ready line on.
  if (handle.kind === 'pglite' && config.PGLITE_DATA_DIR !== 'memory://')
    closers.push(await listenForOperators(handle.db, config, config.PGLITE_DATA_DIR));

  // The caster's archive store; RINEX jobs read the same one when the API runs in this process.
  let archiveStore: ArchiveStore | undefined;
  if (config.SERVICES.includes('caster')) {
    const logger = jsonLogger(config.LOG_LEVEL);
    const archive = await startCasterArchive(handle.db, config, logger);
    if (archive) closers.push(() => archive.close());
    archiveStore = archive?.store;
    caster = await startCasterService({
      archive: archive ? { store: archive.store.spec, lease: archive.lease } : undefined,
      db: handle.db,
      port: config.CASTER_PORT,
      host: config.HOST,
      feedSecretKey,
      publicUrl: config.PUBLIC_URL,
      publicHost: config.CASTER_PUBLIC_HOST ?? new URL(config.PUBLIC_URL).hostname,
      busUrl: config.CASTER_BUS_URL,
      busReplicas: config.CASTER_BUS_REPLICAS,
      nodeId: config.CASTER_NODE_ID,
      directWrites: config.CASTER_IO_URING,
      fanOutThreads: config.CASTER_FANOUT_THREADS,
      nativeIo: config.CASTER_NATIVE_IO,
      trustedProxies: config.CASTER_TRUSTED_PROXIES,
      tls: config.CASTER_TLS_CERT
        ? { ports: config.CASTER_TLS_PORTS, certFile: config.CASTER_TLS_CERT, keyFile: config.CASTER_TLS_KEY as string }
        : undefined,
      limits: {
        failedLoginsPerPair: config.CASTER_FAILED_LOGINS_PER_PAIR,
        failedLoginBackoffMaxMs: config.CASTER_FAILED_LOGIN_BACKOFF_MAX_SECONDS * 1000,
        failedLoginsPerName: config.CASTER_FAILED_LOGINS_PER_NAME,
        failedLoginsPerIp: config.CASTER_FAILED_LOGINS_PER_IP,
        stationOnlineWindowMs: config.STATION_ONLINE_SECONDS * 1000,
      },
      logger,
    });
    const started = caster;
    closers.push(() => started.close());
    const { directWrites, nativeIo } = caster.caster.stats();
    console.log(
      `  NTRIP caster listening on port ${caster.port}${config.CASTER_BUS_URL ? ' (sharing sources over NATS)' : ''}`,
    );
    console.log(
      caster.tlsPorts.length
        ? `  NTRIP over TLS on port ${caster.tlsPorts.join(' and ')} (SIGHUP reloads the certificate)`
        : '  NTRIP over TLS off (CASTER_TLS_CERT and CASTER_TLS_KEY unset)',
    );
    console.log(
      directWrites.active
        ? `  frames go to rovers through io_uring (${directWrites.threads} thread${directWrites.threads === 1 ? '' : 's'})`
        : `  frames go to rovers through Node (${directWrites.reason})`,
    );
    console.log(
      nativeIo.active
        ? '  the plain NTRIP port is served by the native I/O thread'
        : `  the plain NTRIP port is served through Node (${config.CASTER_NATIVE_IO ? nativeIo.reason : 'CASTER_NATIVE_IO=false'})`,
    );
  }

  if (config.SERVICES.includes('api')) {
    const rinexStore = archiveStore ?? (await openArchiveStore(config, jsonLogger(config.LOG_LEVEL)));
    if (rinexStore && rinexStore !== archiveStore) closers.push(() => rinexStore.close());
    // Live sessions and base stations: the caster in this process asks the other nodes itself; an API without one
    // asks them over the bus.
    let live: LiveTelemetry | undefined = caster?.caster;
    if (!live && config.CASTER_BUS_URL) {
      const client = await connectTelemetryClient(config.CASTER_BUS_URL, 'ntrip', jsonLogger(config.LOG_LEVEL));
      closers.push(() => client.close());
      live = client;
    }
    const app = await buildApp({
      db: handle.db,
      verifier: firebaseVerifier(config.FIREBASE_PROJECT_ID),
      ...apiOptionsOf(config),
      publicUrl: config.PUBLIC_URL,
      rinex: { store: rinexStore, resultsDir: config.RINEX_RESULTS_DIR },
      // In one process the accounts module talks to the caster directly: live connection counts, and closing the
      // connections of a disabled or deleted account at once. Casters in other processes drop their cached
      // decisions when the auth epoch moves (any account or grant change).
      ntripAccounts: {
        ...(caster && { access: caster, live: caster.caster }),
        caster: caster
          ? { host: ['0.0.0.0', '::'].includes(config.HOST) ? '127.0.0.1' : config.HOST, port: caster.port }
          : { host: config.CASTER_INTERNAL_HOST, port: config.CASTER_PORT },
      },
      live,
    });
    if (applied.length) app.log.info({ applied }, 'migrations applied');
    await app.listen({ host: config.HOST, port: config.PORT });
    closers.push(() => app.close());
    const url = `http://localhost:${config.PORT}`;
    console.log(`\n  GNSS portal ready: ${url}\n  API: ${url}/api  (OpenAPI: ${url}/api/docs/json)`);
    for (const a of demoAccounts) {
      console.log(`  Demo ${a.isAdmin ? 'admin' : 'user '}: ${a.email}  password: ${a.password}`);
    }
    console.log('');
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    for (const close of closers.reverse()) await close();
    await handle.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  // Drain for an upgrade (docs/deployment.md): the caster hands its rovers and sources to the other nodes, then
  // this process ends as after SIGTERM, for its supervisor to start the new version.
  const draining = caster;
  if (draining) {
    // A renewed certificate is also picked up when its files change; SIGHUP is for renewal hooks that say so.
    if (draining.tlsPorts.length) {
      process.on('SIGHUP', () => {
        console.log(
          draining.caster.reloadTls()
            ? 'SIGHUP: TLS certificate reloaded'
            : 'SIGHUP: TLS certificate not reloaded (see the log)',
        );
      });
    }
    process.on('SIGUSR2', () => {
      if (stopping) return;
      console.log(`SIGUSR2: draining the caster over ${config.CASTER_DRAIN_SECONDS} s`);
      void draining.caster.drain(config.CASTER_DRAIN_SECONDS * 1000).then(() => stop('drained'));
    });
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
