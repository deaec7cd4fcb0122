import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { AccessWatch } from './access-watch.ts';
import { type ArchiveOptions, ArchiveThread } from './archive/thread.ts';
import { CatalogueCache } from './catalogue-cache.ts';
import { type Clock, systemClock } from './clock.ts';
import { Cluster } from './cluster.ts';
import { readRequest } from './connection.ts';
import { parseGga } from './gga.ts';
import { type CasterLimits, DEFAULT_LIMITS } from './limits.ts';
import { LoginThrottle } from './login-throttle.ts';
import type { CasterPorts, SessionEndReason, StationStatus } from './ports.ts';
import { PullManager } from './pull.ts';
import { DueQueue, RefusalLog } from './refusals.ts';
import { FanOut } from './relay/fan-out.ts';
import { type Mount, RATE_SECONDS, type SourceLink, STATION_MESSAGES } from './relay/mount.ts';
import { nearestStation } from './relay/near.ts';
import { Rover } from './relay/rover.ts';
import { stationState } from './relay/station-state.ts';
import type { NtripRequest } from './request.ts';
import { V1_OK, v2StreamHeader } from './responses.ts';
import { admitRover, type RoverLoginDeps } from './rover-login.ts';
import { Frame, RtcmFramer } from './rtcm.ts';
import { type Logger, SessionLog, silentLogger } from './session-log.ts';
import { type SourceLoginDeps, serveSource } from './source-login.ts';
import type { CasterIdentity } from './sourcetable.ts';
import { queryTelemetry, serveTelemetry } from './telemetry/bus.ts';
import { RoverFix } from './telemetry/fix.ts';
import { endedTelemetry, liveSession, liveSource, wantedAccounts } from './telemetry/snapshot.ts';
import type { LiveTelemetry, TelemetryQuery, TelemetrySnapshot } from './telemetry/types.ts';

export interface CasterOptions {
  ports: CasterPorts;
  identity?: Partial<CasterIdentity>;
  /** `nats://…`: share sources with other caster processes. Without it everything stays in this process. */
  busUrl?: string;
  /** Subject prefix on the bus; casters share sources only with casters of the same prefix. */
  busPrefix?: string;
  nodeId?: string;
  logger?: Logger;
  limits?: Partial<CasterLimits>;
  /**
   * Write each frame to all rovers that can take it with one io_uring system call (default), where the
   * native addon is built and the kernel allows it; false, or either missing, writes rover by rover through Node.
   */
  directWrites?: boolean;
  /** Archive every frame of the stations this node is fed (docs/adr, archive); without it nothing is archived. */
  archive?: ArchiveOptions;
  /** Where the caster's deadlines, windows and intervals read and schedule time; the system's unless a test moves it. */
  clock?: Clock;
}

export interface CasterStats {
  rovers: number;
  /** Whether frames go to rovers through io_uring (`directWrites`), and if not, why not. */
  directWrites: { active: boolean; reason: string | null };
  /** Milliseconds to write one frame to all rovers of its mountpoint, over the last 1024 frames that had rovers. */
  fanOutMs: { frames: number; p50: number; p99: number; max: number };
  mounts: Array<{ mountpoint: string; rovers: number; online: boolean; source: 'push' | 'pull' | 'bus' | null }>;
}

export interface Caster extends LiveTelemetry {
  listen(port: number, host?: string): Promise<net.AddressInfo>;
  close(): Promise<void>;
  stats(): CasterStats;
  /** Reads the catalogue now instead of at the next interval (after a station or feed was created). */
  refreshCatalogue(): Promise<void>;
  /** Rovers logged in now per account, on this node and, with a bus, on the others as last announced. */
  connectionsByAccount(accountIds: string[]): Map<string, number>;
  /** Closes every rover of an account, e.g. after it was disabled or its password changed. */
  disconnectAccount(accountId: string): number;
}

/**
 * The NTRIP caster: one TCP port for rovers (NTRIP 1 and 2), push sources (v1 SOURCE, v2 POST) and the
 * sourcetable; pull feeds as a client of upstream casters; optionally a NATS bus to other caster processes.
 */
export async function createCaster(options: CasterOptions): Promise<Caster> {
  const limits: CasterLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const clock = options.clock ?? systemClock;
  const { auth, catalogue, usage } = options.ports;
  const logger = options.logger ?? silentLogger;
  const nodeId = options.nodeId ?? randomUUID();
  const sessions = new SessionLog(usage, logger, limits.sessionBatchSize, limits.sessionFlushMs, clock);
  const archive = options.archive ? await ArchiveThread.start(options.archive, logger) : null;
  const refusals = new RefusalLog(usage, logger, limits.refusalFlushMs, clock);
  /** Rovers logged in during the last firstDataWaitMs, checked once that has passed for having received data. */
  const firstData = new DueQueue<Rover>(limits.firstDataWaitMs);
  const fanOut = new FanOut(options.directWrites !== false, logger);
  const roversByAccount = new Map<string, Set<Rover>>();
  const sockets = new Set<net.Socket>();
  let closed = false;
  let identity: CasterIdentity = {
    host: 'localhost',
    port: 2101,
    identifier: 'PortalCaster',
    operator: 'GNSS portal',
    country: 'NLD',
    latitude: 52,
    longitude: 5,
    url: 'http://localhost:8080',
    ...options.identity,
  };

  const cache = new CatalogueCache({
    catalogue,
    logger,
    clock,
    removed(mount) {
      mount.source?.close('station removed from the catalogue');
      for (const rover of mount.rovers) endRover(rover, 'access_revoked');
    },
  });
  const mounts = cache.mounts;
  const refreshCatalogue = () => cache.refresh();

  const { receiving, isOnline, flowing } = stationState(limits);

  const cluster = new Cluster({
    nodeId,
    limits,
    clock,
    mounts,
    roversByAccount,
    isOnline,
    flowing,
    receiving,
    changed: (mount) => mountChanged(mount),
    deliver: (mount, frame) => deliver(mount, frame, false),
  });

  // ---- frames and rovers ----
  function deliver(mount: Mount, frame: Frame, local: boolean) {
    if (STATION_MESSAGES.includes(frame.messageType)) {
      // A cached frame outlives the socket chunk it arrived in; copy it so the chunk can be freed.
      mount.cached.set(frame.messageType, new Frame(Buffer.from(frame.data)));
    }
    const now = clock.now();
    mount.lastDataAt = now;
    mount.bytesInWindow += frame.data.length;
    if (local) {
      mount.sourceDataAt = now;
      const slot = Math.floor(now / 1000) % RATE_SECONDS;
      mount.bytesPerSecond[slot] = (mount.bytesPerSecond[slot] ?? 0) + frame.data.length;
    }
    if (mount.rovers.size > 0) fanOut.write(mount.rovers, frame, now);
    // The first frame after a silence is what makes the station online, not the source's login. Only after this
    // frame went out: a nearest-station rover that switches to the station now starts with its cached station
    // messages, this frame among them, once.
    if (local && !mount.reportedOnline) mountChanged(mount);
    if (local) cluster.bus?.publishFrame(mount.name, frame.data);
    // After the rovers: only the node holding the source archives, and the archive only copies the frame here.
    if (local) archive?.frame(mount.name, frame.data, frame.messageType);
  }

  const pendingWrites = new Set<Promise<void>>();
  const track = (write: Promise<void>, what: string) => {
    const settled = write.catch((err) => logger.error({ err }, `${what} write failed`));
    pendingWrites.add(settled);
    void settled.finally(() => pendingWrites.delete(settled));
  };
  const sendStatus = (updates: StationStatus[]) => {
    if (updates.length > 0) track(usage.stationStatus(updates), 'station status');
  };

  /** Only the node that holds a station's source writes its status, so nodes never contradict each other. */
  function mountChanged(mount: Mount) {
    const fedHere = receiving(mount, clock.now());
    if (fedHere !== mount.reportedOnline) {
      mount.reportedOnline = fedHere;
      sendStatus([
        {
          mountpoint: mount.name,
          online: fedHere,
          lastDataAt: mount.lastDataAt ? new Date(mount.lastDataAt) : null,
          bitrate: 0,
        },
      ]);
    }
    for (const m of mounts.values()) {
      if (m.info.network !== mount.info.network) continue;
      for (const rover of m.rovers) if (rover.nearNetwork) chooseStation(rover);
    }
    for (const rover of nearWaiting) if (rover.nearNetwork === mount.info.network) chooseStation(rover);
    cluster.announce();
  }

  /** NEAR rovers that have no station yet (no position, or no station of the network whose data flows). */
  const nearWaiting = new Set<Rover>();

  function attachRover(rover: Rover, mount: Mount | null) {
    if (rover.mount === mount) return;
    const previous = rover.mount;
    if (previous) {
      previous.rovers.delete(rover);
      cluster.updateSubscription(previous);
    }
    rover.mount = mount;
    if (!mount) {
      if (rover.nearNetwork) nearWaiting.add(rover);
      return;
    }
    nearWaiting.delete(rover);
    if (rover.nearNetwork) {
      // A switch happens between two whole frames (this runs between deliveries); the station's position comes
      // first so the rover never applies the new station's observations to the old station's coordinates.
      for (const type of STATION_MESSAGES) {
        const cached = mount.cached.get(type);
        if (cached) rover.send(cached, clock.now());
      }
      if (rover.ended) return;
      logger.info({ account: rover.accountId, from: previous?.name ?? null, to: mount.name }, 'nearest station chosen');
    }
    mount.rovers.add(rover);
    cluster.updateSubscription(mount);
  }

  function chooseStation(rover: Rover) {
    if (rover.ended || !rover.nearNetwork || !rover.position) return;
    const now = clock.now();
    const next = nearestStation(
      rover.position,
      rover.nearNetwork,
      rover.mount,
      mounts.values(),
      (m) => flowing(m, now),
      limits.nearHysteresisKm,
    );
    if (next !== undefined) attachRover(rover, next);
  }

  function endRover(rover: Rover, reason: SessionEndReason) {
    if (rover.ended) return;
    rover.ended = true;
    if (rover.mount) {
      rover.mount.rovers.delete(rover);
      cluster.updateSubscription(rover.mount);
    }
    nearWaiting.delete(rover);
    const ofAccount = roversByAccount.get(rover.accountId);
    ofAccount?.delete(rover);
    if (ofAccount?.size === 0) roversByAccount.delete(rover.accountId);
    if (reason === 'slow_client') {
      logger.warn(
        {
          account: rover.accountId,
          mountpoint: rover.requested,
          remote: rover.remoteAddress,
          backlog: rover.socket.writableLength,
        },
        'rover disconnected: unsent bytes passed the limit',
      );
      rover.socket.destroy();
    } else {
      rover.socket.end();
      rover.socket.destroySoon();
    }
    if (rover.probe) return;
    sessions.record({
      accountId: rover.accountId,
      mountpoint: rover.requested,
      remoteAddress: rover.remoteAddress,
      startedAt: rover.startedAt,
      endedAt: new Date(clock.now()),
      bytesSent: rover.bytesSent,
      endReason: reason,
      lastGga: rover.position,
      ...endedTelemetry(rover),
    });
  }
  const onSlowRover = (rover: Rover) => endRover(rover, 'slow_client');

  const logins = new LoginThrottle(limits, logger, () => clock.now());

  // ---- sources ----
  /** Attaches a source to a mount; returns a function that feeds it bytes, or null when the mount is taken. */
  function attachSource(mount: Mount, link: SourceLink): ((chunk: Buffer) => void) | null {
    if (mount.source || (mount.remoteNode !== null && isOnline(mount, clock.now()))) return null;
    mount.source = link;
    mount.sourceDataAt = null;
    mount.sourceSince = clock.now();
    mount.sourceAddress = link.address ?? null;
    mount.bytesPerSecond.fill(0);
    mount.remoteNode = null;
    cluster.bus?.unsubscribeFrames(mount.name);
    mountChanged(mount);
    const framer = new RtcmFramer((frame) => deliver(mount, frame, true));
    return (chunk) => framer.push(chunk);
  }
  function detachSource(mount: Mount, link: SourceLink) {
    if (mount.source !== link) return;
    mount.source = null;
    cluster.updateSubscription(mount);
    mountChanged(mount);
  }

  const roverLogin: RoverLoginDeps = {
    auth,
    cache,
    clock,
    logger,
    logins,
    refusals,
    identity: () => identity,
    roversByAccount,
    remoteCount: (accountId) => cluster.remoteCount(accountId),
  };
  const sourceLogin: SourceLoginDeps = {
    limits,
    logger,
    catalogue,
    logins,
    resolveMount: (name) => cache.resolveMount(name),
    attach: attachSource,
    detach: detachSource,
  };

  const pulls = new PullManager({
    logger,
    clock,
    limits,
    list: () => catalogue.pullFeeds(),
    attach: (mountpoint, link) => {
      const mount = mounts.get(mountpoint.toLowerCase());
      if (!mount) return null;
      const feed = attachSource(mount, link);
      return feed && { feed, detach: () => detachSource(mount, link) };
    },
    status: (update) => track(usage.feedStatus(update), 'feed status'),
  });

  // ---- connections ----

  async function handleRover(socket: net.Socket, req: NtripRequest, rest: Buffer) {
    const admitted = await admitRover(socket, req, roverLogin);
    if (!admitted) return;
    const { decision, mount, nearNetwork, name, ip, userAgent, ofAccount } = admitted;
    const v = req.ntripVersion;
    const rover = new Rover(
      socket,
      v,
      decision.accountId,
      mount ? mount.info.network : (nearNetwork as string),
      decision.until.getTime(),
      name,
      nearNetwork ?? null,
      ip,
      limits.roverBacklogBytes,
      onSlowRover,
      clock.now(),
    );
    rover.userAgent = userAgent;
    rover.probe = decision.probe === true;
    // The portal's connection test lasts seconds: it takes none of the account's connections and is no session.
    if (!rover.probe) {
      firstData.add(rover, clock.now());
      ofAccount.add(rover);
      roversByAccount.set(decision.accountId, ofAccount);
      access.added(rover);
    }
    socket.write(v === 2 ? v2StreamHeader() : V1_OK);
    const onLine = (line: string) => {
      rover.fix ??= new RoverFix();
      if (!rover.fix.onLine(line, clock.now())) return;
      const position = parseGga(line);
      if (!position) return;
      rover.position = position;
      chooseStation(rover);
    };
    socket.on('data', (chunk: Buffer) => rover.readLines(chunk, limits.maxRoverLineBytes, onLine));
    socket.on('close', () => endRover(rover, 'client_closed'));
    socket.on('error', () => endRover(rover, 'error'));
    const headerGga = req.headers.get('ntrip-gga');
    if (headerGga) onLine(headerGga);
    if (mount) attachRover(rover, mount);
    else if (!rover.mount) nearWaiting.add(rover);
    if (rest.length) rover.readLines(rest, limits.maxRoverLineBytes, onLine);
  }

  function onConnection(socket: net.Socket) {
    if (closed) return socket.destroy();
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    readRequest(socket, {
      limits,
      clock,
      logger,
      rover: handleRover,
      source: (source, req, rest) => serveSource(source, req, rest, sourceLogin),
    });
  }

  const access = new AccessWatch({
    auth,
    limits,
    clock,
    logger,
    roversByAccount,
    revoke: (rover) => endRover(rover, 'access_revoked'),
  });
  /** A rover that got nothing in its first seconds is told why on its account's page (issue 17). */
  const watchFirstData = () =>
    firstData.poll(clock.now(), (rover) => {
      if (rover.ended || rover.bytesSent > 0) return;
      refusals.record({
        accountId: rover.accountId,
        username: '',
        reason: rover.nearNetwork && !rover.position ? 'near_no_position' : 'mountpoint_offline',
        mountpoint: rover.requested,
        remoteAddress: rover.remoteAddress,
        userAgent: rover.userAgent,
        ntripVersion: rover.version,
        detail: { waitedSeconds: Math.ceil(limits.firstDataWaitMs / 1000) },
      });
    });
  const firstDataTimer = clock.setInterval(watchFirstData, Math.min(1000, limits.firstDataWaitMs));
  /** A source that stops sending valid frames makes its station offline once the online window has passed. */
  const watchData = () => {
    const now = clock.now();
    mounts.forEach((mount) => {
      if (mount.reportedOnline && !receiving(mount, now)) mountChanged(mount);
      mount.bytesPerSecond[(Math.floor(now / 1000) + 1) % RATE_SECONDS] = 0;
    });
  };
  const dataTimer = clock.setInterval(watchData, Math.min(1000, limits.stationOnlineWindowMs));

  // ---- periodic work ----
  const tick = clock.setInterval(() => {
    const now = clock.now();
    const updates: StationStatus[] = [];
    for (const mount of mounts.values()) {
      if (mount.source) {
        // Confirms what the data says; a source that went silent was reported offline by the data watch.
        if (receiving(mount, now)) {
          updates.push({
            mountpoint: mount.name,
            online: true,
            lastDataAt: mount.lastDataAt ? new Date(mount.lastDataAt) : null,
            bitrate: Math.round((mount.bytesInWindow * 8 * 1000) / limits.statusIntervalMs),
          });
        }
      } else if (mount.remoteNode !== null && !isOnline(mount, now)) {
        mount.remoteNode = null;
        mountChanged(mount);
      }
      mount.bytesInWindow = 0;
      for (const rover of mount.rovers) if (now - rover.lastSentAt > limits.roverIdleMs) endRover(rover, 'idle');
    }
    for (const rover of nearWaiting) if (now - rover.lastSentAt > limits.roverIdleMs) endRover(rover, 'idle');
    logins.sweep();
    cluster.prune(now);
    sendStatus(updates);
  }, limits.statusIntervalMs);
  const catalogueTimer = clock.setInterval(() => void refreshCatalogue(), limits.catalogueRefreshMs);

  cache.apply(await catalogue.snapshot());
  if (options.busUrl) {
    await cluster.connect(options.busUrl, options.busPrefix ?? 'ntrip', logger);
  }
  const snapshot = (query: TelemetryQuery): TelemetrySnapshot => {
    const now = clock.now();
    const accounts = wantedAccounts(query);
    const sessions: TelemetrySnapshot['sessions'] = [];
    for (const [accountId, rovers] of roversByAccount) {
      if (accounts === 'all' || accounts?.has(accountId)) for (const r of rovers) sessions.push(liveSession(nodeId, r));
    }
    const sources: TelemetrySnapshot['sources'] = [];
    if (query.sources) {
      for (const mount of mounts.values()) {
        const source = liveSource(nodeId, mount, now, limits.stationOnlineWindowMs);
        if (source) sources.push(source);
      }
    }
    return { node: nodeId, at: new Date(now).toISOString(), sessions, sources };
  };
  const stopTelemetry = cluster.bus
    ? serveTelemetry(cluster.bus.connection, options.busPrefix ?? 'ntrip', snapshot, logger)
    : null;
  const announceTimer = clock.setInterval(() => cluster.announce(), limits.announceIntervalMs);

  const server = net.createServer(onConnection);
  server.maxConnections = 100_000;

  return {
    async listen(port, host = '0.0.0.0') {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen({ port, host, backlog: 4096 }, () => {
          server.off('error', reject);
          resolve();
        });
      });
      const address = server.address() as net.AddressInfo;
      identity = { ...identity, port: options.identity?.port ?? address.port };
      pulls.start();
      return address;
    },
    async close() {
      if (closed) return;
      closed = true;
      clock.clear(tick);
      access.stop();
      clock.clear(catalogueTimer);
      clock.clear(announceTimer);
      stopTelemetry?.();
      clock.clear(firstDataTimer);
      clock.clear(dataTimer);
      firstData.clear();
      pulls.stop();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const mount of mounts.values()) for (const rover of [...mount.rovers]) endRover(rover, 'shutdown');
      for (const rover of [...nearWaiting]) endRover(rover, 'shutdown');
      for (const mount of mounts.values()) {
        const link = mount.source;
        if (!link) continue;
        link.close('caster shutting down');
        detachSource(mount, link);
      }
      for (const socket of sockets) socket.destroy();
      await stopped;
      await sessions.close();
      await archive?.close();
      await refusals.close();
      await Promise.all(pendingWrites);
      await cluster.bus?.close();
    },
    stats() {
      let rovers = nearWaiting.size;
      const list: CasterStats['mounts'] = [];
      for (const m of mounts.values()) {
        rovers += m.rovers.size;
        list.push({
          mountpoint: m.name,
          rovers: m.rovers.size,
          online: isOnline(m, clock.now()),
          source: m.source ? m.source.kind : m.remoteNode ? 'bus' : null,
        });
      }
      return {
        rovers,
        directWrites: fanOut.directWrites(),
        mounts: list,
        fanOutMs: fanOut.times(),
      };
    },
    refreshCatalogue,
    async live(query) {
      const local = snapshot(query);
      const { bus } = cluster;
      if (!bus) return { nodes: [local], complete: true };
      const now = clock.now();
      const remote = await queryTelemetry(bus.connection, options.busPrefix ?? 'ntrip', query, cluster.liveNodes(now));
      return { nodes: [local, ...remote.nodes.filter((n) => n.node !== nodeId)], complete: remote.complete };
    },
    connectionsByAccount(accountIds) {
      const counts = new Map<string, number>();
      const now = clock.now();
      for (const id of accountIds) {
        const n = (roversByAccount.get(id)?.size ?? 0) + cluster.remoteCount(id, now);
        if (n > 0) counts.set(id, n);
      }
      return counts;
    },
    disconnectAccount(accountId) {
      const rovers = [...(roversByAccount.get(accountId) ?? [])];
      for (const rover of rovers) endRover(rover, 'access_revoked');
      return rovers.length;
    },
  };
}
