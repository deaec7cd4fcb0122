/**
 * A background job run every `intervalMs`: a tick while a run is under way is skipped, so runs never overlap; a
 * failed run is reported and the next tick tries again; `close` waits for the run under way, so a test or a shutdown
 * that closes the database after it finds no query still going. The timer is unref'd: it keeps no process alive.
 */
export function periodic(
  run: () => Promise<void>,
  options: { intervalMs: number; onError: (err: unknown) => void; runAtStart?: boolean },
) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = run()
      .catch(options.onError)
      .finally(() => {
        running = null;
      });
  };
  return {
    start(): void {
      if (timer) return;
      timer = setInterval(tick, options.intervalMs);
      timer.unref();
      if (options.runAtStart) tick();
    },
    async close(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
