import type { Clock, ClockTimer } from './clock.ts';
import type { CasterLimits } from './limits.ts';
import { DueQueue, type RefusalLog } from './refusals.ts';
import type { Rover } from './relay/rover.ts';

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

  private readonly check = (rover: Rover) => {
    if (rover.ended || rover.bytesSent > 0) return;
    this.deps.refusals.record({
      accountId: rover.accountId,
      username: '',
      reason: rover.nearNetwork && !rover.position ? 'near_no_position' : 'mountpoint_offline',
      mountpoint: rover.requested,
      remoteAddress: rover.remoteAddress,
      userAgent: rover.userAgent,
      ntripVersion: rover.version,
      detail: { waitedSeconds: Math.ceil(this.deps.limits.firstDataWaitMs / 1000) },
    });
  };
}
