import { vi } from 'vitest';

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * Waits for a condition that I/O makes true (a socket event, a bus message, a row or an answer of the API),
 * failing with what was awaited. Resolves to the condition's value once it is truthy. The one polling helper of
 * the caster's, the server's and the e2e tests.
 */
export async function until<T>(
  condition: () => T | Promise<T>,
  what: string | (() => string | Promise<string>),
  timeout = 5000,
  interval = 20,
): Promise<Truthy<Awaited<T>>> {
  return vi.waitFor(
    async () => {
      const value = await condition();
      if (!value) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : await what()}`);
      return value as Truthy<Awaited<T>>;
    },
    { timeout, interval },
  );
}

/**
 * Reads `get` until `ok` accepts what it gave, and resolves to that; on timeout the error shows the last value read,
 * so a test that waits on an API's answer says what the answer was.
 */
export async function untilValue<T>(
  get: () => T | Promise<T>,
  ok: (value: T) => boolean,
  what: string,
  { timeout = 5000, interval = 20 }: { timeout?: number; interval?: number } = {},
): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await get();
      if (!ok(value)) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
      return value;
    },
    { timeout, interval },
  );
}
