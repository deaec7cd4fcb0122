import type { Logger } from './session-log.ts';

/** Writes to the ports that nothing waits for (station and feed status): a failure is logged, close awaits them. */
export class PendingWrites {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  track(write: Promise<void>, what: string): void {
    const settled = write.catch((err) => this.logger.error({ err }, `${what} write failed`));
    this.pending.add(settled);
    void settled.finally(() => this.pending.delete(settled));
  }

  async settled(): Promise<void> {
    await Promise.all(this.pending);
  }
}
