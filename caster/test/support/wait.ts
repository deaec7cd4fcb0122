import { vi } from 'vitest';

/** Waits for a condition that I/O makes true (a socket event, a bus message), failing with what was awaited. */
export async function until(
  condition: () => unknown | Promise<unknown>,
  what: string | (() => string),
  timeout = 5000,
): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await condition())) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    },
    { timeout, interval: 20 },
  );
}
