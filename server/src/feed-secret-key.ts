import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Config, isFeedSecretKey } from './config.ts';

/**
 * FEED_SECRET_KEY when none is configured (docs/adr/0050-no-published-secret.md). The key seals pull-feed
 * passwords and signs connection-test logins, RINEX links and unsubscribe links, so it must be secret and survive a
 * restart: a development start keeps a random one in its PGlite data directory, readable by its owner only.
 * loadConfig has already refused a start with real credentials and no key.
 */

/** The file in the PGlite data directory (beside the database's own files, its lock and control socket). */
export const FEED_SECRET_KEY_FILE = 'feed-secret.key';

let perProcess: string | undefined;

/**
 * A random key for this process: an in-memory database (tests) lives no longer than it, so nothing sealed or
 * signed with it has to outlive it either.
 */
export function processFeedSecretKey(): string {
  perProcess ??= randomBytes(32).toString('base64');
  return perProcess;
}

/**
 * The key kept in a directory: a PGlite data directory's, or the loopback topology's (scripts/topology.ts) that its
 * nodes share. Made (mode 0600) on the first start and read on every later one.
 */
export function keptFeedSecretKey(dir: string): string {
  const file = join(dir, FEED_SECRET_KEY_FILE);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  // Copied in with a wider mode (a restored backup): others on the machine could read it, so narrow it.
  if (statSync(file).mode & 0o077) chmodSync(file, 0o600);
  const key = readFileSync(file, 'utf8').trim();
  if (!isFeedSecretKey(key)) {
    throw new Error(
      `Invalid configuration:\n  FEED_SECRET_KEY: ${file} does not hold a key (32 bytes in base64); set FEED_SECRET_KEY or restore the file`,
    );
  }
  return key;
}

/**
 * The key this process uses: the configured one; else the PGlite data directory's own; else, for an in-memory
 * database, one per process. PostgreSQL without a key is refused: the API and every caster on that database must
 * share one, and no directory of theirs is common to all of them.
 */
export function feedSecretKeyOf(config: Pick<Config, 'FEED_SECRET_KEY' | 'DATABASE_URL' | 'PGLITE_DATA_DIR'>): string {
  if (config.FEED_SECRET_KEY) return config.FEED_SECRET_KEY;
  if (config.DATABASE_URL) {
    throw new Error(
      'Invalid configuration:\n  FEED_SECRET_KEY: required with DATABASE_URL, the same in the API and every caster (openssl rand -base64 32)',
    );
  }
  return config.PGLITE_DATA_DIR === 'memory://' ? processFeedSecretKey() : keptFeedSecretKey(config.PGLITE_DATA_DIR);
}
