import type { Clock, ClockTimer } from './clock.ts';
import type { SessionRecord, SessionStartRecord, UsagePort } from './ports.ts';

export interface Logger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/**
 * Collects begun and ended rover sessions and hands them to the usage port in batches, never one write per session.
 * Starts go first, so a session's start is never reported after its end.
 */
export class SessionLog {
  private queue: SessionRecord[] = [];
  private starts: SessionStartRecord[] = [];
  private readonly timer: ClockTimer;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly usage: UsagePort,
    private readonly logger: Logger,
    private readonly batchSize: number,
    intervalMs: number,
    private readonly clock: Clock,
  ) {
    this.timer = clock.setInterval(() => void this.flush(), intervalMs);
  }

  record(session: SessionRecord): void {
    this.queue.push(session);
    if (this.queue.length >= this.batchSize) void this.flush();
  }

  /** Kept only when the usage port takes starts. */
  started(session: SessionStartRecord): void {
    if (!this.usage.recordSessionStarts) return;
    this.starts.push(session);
    if (this.starts.length >= this.batchSize) void this.flush();
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.starts.length > 0) {
        const starts = this.starts;
        this.starts = [];
        try {
          await this.usage.recordSessionStarts?.(starts);
        } catch (err) {
          this.logger.error({ err, sessions: starts.length }, 'session starts write failed; dropped');
        }
      }
      if (this.queue.length === 0) return;
      const batch = this.queue;
      this.queue = [];
      try {
        await this.usage.recordSessions(batch);
      } catch (err) {
        this.logger.error({ err, sessions: batch.length }, 'session log write failed; sessions dropped');
      }
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    this.clock.clear(this.timer);
    await this.flush();
  }
}
