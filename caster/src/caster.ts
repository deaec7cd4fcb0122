import { randomUUID } from 'node:crypto';
import type net from 'node:net';
import { AccessWatch } from './access-watch.ts';
import { AccountSlots } from './admission.ts';
import { type ArchiveOptions, ArchiveThread } from './archive/thread.ts';
import { CatalogueCache } from './catalogue-cache.ts';
import { type Clock, systemClock } from './clock.ts';
import { Cluster } from './cluster.ts';
import { Listener } from './connection.ts';
import { FirstDataWatch } from './first-data.ts';
import { IntegrityWatch } from './integrity/watch.ts';
import { type CasterLimits, DEFAULT_LIMITS } from './limits.ts';
import { LoginThrottle } from './login-throttle.ts';
import { loadNativeIo } from './native-io.ts';
import { NativeLogins } from './native-logins.ts';
import { PendingWrites } from './pending-writes.ts';
import type { CasterPorts } from './ports.ts';
import { TrustedProxies } from './proxy-protocol.ts';
import { PullManager } from './pull.ts';
import { RefusalLog } from './refusals.ts';
import { DEFAULT_FAN_OUT_THREADS, FanOut } from './relay/fan-out.ts';
import { type CasterStats, Relay } from './relay/relay.ts';
import { Rovers } from './relay/rovers.ts';
import { stationState } from './relay/station-state.ts';
import { type RoverStreamDeps, serveAnswered, serveRover } from './rover-stream.ts';
import { type Logger, SessionLog, silentLogger } from './session-log.ts';
import { type SourceLoginDeps, serveSource } from './source-login.ts';
import { type CasterIdentity, DEFAULT_IDENTITY } from './sourcetable.ts';
import { liveState } from './telemetry/live.ts';
import type { LiveTelemetry } from './telemetry/types.ts';
import { loadTlsFiles, type TlsFiles, TlsPort, TlsReloader } from './tls.ts';

export type { CasterStats } from './relay/relay.ts';

export interface CasterOptions {
  ports: CasterPorts;
  identity?: Partial<CasterIdentity>;
  /** `nats://…`: share sources with other caster processes. Without it everything stays in this process. */
  busUrl?: string;
  /** Subject prefix on the bus; casters share sources only with casters of the same prefix. */
  busPrefix?: string;
  /** JetStream copies of what the nodes keep on the bus (the connection ledger): 3 on a NATS cluster of three. */
  busReplicas?: number;
  nodeId?: string;
  logger?: Logger;
  limits?: Partial<CasterLimits>;
  /**
   * Write each frame to all rovers that can take it with one io_uring system call (default), where the
   * native addon is built and the kernel allows it; false, or either missing, writes rover by rover through Node.
   */
  directWrites?: boolean;
  /**
   * Threads that share the sends of one frame through io_uring, the event loop's included (ADR 0094): on loopback
   * and on a network card alike each send is kernel work, which a second core halves. Default: 2, or 1 on a
   * single core. One setting per process: the last caster started sets it.
   */
  fanOutThreads?: number;
  /**
   * Serve the plain port's connections from a native epoll thread, rovers without a Node Socket each (ADR 0095;
   * default); false serves them through Node, as does a system without the addon built or other than Linux.
   */
  nativeIo?: boolean;
  /** Archive every frame of the stations this node is fed (docs/adr, archive); without it nothing is archived. */
  archive?: ArchiveOptions;
  /** Where the caster's deadlines, windows and intervals read and schedule time; the system's unless a test moves it. */
  clock?: Clock;
  /**
   * Balancers (addresses, CIDR ranges) whose PROXY protocol header (v1 or v2) names the client: sessions, refusals,
   * limits and the login throttle then see the rover, not the balancer. A header from anyone else is refused.
   */
  trustedProxies?: readonly string[];
  /** The stations' integrity monitor (issue 33, ADR 0063); on unless false (the bench compares both). */
  integrity?: boolean;
  /**
   * The certificate and key of the TLS ports (`listenTls`), checked before the caster starts (a TlsConfigError
   * says what is wrong) and reloaded when the files change or on `reloadTls`.
   */
  tls?: TlsFiles;
}

export interface Caster extends LiveTelemetry {
  listen(port: number, host?: string): Promise<net.AddressInfo>;
  /** A TLS port (needs the `tls` option) beside the plain one: the same rovers, sources and sourcetable. */
  listenTls(port: number, host?: string): Promise<net.AddressInfo>;
  /** Reads the certificate and key again (SIGHUP); false, and the current ones stay, when they do not load. */
  reloadTls(): boolean;
  close(): Promise<void>;
  stats(): CasterStats;
  /** Reads the catalogue now instead of at the next interval (after a station or feed was created). */
  refreshCatalogue(): Promise<void>;
  /** Rovers logged in now per account, on this node and, with a bus, on the others as last announced. */
  connectionsByAccount(accountIds: string[]): Map<string, number>;
  /** Closes every rover of an account, e.g. after it was disabled or its password changed. */
  disconnectAccount(accountId: string): number;
  /**
   * Drain before an upgrade: takes no new connection (the balancer's health check then sends rovers elsewhere),
   * closes the rovers spread over `overMs` so they reconnect through the balancer a few at a time, then the sources,
   * which reconnect to another node. Resolves when nothing is left.
   */
  drain(overMs: number): Promise<void>;
}

/**
 * The NTRIP caster: one TCP port for rovers (NTRIP 1 and 2), push sources (v1 SOURCE, v2 POST) and the
 * sourcetable; pull feeds as a client of upstream casters; optionally a NATS bus to other caster processes.
 * This puts the parts together; each concern is in its own file (docs/architecture.md, "The caster").
 */
export async function createCaster(options: CasterOptions): Promise<Caster> {
  const limits: CasterLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const clock = options.clock ?? systemClock;
  // First, so a bad certificate refuses the start before anything else is opened.
  let tlsCredentials = options.tls ? loadTlsFiles(options.tls, new Date(clock.now())) : null;
  const { auth, catalogue, usage } = options.ports;
  const logger = options.logger ?? silentLogger;
  const nodeId = options.nodeId ?? randomUUID();
  const busPrefix = options.busPrefix ?? 'ntrip';
  const sessions = new SessionLog(usage, logger, limits.sessionBatchSize, limits.sessionFlushMs, clock);
  const archive = options.archive ? await ArchiveThread.start(options.archive, logger) : null;
  const refusals = new RefusalLog(usage, logger, limits.refusalFlushMs, clock);
  const writes = new PendingWrites(logger);
  const fanOut = new FanOut(options.directWrites !== false, options.fanOutThreads ?? DEFAULT_FAN_OUT_THREADS, logger);
  let identity: CasterIdentity = { ...DEFAULT_IDENTITY, ...options.identity };

  const cache = new CatalogueCache({
    catalogue,
    logger,
    clock,
    removed: (mount) => relay.removed(mount),
    // A login answered before may name what is gone: none is answered natively until it is answered again.
    forgotten: () => nativeLogins?.forgetAll(),
  });
  const { mounts } = cache;
  const state = stationState(limits);
  const rovers = new Rovers({
    limits,
    clock,
    logger,
    mounts,
    flowing: state.flowing,
    sessions,
    followed: (mount) => cluster.updateSubscription(mount),
  });
  const cluster = new Cluster({
    nodeId,
    limits,
    clock,
    mounts,
    roversByAccount: rovers.byAccount,
    ...state,
    changed: (mount) => relay.changed(mount),
    deliver: (mount, frame) => relay.deliver(mount, frame, false),
    loginFailedElsewhere: (address, username) => logins.failedElsewhere(address, username),
  });
  const integrity =
    options.integrity === false
      ? null
      : new IntegrityWatch({
          clock,
          mounts,
          network: (slug) => cache.network(slug),
          changed: (mount) => relay.changed(mount),
          usage,
          writes,
        });
  const relay = new Relay({ limits, clock, mounts, state, fanOut, rovers, cluster, archive, usage, writes, integrity });
  const logins = new LoginThrottle(
    limits,
    logger,
    () => clock.now(),
    (address, username) => cluster.shareLoginFailure(address, username),
  );
  const pulls = new PullManager({
    logger,
    clock,
    limits,
    list: () => catalogue.pullFeeds(),
    attach: (mountpoint, link) => {
      const mount = mounts.get(mountpoint.toLowerCase());
      if (!mount) return null;
      const feed = relay.attachSource(mount, link);
      return feed && { feed, detach: () => relay.detachSource(mount, link) };
    },
    status: (update) => writes.track(usage.feedStatus(update), 'feed status'),
  });
  // The native port's logins (ADR 0100) are made once the port is; the slots may need their lent seats back before.
  let nativeLogins: NativeLogins | null = null;
  const slots = new AccountSlots(rovers.byAccount, (accountId) => nativeLogins?.reclaim(accountId));
  const access = new AccessWatch({
    auth,
    limits,
    clock,
    logger,
    roversByAccount: rovers.byAccount,
    revoke: (rover) => rovers.end(rover, 'access_revoked'),
    share: (accountId, max) => cluster.share(accountId, max),
    trim: (rover) => rovers.end(rover, 'access_revoked'),
  });
  const firstData = new FirstDataWatch({ limits, clock, refusals });

  const dataTimer = clock.setInterval(() => relay.watchData(clock.now()), Math.min(1000, limits.stationOnlineWindowMs));
  const tick = clock.setInterval(() => {
    const now = clock.now();
    relay.reportStatus(now);
    logins.sweep();
    cluster.prune(now);
  }, limits.statusIntervalMs);
  const catalogueTimer = clock.setInterval(() => void cache.refresh(), limits.catalogueRefreshMs);

  cache.apply(await catalogue.snapshot());
  if (options.busUrl) await cluster.connect(options.busUrl, busPrefix, logger, options.busReplicas);
  const live = liveState({
    nodeId,
    clock,
    stationOnlineWindowMs: limits.stationOnlineWindowMs,
    roversByAccount: rovers.byAccount,
    mounts,
    cluster,
    busPrefix,
    logger,
  });
  const announceTimer = clock.setInterval(() => cluster.announce(), limits.announceIntervalMs);

  const roverStream: RoverStreamDeps = {
    auth,
    cache,
    clock,
    logger,
    logins,
    refusals,
    identity: () => identity,
    roversByAccount: rovers.byAccount,
    slots,
    remoteCount: (accountId) => cluster.remoteCount(accountId),
    claim: (accountId, max) => cluster.claim(accountId, max),
    online: (mount) => state.isOnline(mount, clock.now()),
    nativeLogins: () => nativeLogins,
    limits,
    rovers,
    firstData,
    access,
  };
  const sourceLogin: SourceLoginDeps = {
    limits,
    logger,
    catalogue,
    logins,
    resolveMount: (name) => cache.resolveMount(name),
    attach: (mount, link) => relay.attachSource(mount, link),
    detach: (mount, link) => relay.detachSource(mount, link),
  };
  const trustedProxies = new TrustedProxies(options.trustedProxies ?? []);
  const nativeAddon = options.nativeIo !== false ? loadNativeIo() : null;
  const nativeIo = {
    active: nativeAddon !== null && 'native' in nativeAddon,
    reason:
      nativeAddon === null ? 'turned off (the nativeIo option)' : 'error' in nativeAddon ? nativeAddon.error : null,
  };
  if (options.nativeIo !== false) logger.info(nativeIo, 'native I/O of the plain port');
  const listener = new Listener(
    {
      limits,
      trustedProxies,
      clock,
      logger,
      rover: (socket, req, rest) => serveRover(socket, req, rest, roverStream),
      answered: (connection, id, userAgent) => {
        const grant = nativeLogins?.grant(id);
        if (nativeLogins && grant) serveAnswered(connection, grant, userAgent, roverStream, nativeLogins);
        else connection.destroy();
      },
      source: (socket, req, rest) => serveSource(socket, req, rest, sourceLogin),
    },
    nativeAddon && 'native' in nativeAddon ? nativeAddon.native : undefined,
  );
  // Answers are reused only where the auth port says when they change, and on a caster alone: across nodes each
  // login takes its connection from the shared ledger.
  const { nativePort } = listener;
  if (nativePort && auth.onChange && !options.busUrl) {
    const answering = new NativeLogins(nativePort, slots, clock);
    nativeLogins = answering;
    auth.onChange(() => answering.forgetAll());
    logins.watchSuspects((address, held) => answering.suspect(address, held));
  }
  const tlsPorts: TlsPort[] = [];
  const tlsReloader =
    options.tls &&
    new TlsReloader(
      options.tls,
      (credentials) => {
        tlsCredentials = credentials;
        for (const port of tlsPorts) port.setCredentials(credentials);
      },
      logger,
      () => new Date(clock.now()),
    );
  const stopListening = () => {
    tlsReloader?.stop();
    return Promise.all([listener.stop(), ...tlsPorts.map((port) => port.stop())]);
  };
  const destroySockets = () => {
    listener.destroySockets();
    for (const port of tlsPorts) port.destroySockets();
  };
  let closed = false;

  return {
    async listen(port, host = '0.0.0.0') {
      const address = await listener.listen(port, host);
      identity = { ...identity, port: options.identity?.port ?? address.port };
      pulls.start();
      return address;
    },
    async listenTls(port, host = '0.0.0.0') {
      if (!tlsCredentials) throw new Error('listenTls needs the tls option (certificate and key files)');
      const tlsPort = new TlsPort(
        tlsCredentials,
        { headerTimeoutMs: limits.headerTimeoutMs, trustedProxies, clock, logger },
        listener.accept,
      );
      const address = await tlsPort.listen(port, host);
      tlsPorts.push(tlsPort);
      return address;
    },
    reloadTls: () => tlsReloader?.reload() ?? false,
    async close() {
      if (closed) return;
      closed = true;
      for (const timer of [tick, catalogueTimer, announceTimer, dataTimer]) clock.clear(timer);
      access.stop();
      integrity?.stop();
      live.stop();
      firstData.stop();
      pulls.stop();
      const stopped = stopListening();
      rovers.endAll('shutdown');
      relay.closeSources('caster shutting down');
      destroySockets();
      await stopped;
      await sessions.close();
      await archive?.close();
      await refusals.close();
      await writes.settled();
      await cluster.bus?.close();
    },
    stats: () => ({ ...relay.stats(), nativeIo, nativeLogins: nativeLogins?.answered ?? 0 }),
    refreshCatalogue: () => cache.refresh(),
    live: (query) => live.live(query),
    connectionsByAccount: (accountIds) => cluster.connectionsByAccount(accountIds),
    disconnectAccount: (accountId) => {
      nativeLogins?.forgetAccount(accountId);
      return rovers.endAccount(accountId);
    },
    async drain(overMs) {
      const stopped = stopListening();
      const draining = rovers.all();
      logger.info({ rovers: draining.length, overMs }, 'draining: no new connections, closing rovers gradually');
      // Ten closings a second at most per step, so a node of thousands hands them over as a steady trickle.
      const steps = Math.max(1, Math.floor(overMs / 100));
      const perStep = Math.ceil(draining.length / steps);
      for (let i = 0; i < draining.length; i += perStep) {
        for (const rover of draining.slice(i, i + perStep)) rovers.end(rover, 'shutdown');
        await new Promise<void>((resolve) => clock.setTimeout(resolve, 100));
      }
      // Rovers that logged in while the listener was closing; then the sources, whose stations the other nodes
      // served from the bus until now and serve again once their bases reconnect through the balancer.
      rovers.endAll('shutdown');
      relay.closeSources('caster draining');
      destroySockets();
      await stopped;
      logger.info({}, 'drained');
    },
  };
}
