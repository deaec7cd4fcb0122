import { afterAll, beforeAll } from 'vitest';
import { loadNativeIo } from '../../src/native-io.ts';

export type Transport = 'node' | 'native';

/**
 * The plain port's transports a caster test runs with: Node's sockets, and the native port (ADR 0095) where its addon
 * is built. A file runs its tests with each in `describe.each(TRANSPORTS)`, calling `forTransport` in the block.
 */
export const TRANSPORTS: Transport[] = 'native' in loadNativeIo() ? ['node', 'native'] : ['node'];

/** The `nativeIo` option of createCaster for the block whose tests are running. */
export const plainPort = { nativeIo: false };

export function forTransport(transport: Transport): void {
  beforeAll(() => {
    plainPort.nativeIo = transport === 'native';
  });
  afterAll(() => {
    plainPort.nativeIo = false;
  });
}
