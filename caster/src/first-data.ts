import type { Clock, ClockTimer } from './clock.ts';
import type { CasterLimits } from './limits.ts';
import type { RefusalDetail, RefusalReason } from './ports.ts';
import { DueQueue, type RefusalLog } from './refusals.ts';
import type { Rover } from './relay/mount.ts';

export interface FirstDataDeps {
  limits: Pick<CasterLimits, 'firstDataWaitMs'>;
  clock: Clock;
  refusals: Pick<RefusalLog, 'record'>;
}

/**
 * A rover that got nothing in its first seconds is told why on its account's page (issue 17): the rovers logged in
 * during the last firstDataWaitMs are checked once that has passed for having been sent data.
 */
export class FirstDataWatch {
  private readonly due: DueQueue<Rover>;
  private readonly timer: ClockTimer;

  constructor(private readonly deps: FirstDataDeps) {
    this.due = new DueQueue<Rover>(deps.limits.firstDataWaitMs);
    this.timer = deps.clock.setInterval(
      () => this.due.poll(deps.clock.now(), this.check),
      Math.min(1000, deps.limits.firstDataWaitMs),
    );
  }

  add(rover: Rover): void {
    this.due.add(rover, this.deps.clock.now());
  }

  stop(): void {
    this.deps.clock.clear(this.timer);
    this.due.clear();
  }

  /**
   * A rover let in on a station that no source feeds, on any node: listed at once, as nothing can come before a
   * source connects; it stays connected and is served from the source's first frame (docs/adr/0046).
   */
  offline(rover: Rover): void {
    this.listedAtLogin.add(rover);
    this.record(rover, 'mountpoint_offline', { offlineAtLogin: true });
  }

  private readonly listedAtLogin = new WeakSet<Rover>();

  private readonly check = (rover: Rover) => {
    if (rover.bytesSent > 0 || this.listedAtLogin.has(rover)) return;
    const noPosition = rover.nearNetwork !== null && !rover.position;
    // A client that gives up sooner than the wait (str2str after 10 s without data) left for the reason it got
    // nothing: it is listed all the same. A fixed mountpoint's rover that left is not: its station had a source.
    if (rover.ended && !noPosition) return;
    const waited = (rover.endedAt ?? this.deps.clock.now()) - rover.startedMs;
    this.record(rover, noPosition ? 'near_no_position' : 'mountpoint_offline', {
      waitedSeconds: Math.ceil(waited / 1000),
    });
  };

  private record(rover: Rover, reason: RefusalReason, detail: RefusalDetail): void {
    this.deps.refusals.record({
      accountId: rover.accountId,
      username: '',
      reason,
      mountpoint: rover.requested,
      remoteAddress: rover.remoteAddress,
      userAgent: rover.userAgent,
      ntripVersion: rover.version,
      tls: rover.tls,
      detail,
    });
  }
}
