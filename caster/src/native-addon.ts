import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

export type Loaded<T> = { native: T } | { error: string };

const loaded = new Map<string, Loaded<unknown>>();

/**
 * An addon of `caster/native` (`name`.node), loaded once, or why it is not there: not Linux (`linuxOnly` says what
 * needs it), not built (no C compiler when the workspace was installed), or the kernel refuses it.
 */
export function loadAddon<T>(name: string, linuxOnly: string): Loaded<T> {
  const known = loaded.get(name);
  if (known) return known as Loaded<T>;
  const file = new URL(`../native/build/Release/${name}.node`, import.meta.url);
  let result: Loaded<T>;
  if (process.platform !== 'linux') result = { error: linuxOnly };
  else if (!existsSync(file)) result = { error: 'caster/native is not built (npm run -w caster build:native)' };
  else {
    try {
      result = { native: createRequire(import.meta.url)(file.pathname) as T };
    } catch (err) {
      result = { error: (err as Error).message };
    }
  }
  loaded.set(name, result);
  return result;
}
