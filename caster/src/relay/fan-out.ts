import os from 'node:os';
import { DirectWriter, loadDirectWrites } from '../direct-write.ts';
import type { Frame } from '../rtcm.ts';
import type { Logger } from '../session-log.ts';
import type { DirectWriters, Rover } from './mount.ts';

/** Two threads where there are two cores: the second core's share of the sends, measured in ADR 0094. */
export const DEFAULT_FAN_OUT_THREADS = Math.min(2, os.availableParallelism());

/**
 * Writes a frame to all rovers of its mountpoint: through io_uring where it can (ADR 0013), else through Node, and
 * keeps how long each frame took.
 */
export class FanOut {
  private direct: DirectWriters | undefined;
  private directOff: string | null;
  /** Threads sharing each frame's sends (1 without io_uring, or when helpers could not start). */
  private threads = 1;
  /** How long the last frames took to be written to all their rovers: the part of the latency that is ours. */
  private readonly samples = new Float64Array(1024);
  private next = 0;

  constructor(directWrites: boolean, threads: number, logger: Logger) {
    this.directOff = directWrites ? null : 'turned off by the directWrites option';
    if (directWrites) {
      const addon = loadDirectWrites();
      if ('error' in addon) this.directOff = addon.error;
      else {
        const onFailure = (err: Error) => {
          if (!this.direct) return;
          logger.error({ err }, 'io_uring fan-out failed; frames go through Node from now on');
          this.direct = undefined;
          this.directOff = err.message;
        };
        this.direct = { 1: new DirectWriter(addon.native, onFailure), 2: new DirectWriter(addon.native, onFailure) };
        try {
          this.threads = addon.native.threads(threads);
        } catch (err) {
          // The addon is left with its calling thread alone (also an addon built before threads existed, until
          // `npm run -w caster build:native`): every frame still goes through io_uring, without the second core.
          logger.warn({ err, threads }, 'io_uring fan-out helper threads did not start; one thread writes');
        }
      }
    }
    logger.info(
      { directWrites: this.direct !== undefined, reason: this.directOff, threads: this.threads },
      'relay fan-out',
    );
  }

  /** Writes one frame to a set of rovers; the caller times the whole of a station frame's fan-out (`sample`). */
  write(rovers: Set<Rover>, frame: Frame, now: number): void {
    const writers = this.direct;
    // forEach, not for-of: a Set's iterator can allocate a result per rover, and collecting that garbage
    // pauses every rover.
    rovers.forEach((rover) => {
      rover.send(frame, now, writers);
    });
    if (writers) {
      writers[1].flush(frame.data);
      if (writers[2].pending) writers[2].flush(frame.chunked);
    }
  }

  /** How long one station frame took to reach all its rovers (ms). */
  sample(ms: number): void {
    this.samples[this.next++ % this.samples.length] = ms;
  }

  /** Whether frames go through io_uring, and if not, why not. */
  directWrites(): { active: boolean; reason: string | null; threads: number } {
    return { active: this.direct !== undefined, reason: this.directOff, threads: this.direct ? this.threads : 1 };
  }

  /** Milliseconds per frame over the last 1024 frames that had rovers. */
  times(): { frames: number; p50: number; p99: number; max: number } {
    const times = this.samples.slice(0, Math.min(this.next, this.samples.length)).sort();
    const at = (q: number) =>
      times.length ? (times[Math.min(times.length - 1, Math.floor(q * times.length))] as number) : 0;
    return {
      frames: times.length,
      p50: at(0.5),
      p99: at(0.99),
      max: times.length ? (times[times.length - 1] as number) : 0,
    };
  }
}
