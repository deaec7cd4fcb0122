/** A timer of a Clock; only the clock that made it can cancel it. */
export interface ClockTimer {
  readonly __clockTimer?: never;
}

/**
 * The caster's time: every deadline, window and interval it keeps reads and schedules through this, so a test can
 * move time on instead of waiting for it. Socket idle timeouts (`socket.setTimeout`) stay Node's: they measure I/O.
 */
export interface Clock {
  /** Milliseconds since the epoch, like Date.now(). */
  now(): number;
  setTimeout(run: () => void, ms: number): ClockTimer;
  setInterval(run: () => void, ms: number): ClockTimer;
  clear(timer: ClockTimer): void;
}

/**
 * Node's timers. They are unref'd: the caster's housekeeping must not keep a process alive that has nothing else to
 * do, and an open socket keeps it alive anyway.
 */
export const systemClock: Clock = {
  now: Date.now,
  setTimeout(run, ms) {
    return setTimeout(run, ms).unref() as ClockTimer;
  },
  setInterval(run, ms) {
    return setInterval(run, ms).unref() as ClockTimer;
  },
  clear(timer) {
    clearTimeout(timer as NodeJS.Timeout);
  },
};
