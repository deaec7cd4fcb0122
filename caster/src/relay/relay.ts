import type { ArchiveThread } from '../archive/thread.ts';
import type { Clock } from '../clock.ts';
import type { Cluster } from '../cluster.ts';
import type { IntegrityWatch } from '../integrity/watch.ts';
import type { CasterLimits } from '../limits.ts';
import type { PendingWrites } from '../pending-writes.ts';
import type { StationStatus, UsagePort } from '../ports.ts';
import { Frame, RtcmFramer } from '../rtcm.ts';
import type { FanOut } from './fan-out.ts';
import { type Mount, RATE_SECONDS, type SourceLink, STATION_MESSAGES } from './mount.ts';
import type { Rovers } from './rovers.ts';
import type { stationState } from './station-state.ts';

export interface CasterStats {
  rovers: number;
  /** Whether frames go to rovers through io_uring (`directWrites`), and if not, why not. */
  directWrites: { active: boolean; reason: string | null; threads: number };
  /** Milliseconds to write one frame to all rovers of its mountpoint, over the last 1024 frames that had rovers. */
  fanOutMs: { frames: number; p50: number; p99: number; max: number };
  /** Whether the plain port's connections are served natively (the `nativeIo` option, ADR 0095), and if not, why not. */
  nativeIo: { active: boolean; reason: string | null };
  /** Rovers the native port answered itself from an earlier login's grant (ADR 0100). */
  nativeLogins: number;
  mounts: Array<{
    mountpoint: string;
    rovers: number;
    online: boolean;
    source: 'push' | 'pull' | 'bus' | null;
    /** The station's encoded outputs (ADR 0088): one per profile in use, whatever the number of its rovers. */
    outputs: Array<{ key: string; rovers: number }>;
  }>;
}

export interface RelayDeps {
  limits: Pick<CasterLimits, 'statusIntervalMs'>;
  clock: Clock;
  mounts: Map<string, Mount>;
  state: ReturnType<typeof stationState>;
  fanOut: FanOut;
  rovers: Rovers;
  cluster: Pick<Cluster, 'bus' | 'announce' | 'updateSubscription'>;
  archive: Pick<ArchiveThread, 'frame'> | null;
  usage: Pick<UsagePort, 'stationStatus'>;
  writes: PendingWrites;
  /** Null: the caster runs without the integrity monitor. */
  integrity: Pick<IntegrityWatch, 'attached' | 'evaluate'> | null;
}

/**
 * The stations' side of the relay: a source attached to its station, each of its frames to the station's rovers
 * (and the bus and the archive), and the station's status as its data shows it.
 */
export class Relay {
  // The frame path reads these per frame; fields rather than the deps object, one load each.
  private readonly clock: Clock;
  private readonly fanOut: FanOut;
  private readonly cluster: RelayDeps['cluster'];
  private readonly archive: RelayDeps['archive'];

  constructor(private readonly deps: RelayDeps) {
    this.clock = deps.clock;
    this.fanOut = deps.fanOut;
    this.cluster = deps.cluster;
    this.archive = deps.archive;
  }

  /** A frame of the station, from its source here (`local`) or from the node that holds it. */
  deliver(mount: Mount, frame: Frame, local: boolean): void {
    if (STATION_MESSAGES.includes(frame.messageType)) {
      // A cached frame outlives the socket chunk it arrived in; copy it so the chunk can be freed.
      mount.cached.set(frame.messageType, new Frame(Buffer.from(frame.data)));
    }
    const now = this.clock.now();
    mount.lastDataAt = now;
    mount.bytesInWindow += frame.data.length;
    if (local) {
      mount.sourceDataAt = now;
      const slot = Math.floor(now / 1000) % RATE_SECONDS;
      mount.bytesPerSecond[slot] = (mount.bytesPerSecond[slot] ?? 0) + frame.data.length;
    }
    if (mount.rovers.size > 0) this.fanOutFrame(mount, frame, now);
    // The first frame after a silence is what makes the station online, not the source's login. Only after this
    // frame went out: a nearest-station rover that switches to the station now starts with its cached station
    // messages, this frame among them, once.
    if (local && !mount.reportedOnline) this.changed(mount);
    if (local) this.cluster.bus?.publishFrame(mount.name, frame.data);
    // After the rovers: only the node holding the source archives, and the archive only copies the frame here.
    if (local) this.archive?.frame(mount.name, frame.data, frame.messageType);
    // After the rovers too: the monitor reads a few header bits; a changed reference position is checked at once.
    const monitor = local ? mount.monitor : null;
    if (monitor) {
      monitor.frame(frame.data, frame.messageType, now);
      if (monitor.positionChanged) this.deps.integrity?.evaluate(mount);
    }
  }

  /**
   * One station frame to all its rovers: as it came to those on the fast path, and through each profile's encoder
   * once to all the rovers of that profile (ADR 0088). The time it took, encoding included, is one fan-out sample.
   */
  private fanOutFrame(mount: Mount, frame: Frame, now: number): void {
    const fanOut = this.fanOut;
    const started = performance.now();
    if (mount.asSent.size > 0) fanOut.write(mount.asSent, frame, now);
    if (mount.streams.size > 0) {
      mount.streams.forEach((stream, key) => {
        // A NEAR rover that ended while being sent its first frames leaves its new output without rovers.
        if (stream.rovers.size === 0) {
          mount.streams.delete(key);
          return;
        }
        const out = stream.encode(frame);
        if (out) fanOut.write(stream.rovers, out, now);
      });
    }
    fanOut.sample(performance.now() - started);
  }

  /** Only the node that holds a station's source writes its status, so nodes never contradict each other. */
  changed(mount: Mount): void {
    const fedHere = this.deps.state.receiving(mount, this.clock.now());
    if (fedHere !== mount.reportedOnline) {
      mount.reportedOnline = fedHere;
      this.sendStatus([
        {
          mountpoint: mount.name,
          online: fedHere,
          lastDataAt: mount.lastDataAt ? new Date(mount.lastDataAt) : null,
          bitrate: 0,
        },
      ]);
    }
    this.deps.rovers.chooseAgain(mount.info.network);
    this.cluster.announce();
  }

  /** Attaches a source to a mount; returns a function that feeds it bytes, or null when the mount is taken. */
  attachSource(mount: Mount, link: SourceLink): ((chunk: Buffer) => void) | null {
    if (mount.source || (mount.remoteNode !== null && this.deps.state.isOnline(mount, this.clock.now()))) return null;
    mount.source = link;
    mount.sourceDataAt = null;
    mount.sourceSince = this.clock.now();
    mount.sourceAddress = link.address ?? null;
    mount.bytesPerSecond.fill(0);
    mount.remoteNode = null;
    this.cluster.bus?.unsubscribeFrames(mount.name);
    this.changed(mount);
    const framer = new RtcmFramer((frame) => this.deliver(mount, frame, true));
    this.deps.integrity?.attached(mount, framer);
    return (chunk) => framer.push(chunk);
  }

  detachSource(mount: Mount, link: SourceLink): void {
    if (mount.source !== link) return;
    mount.source = null;
    this.cluster.updateSubscription(mount);
    this.changed(mount);
  }

  /** A station left the catalogue. */
  removed(mount: Mount): void {
    mount.source?.close('station removed from the catalogue');
    for (const rover of mount.rovers) this.deps.rovers.end(rover, 'access_revoked');
  }

  /** A source that stops sending valid frames makes its station offline once the online window has passed. */
  watchData(now: number): void {
    const { receiving } = this.deps.state;
    this.deps.mounts.forEach((mount) => {
      if (mount.reportedOnline && !receiving(mount, now)) this.changed(mount);
      mount.bytesPerSecond[(Math.floor(now / 1000) + 1) % RATE_SECONDS] = 0;
    });
  }

  /**
   * Every statusIntervalMs: the status of the stations fed here with their bit rate, stations whose node went
   * silent, and rovers that were sent nothing for too long.
   */
  reportStatus(now: number): void {
    const { mounts, state, limits, rovers } = this.deps;
    const updates: StationStatus[] = [];
    for (const mount of mounts.values()) {
      if (mount.source) {
        // Confirms what the data says; a source that went silent was reported offline by the data watch.
        if (state.receiving(mount, now)) {
          updates.push({
            mountpoint: mount.name,
            online: true,
            lastDataAt: mount.lastDataAt ? new Date(mount.lastDataAt) : null,
            bitrate: Math.round((mount.bytesInWindow * 8 * 1000) / limits.statusIntervalMs),
          });
        }
      } else if (mount.remoteNode !== null && !state.isOnline(mount, now)) {
        mount.remoteNode = null;
        this.changed(mount);
      }
      mount.bytesInWindow = 0;
      rovers.endIdle(mount.rovers, now);
    }
    rovers.endIdle(rovers.nearWaiting, now);
    this.sendStatus(updates);
  }

  /** Closes every source at shutdown. */
  closeSources(reason: string): void {
    for (const mount of this.deps.mounts.values()) {
      const link = mount.source;
      if (!link) continue;
      link.close(reason);
      this.detachSource(mount, link);
    }
  }

  stats(): Omit<CasterStats, 'nativeIo' | 'nativeLogins'> {
    const { mounts, rovers, state, fanOut } = this.deps;
    let count = rovers.nearWaiting.size;
    const list: CasterStats['mounts'] = [];
    for (const m of mounts.values()) {
      count += m.rovers.size;
      list.push({
        mountpoint: m.name,
        rovers: m.rovers.size,
        online: state.isOnline(m, this.clock.now()),
        source: m.source ? m.source.kind : m.remoteNode ? 'bus' : null,
        outputs: [...m.streams].map(([key, stream]) => ({ key, rovers: stream.rovers.size })),
      });
    }
    return { rovers: count, directWrites: fanOut.directWrites(), mounts: list, fanOutMs: fanOut.times() };
  }

  private sendStatus(updates: StationStatus[]): void {
    if (updates.length > 0) this.deps.writes.track(this.deps.usage.stationStatus(updates), 'station status');
  }
}
