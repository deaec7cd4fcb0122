import type { Database } from '../../src/db/client.ts';
import { processFeedSecretKey } from '../../src/feed-secret-key.ts';
import { type CasterServiceOptions, startCasterService } from '../../src/modules/ntrip/index.ts';

/** The key these tests' casters decrypt feed secrets with: the one an API built without a key uses too. */
export const TEST_FEED_KEY = processFeedSecretKey();
export const TEST_PUBLIC_URL = 'http://localhost:8080';

const silent = { info() {}, warn() {}, error() {} };

/** The portal's caster on a free loopback port, quiet, with whatever a test needs on top. */
export function startTestCaster(db: Database, options: Partial<CasterServiceOptions> = {}) {
  return startCasterService({
    db,
    port: 0,
    host: '127.0.0.1',
    feedSecretKey: TEST_FEED_KEY,
    publicUrl: TEST_PUBLIC_URL,
    publicHost: 'localhost',
    logger: silent,
    ...options,
  });
}
