type WaitAsync = (a: Int32Array, i: number, v: number) => { async: boolean; value: Promise<unknown> | string };

/**
 * Resolves once `flags[index]` is no longer `value`: the test on the other side of the shared memory changes it and
 * calls Atomics.notify. (TypeScript's lib for this target does not declare Atomics.waitAsync, which Node has.)
 */
export async function waitWhile(flags: Int32Array, index: number, value: number): Promise<void> {
  while (Atomics.load(flags, index) === value) {
    const waited = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync(flags, index, value);
    if (waited.async) await waited.value;
  }
}
