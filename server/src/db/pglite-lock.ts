import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * A PGlite data directory has one owner process: a second PGlite on the same files writes over the first one's
 * pages, and what it wrote is lost or corrupts the database at the owner's next checkpoint. PGlite itself does not
 * stop that, so the owner keeps `portal.lock` in the directory with its PID (ADR 0016).
 */
export class PgliteInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The PGlite database ${dataDir} is in use by process ${pid} (the running portal, or another command on it). ` +
        'PGlite belongs to one process at a time: stop that process first, or use PostgreSQL (DATABASE_URL).',
    );
    this.name = 'PgliteInUseError';
  }
}

interface LockOwner {
  pid: number;
  hostname: string;
}

const held = new Set<string>();

function readOwner(file: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' ? { pid: owner.pid, hostname: String(owner.hostname ?? '') } : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A lock is stale when its process is gone (kill -9, a crash, a power cut). Our own PID counts as gone unless this
 * process took the lock: after a restart in a container the portal often gets the PID it had before.
 */
function isStale(owner: LockOwner | undefined, file: string): boolean {
  if (!owner) return true;
  if (owner.hostname !== hostname()) return false;
  if (owner.pid === process.pid) return !held.has(file);
  return !isAlive(owner.pid);
}

/** Takes the directory's lock or throws PgliteInUseError; the returned function releases it. */
export function lockPgliteDir(dataDir: string, log: (line: string) => void = console.warn): () => void {
  const file = join(dataDir, 'portal.lock');
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, hostname: hostname(), since: new Date().toISOString() }));
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = readOwner(file);
      if (attempt > 0 || !isStale(owner, file)) throw new PgliteInUseError(dataDir, owner?.pid ?? Number.NaN);
      log(`Taking over the stale lock of ${dataDir} (process ${owner?.pid ?? 'unknown'} is gone).`);
      try {
        unlinkSync(file);
      } catch (unlinkErr) {
        if ((unlinkErr as NodeJS.ErrnoException).code !== 'ENOENT') throw unlinkErr;
      }
    }
  }
  held.add(file);
  const release = () => {
    process.off('exit', release);
    if (!held.delete(file)) return;
    if (readOwner(file)?.pid === process.pid) unlinkSync(file);
  };
  process.on('exit', release);
  return release;
}
