import type { Slot } from './admission.ts';
import { type Announcement, type Bus, connectNatsBus, type LoginFailure } from './bus.ts';
import type { Clock } from './clock.ts';
import { type ConnectionLedger, natsConnectionLedger } from './connection-ledger.ts';
import type { CasterLimits } from './limits.ts';
import type { Mount, Rover } from './relay/mount.ts';
import { Frame } from './rtcm.ts';
import type { Logger } from './session-log.ts';

export interface ClusterDeps {
  nodeId: string;
  limits: Pick<CasterLimits, 'announceIntervalMs'>;
  clock: Clock;
  mounts: Map<string, Mount>;
  roversByAccount: Map<string, Set<Rover>>;
  isOnline(mount: Mount, now: number): boolean;
  flowing(mount: Mount, now: number): boolean;
  receiving(mount: Mount, now: number): boolean;
  /** A station's status as this node sees it may have changed. */
  changed(mount: Mount): void;
  /** A frame of a station fed on another node. */
  deliver(mount: Mount, frame: Frame): void;
  /** A wrong password another node checked (ADR 0072). */
  loginFailedElsewhere(address: string, username: string): void;
}

const NOTHING_HELD: Slot = { release: () => {} };

/** How long a wrong password's 401 waits at most for the other nodes to count it. */
const SHARE_TIMEOUT_MS = 250;

/**
 * This node among other caster processes on a NATS bus (ADR 0003, "Several caster processes"): what it announces
 * (the stations it is fed, their cached station messages, its rovers per account), what it hears from the others,
 * and the frames subjects it follows for its rovers. Without a bus every method does nothing.
 */
export class Cluster {
  bus: Bus | null = null;
  private readonly remoteConnections = new Map<string, { at: number; counts: Map<string, number> }>();
  private ledger: ConnectionLedger | null = null;
  private logger: Logger | null = null;
  private connectedAt = 0;

  constructor(private readonly deps: ClusterDeps) {}

  /** `replicas`: the JetStream copies of the connection ledger, one per NATS server of a cluster of three (ADR 0073). */
  async connect(url: string, prefix: string, logger: Logger, replicas = 1): Promise<void> {
    this.bus = await connectNatsBus(
      url,
      prefix,
      {
        onFrame: (mountpoint, data) => this.onFrame(mountpoint, data),
        onAnnouncement: (a) => this.onAnnouncement(a),
        onLoginFailure: (f) => this.onLoginFailure(f),
      },
      logger,
    );
    this.logger = logger;
    this.connectedAt = this.deps.clock.now();
    const bucket = `${prefix.replace(/[^A-Za-z0-9_-]/g, '_')}-connections`;
    try {
      this.ledger = await natsConnectionLedger(
        this.bus.connection,
        bucket,
        this.deps.nodeId,
        (node) => this.counts(node),
        logger,
        replicas,
      );
    } catch (err) {
      logger.warn({ err, bus: url }, 'no JetStream on the bus: connection limits across nodes follow announcements');
    }
  }

  /**
   * Takes one of the account's `max` connections across the nodes (ADR 0040), or null when the other nodes hold
   * them. Without a bus, or without JetStream on it, this node's own count (already taken) and the announced ones
   * decide, and this says yes. If the ledger cannot be reached, the announced counts decide too: a bus hiccup must
   * not refuse every rover.
   */
  async claim(accountId: string, max: number): Promise<Slot | null> {
    const { ledger } = this;
    if (!ledger) return NOTHING_HELD;
    try {
      if (!(await ledger.claim(accountId, max))) return null;
    } catch (err) {
      this.logger?.warn({ err, account: accountId }, 'connection ledger unreachable; announced counts decide');
      return NOTHING_HELD;
    }
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        ledger.release(accountId);
      },
    };
  }

  /** Whether another node's connections still count: heard from lately, or this node is too new to know. */
  private counts(node: string): boolean {
    const now = this.deps.clock.now();
    return (
      now - this.connectedAt < this.deps.limits.announceIntervalMs * 3 ||
      now - (this.remoteConnections.get(node)?.at ?? Number.NEGATIVE_INFINITY) < this.deps.limits.announceIntervalMs * 3
    );
  }

  /**
   * How many of an account's `max` connections this node may keep when the nodes together hold more: the nodes
   * in the order of their ids keep theirs first, so two nodes never both cut the same surplus.
   */
  share(accountId: string, max: number): number {
    const now = this.deps.clock.now();
    let before = 0;
    for (const [node, entry] of this.remoteConnections) {
      if (node < this.deps.nodeId && now - entry.at < this.deps.limits.announceIntervalMs * 3)
        before += entry.counts.get(accountId) ?? 0;
    }
    return max - before;
  }

  /** An account's rovers on the other nodes, as last announced. */
  remoteCount(accountId: string, now = this.deps.clock.now()): number {
    let n = 0;
    for (const node of this.remoteConnections.values()) {
      if (now - node.at < this.deps.limits.announceIntervalMs * 3) n += node.counts.get(accountId) ?? 0;
    }
    return n;
  }

  /** Rovers logged in now per account, on this node and on the others as last announced; accounts with none left out. */
  connectionsByAccount(accountIds: string[]): Map<string, number> {
    const counts = new Map<string, number>();
    const now = this.deps.clock.now();
    for (const id of accountIds) {
      const n = (this.deps.roversByAccount.get(id)?.size ?? 0) + this.remoteCount(id, now);
      if (n > 0) counts.set(id, n);
    }
    return counts;
  }

  /** The other nodes heard from within three announcements. */
  liveNodes(now: number): Set<string> {
    const nodes = new Set<string>();
    for (const [node, entry] of this.remoteConnections) {
      if (now - entry.at < this.deps.limits.announceIntervalMs * 3) nodes.add(node);
    }
    return nodes;
  }

  /** Forgets the nodes not heard from for three announcements. */
  prune(now: number): void {
    for (const [node, entry] of this.remoteConnections) {
      if (now - entry.at >= this.deps.limits.announceIntervalMs * 3) this.remoteConnections.delete(node);
    }
  }

  announce(): void {
    const { bus } = this;
    if (!bus) return;
    const { mounts, roversByAccount, clock, nodeId, receiving } = this.deps;
    const fed = [...mounts.values()].filter((m) => m.source);
    const now = clock.now();
    bus.announce({
      node: nodeId,
      mounts: fed.map((m) => ({
        mountpoint: m.name,
        cached: [...m.cached.values()].map((f) => f.data.toString('base64')),
        flowing: receiving(m, now) && !m.excluded,
      })),
      connections: [...roversByAccount].map(([accountId, rovers]) => [accountId, rovers.size]),
    });
  }

  /**
   * Tells the other nodes of a wrong password checked here, so their login throttles count it too (ADR 0072).
   * Resolves once every node heard from lately has counted it, or after a quarter second: the 401 waits for it, so
   * a client's next guess, wherever the balancer sends it, meets a throttle that knows this one.
   */
  shareLoginFailure(address: string, username: string): Promise<void> {
    const { bus } = this;
    if (!bus) return Promise.resolve();
    const expected = this.liveNodes(this.deps.clock.now()).size;
    return bus.publishLoginFailure({ node: this.deps.nodeId, address, username }, expected, SHARE_TIMEOUT_MS);
  }

  private onLoginFailure(f: LoginFailure): boolean {
    if (f.node === this.deps.nodeId) return false;
    this.deps.loginFailedElsewhere(f.address, f.username);
    return true;
  }

  /** Follows a station's frames while this node has rovers on it and is not fed it. */
  updateSubscription(mount: Mount): void {
    const { bus } = this;
    if (!bus) return;
    if (mount.rovers.size > 0 && !mount.source) bus.subscribeFrames(mount.name);
    else bus.unsubscribeFrames(mount.name);
  }

  private onAnnouncement(a: Announcement): void {
    const { nodeId, clock, mounts, isOnline, flowing } = this.deps;
    if (a.node === nodeId) return;
    const now = clock.now();
    this.remoteConnections.set(a.node, { at: now, counts: new Map(a.connections ?? []) });
    for (const m of a.mounts) {
      const mount = mounts.get(m.mountpoint.toLowerCase());
      if (!mount) continue;
      const wasOnline = isOnline(mount, now);
      const wasFlowing = flowing(mount, now);
      mount.remoteNode = a.node;
      mount.remoteSeenAt = now;
      mount.remoteFlowing = m.flowing ?? true;
      for (const encoded of m.cached) {
        const frame = new Frame(Buffer.from(encoded, 'base64'));
        if (!mount.source) mount.cached.set(frame.messageType, frame);
      }
      if (!wasOnline || wasFlowing !== flowing(mount, now)) this.deps.changed(mount);
      // Two nodes fed the same pull feed at once: the one with the smaller id keeps it.
      if (mount.source?.kind === 'pull' && a.node < nodeId) mount.source.close('fed on another caster node');
    }
  }

  private onFrame(mountpoint: string, data: Buffer): void {
    const mount = this.deps.mounts.get(mountpoint.toLowerCase());
    if (!mount || mount.source) return;
    this.deps.deliver(mount, new Frame(data));
  }
}
