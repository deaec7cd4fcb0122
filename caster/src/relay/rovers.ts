import type { Clock } from '../clock.ts';
import type { CasterLimits } from '../limits.ts';
import type { SessionEndReason } from '../ports.ts';
import type { Logger, SessionLog } from '../session-log.ts';
import { endedTelemetry } from '../telemetry/snapshot.ts';
import type { Mount, Rover } from './mount.ts';
import { nearestStation } from './near.ts';

export interface RoversDeps {
  limits: Pick<CasterLimits, 'nearHysteresisKm' | 'roverIdleMs'>;
  clock: Clock;
  logger: Logger;
  mounts: Map<string, Mount>;
  /** What the nearest-station choice counts as online (stationState). */
  flowing(mount: Mount, now: number): boolean;
  sessions: Pick<SessionLog, 'record' | 'started'>;
  /** The rovers on a station changed: this node may now have to follow its frames on the bus, or stop. */
  followed(mount: Mount): void;
}

/**
 * The rovers on this node: which station each one is on (the nearest-station choice included), which account's
 * connections it takes, and how it ends (its socket closed and its session written).
 */
export class Rovers {
  /** The logged-in rovers by account: the connection limit, the access watch, the announcements. */
  readonly byAccount = new Map<string, Set<Rover>>();
  /** NEAR rovers that have no station yet (no position, or no station of the network whose data flows). */
  readonly nearWaiting = new Set<Rover>();
  /** Made once and handed to every Rover: it calls this when its unsent bytes pass the limit. */
  readonly onSlow = (rover: Rover) => this.end(rover, 'slow_client');

  constructor(private readonly deps: RoversDeps) {}

  /**
   * A rover that takes one of its account's connections. Looks the account's set up now, not at login: logins that
   * awaited together would each bring a set of their own. Its session begins here: the start is logged with the same
   * `startedAt` its end will carry.
   */
  register(rover: Rover): void {
    let ofAccount = this.byAccount.get(rover.accountId);
    if (!ofAccount) {
      ofAccount = new Set();
      this.byAccount.set(rover.accountId, ofAccount);
    }
    ofAccount.add(rover);
    this.deps.sessions.started({
      accountId: rover.accountId,
      mountpoint: rover.requested,
      remoteAddress: rover.remoteAddress,
      startedAt: rover.startedAt,
      userAgent: rover.userAgent,
    });
  }

  attach(rover: Rover, mount: Mount | null): void {
    if (rover.mount === mount) return;
    const previous = rover.mount;
    if (previous) {
      previous.delete(rover);
      this.deps.followed(previous);
    }
    rover.mount = mount;
    if (!mount) {
      if (rover.nearNetwork) this.nearWaiting.add(rover);
      return;
    }
    this.nearWaiting.delete(rover);
    if (rover.nearNetwork) {
      // A switch happens between two whole frames (this runs between deliveries); the station's position comes
      // first so the rover never applies the new station's observations to the old station's coordinates.
      for (const frame of mount.stationMessages(rover.output)) rover.send(frame, this.deps.clock.now());
      if (rover.ended) return;
      this.deps.logger.info(
        { account: rover.accountId, from: previous?.name ?? null, to: mount.name },
        'nearest station chosen',
      );
    }
    mount.add(rover);
    this.deps.followed(mount);
  }

  /** Puts a NEAR rover on the nearest station whose data flows, if that changed enough. */
  choose(rover: Rover): void {
    if (rover.ended || !rover.nearNetwork || !rover.position) return;
    const { clock, mounts, flowing, limits } = this.deps;
    const now = clock.now();
    const next = nearestStation(
      rover.position,
      rover.nearNetwork,
      rover.mount,
      mounts.values(),
      (m) => flowing(m, now),
      limits.nearHysteresisKm,
    );
    if (next !== undefined) this.attach(rover, next);
  }

  /** The NEAR rovers of a network may have a nearer station whose data flows, or lost theirs. */
  chooseAgain(network: string): void {
    for (const m of this.deps.mounts.values()) {
      if (m.info.network !== network) continue;
      for (const rover of m.rovers) if (rover.nearNetwork) this.choose(rover);
    }
    for (const rover of this.nearWaiting) if (rover.nearNetwork === network) this.choose(rover);
  }

  end(rover: Rover, reason: SessionEndReason): void {
    if (rover.ended) return;
    rover.ended = true;
    rover.endedAt = this.deps.clock.now();
    if (rover.mount) {
      rover.mount.delete(rover);
      this.deps.followed(rover.mount);
    }
    this.nearWaiting.delete(rover);
    const ofAccount = this.byAccount.get(rover.accountId);
    ofAccount?.delete(rover);
    rover.lease?.release();
    if (ofAccount?.size === 0) this.byAccount.delete(rover.accountId);
    if (reason === 'slow_client') {
      this.deps.logger.warn(
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
    this.deps.sessions.record({
      accountId: rover.accountId,
      mountpoint: rover.requested,
      remoteAddress: rover.remoteAddress,
      startedAt: rover.startedAt,
      endedAt: new Date(this.deps.clock.now()),
      bytesSent: rover.bytesSent,
      endReason: reason,
      lastGga: rover.position,
      rtcmProfile: rover.output.profile,
      ...endedTelemetry(rover),
    });
  }

  /** Closes the rovers of the set that were sent nothing for roverIdleMs. */
  endIdle(rovers: Set<Rover>, now: number): void {
    const idleMs = this.deps.limits.roverIdleMs;
    for (const rover of rovers) if (now - rover.lastSentAt > idleMs) this.end(rover, 'idle');
  }

  /** Closes every rover of an account, e.g. after it was disabled or its password changed; how many there were. */
  endAccount(accountId: string): number {
    const rovers = [...(this.byAccount.get(accountId) ?? [])];
    for (const rover of rovers) this.end(rover, 'access_revoked');
    return rovers.length;
  }

  /** Every rover on this node, on a station or waiting for one. */
  all(): Rover[] {
    const all = [...this.nearWaiting];
    for (const mount of this.deps.mounts.values()) all.push(...mount.rovers);
    return all;
  }

  endAll(reason: SessionEndReason): void {
    for (const mount of this.deps.mounts.values()) for (const rover of [...mount.rovers]) this.end(rover, reason);
    for (const rover of [...this.nearWaiting]) this.end(rover, reason);
  }
}
