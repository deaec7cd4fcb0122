import { type Caster, type CasterLimits, createCaster, DEFAULT_LIMITS, type Logger } from '@portal/caster';
import type { ArchiveOptions } from '@portal/caster/archive';
import { CONNECTION_TEST_SECONDS } from '@portal/contract';
import type { Database } from '../../db/client.ts';
import { createArchiveRepo } from '../archive/index.ts';
import { createWebhookEvents } from '../webhooks/index.ts';
import { type Authorizer, createAuthorizer } from './ntrip.authorizer.ts';
import { createCasterPorts } from './ntrip.ports.ts';
import { createProbeVerifier } from './ntrip.probe.ts';
import { createRefusalRecorder } from './ntrip.refusals.ts';
import { createNtripRepo } from './ntrip.repo.ts';
import { createNtripRefusalsRepo } from './ntrip-refusals.repo.ts';

export { issueProbeToken } from './ntrip.probe.ts';
export { createNtripSessionsRepo, type SessionRow } from './ntrip-sessions.repo.ts';

export interface CasterServiceOptions {
  db: Database;
  port: number;
  host: string;
  feedSecretKey: string;
  publicUrl: string;
  /** Host name rovers use, shown in the sourcetable's CAS record. */
  publicHost: string;
  busUrl?: string;
  busReplicas?: number;
  nodeId?: string;
  /** Write frames through io_uring where the caster's native addon is built (default true). */
  directWrites?: boolean;
  /** Threads sharing each frame's io_uring sends (the caster's default: 2, or 1 on one core). */
  fanOutThreads?: number;
  /** Serve the plain port from the caster's native I/O thread (CASTER_NATIVE_IO, ADR 0095; default true). */
  nativeIo?: boolean;
  logger: Logger;
  limits?: Partial<CasterLimits>;
  authTtlMs?: number;
  authEpochPollMs?: number;
  /** Archive what this node is fed (modules/archive); the index is written to this database. */
  archive?: Omit<ArchiveOptions, 'index'>;
  /** Balancers whose PROXY protocol header names the client (CASTER_TRUSTED_PROXIES). */
  trustedProxies?: readonly string[];
  /** NTRIP over TLS on these ports with this certificate and key (CASTER_TLS_*); without it no TLS port. */
  tls?: { ports: number[]; certFile: string; keyFile: string };
}

export interface CasterService {
  caster: Caster;
  authorizer: Authorizer;
  port: number;
  /** The TLS ports as bound (none without TLS). */
  tlsPorts: number[];
  /** For the NTRIP accounts module: drop cached decisions and close what is no longer allowed. */
  accessChanged(change: { accountId: string; reason: string }): void;
  close(): Promise<void>;
}

/**
 * A caster confirms each station it feeds every status interval; three missed confirmations mean the caster that
 * reported it is gone (docs/adr/0011-station-status-after-a-crash.md).
 */
const MISSED_STATUS_REPORTS = 3;

/** Starts the NTRIP caster on the portal's database. */
export async function startCasterService(options: CasterServiceOptions): Promise<CasterService> {
  const repo = createNtripRepo(options.db);
  const onError = (err: unknown, what = 'auth epoch read failed') => options.logger.error({ err }, what);
  const statusIntervalMs = options.limits?.statusIntervalMs ?? DEFAULT_LIMITS.statusIntervalMs;
  const staleAfterMs = MISSED_STATUS_REPORTS * statusIntervalMs;
  // Without a bus this process is the only caster and nothing is fed before it listens, so every station a caster
  // left online, and every feed it left connecting or connected, is stale now. With a bus another node may be
  // feeding it: wait until its reports stop.
  await repo.expireStationStatus(options.busUrl ? staleAfterMs : 0);
  if (!options.busUrl) await repo.resetFeedStatus();
  const authorizer = createAuthorizer({
    repo,
    ttlMs: options.authTtlMs,
    epochPollMs: options.authEpochPollMs,
    probe: createProbeVerifier(options.feedSecretKey),
    onError,
  });
  // Rovers' sessions and refusals become webhook events of the accounts' owners; the API's worker sends them.
  const webhookEvents = createWebhookEvents(options.db);
  const accountEvents = (facts: Parameters<typeof webhookEvents.recordForAccounts>[1]) =>
    webhookEvents.recordForAccounts(options.db, facts);
  const ports = createCasterPorts({
    repo,
    authorizer,
    feedSecretKey: options.feedSecretKey,
    publicUrl: options.publicUrl,
    onError,
    recordRefusals: createRefusalRecorder({ repo: createNtripRefusalsRepo(options.db), accountEvents }),
    accountEvents,
  });
  const caster = await createCaster({
    ports,
    busUrl: options.busUrl,
    busReplicas: options.busReplicas,
    nodeId: options.nodeId,
    directWrites: options.directWrites,
    fanOutThreads: options.fanOutThreads,
    nativeIo: options.nativeIo,
    logger: options.logger,
    // The caster ends a connection-test login when the test is over, not at a length of its own.
    limits: { connectionTestMs: CONNECTION_TEST_SECONDS * 1000, ...options.limits },
    trustedProxies: options.trustedProxies,
    archive: options.archive && { ...options.archive, index: createArchiveRepo(options.db) },
    identity: { host: options.publicHost, port: options.port || undefined, url: options.publicUrl },
    tls: options.tls && { certFile: options.tls.certFile, keyFile: options.tls.keyFile },
  });
  const address = await caster.listen(options.port, options.host);
  const tlsPorts: number[] = [];
  for (const port of options.tls?.ports ?? []) tlsPorts.push((await caster.listenTls(port, options.host)).port);
  // Every node sweeps for every node, so a crashed node's stations go offline while the others run.
  const expiry = setInterval(() => {
    repo.expireStationStatus(staleAfterMs).catch((err: unknown) => onError(err, 'station status expiry failed'));
  }, statusIntervalMs);
  expiry.unref();
  return {
    caster,
    authorizer,
    port: address.port,
    tlsPorts,
    accessChanged({ accountId, reason }) {
      authorizer.invalidate();
      if (reason === 'disabled' || reason === 'deleted' || reason === 'password') caster.disconnectAccount(accountId);
    },
    async close() {
      clearInterval(expiry);
      await caster.close();
      authorizer.close();
    },
  };
}

/** A JSON-lines logger for when the caster runs without the API (and so without Fastify's logger). */
export function jsonLogger(level: string): Logger {
  const order = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];
  const min = level === 'silent' ? Number.POSITIVE_INFINITY : order.indexOf(level);
  const write = (name: string) => (fields: object, message: string) => {
    if (order.indexOf(name) < min) return;
    const out: Record<string, unknown> = {
      level: name,
      time: new Date().toISOString(),
      service: 'caster',
      msg: message,
    };
    for (const [k, v] of Object.entries(fields))
      out[k] = v instanceof Error ? { message: v.message, stack: v.stack } : v;
    console.log(JSON.stringify(out));
  };
  return { info: write('info'), warn: write('warn'), error: write('error') };
}
