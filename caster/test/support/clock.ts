import type { Clock, ClockTimer } from '../../src/clock.ts';

interface Scheduled {
  due: number;
  every: number | null;
  run: () => void;
}

/** A clock that stands still until a test moves it on; sockets stay real, only the caster's own time is fake. */
export class ManualClock implements Clock {
  private at: number;
  private readonly timers = new Map<ClockTimer, Scheduled>();

  constructor(start = Date.now()) {
    this.at = start;
  }

  now(): number {
    return this.at;
  }

  setTimeout(run: () => void, ms: number): ClockTimer {
    const timer: ClockTimer = {};
    this.timers.set(timer, { due: this.at + ms, every: null, run });
    return timer;
  }

  setInterval(run: () => void, ms: number): ClockTimer {
    const timer: ClockTimer = {};
    this.timers.set(timer, { due: this.at + ms, every: Math.max(1, ms), run });
    return timer;
  }

  clear(timer: ClockTimer): void {
    this.timers.delete(timer);
  }

  /**
   * Moves time on by `ms`, running each timer that falls due on the way in time order, and lets what a timer
   * started (an access check's promise, a write) go on before the next one runs.
   */
  async advance(ms: number): Promise<void> {
    const end = this.at + ms;
    for (;;) {
      let next: [ClockTimer, Scheduled] | null = null;
      for (const entry of this.timers) if (entry[1].due <= end && (!next || entry[1].due < next[1].due)) next = entry;
      if (!next) break;
      const [timer, scheduled] = next;
      this.at = Math.max(this.at, scheduled.due);
      if (scheduled.every === null) this.timers.delete(timer);
      else scheduled.due += scheduled.every;
      scheduled.run();
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.at = end;
  }
}
