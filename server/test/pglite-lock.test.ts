import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { PgliteInUseError } from '../src/db/pglite-lock.ts';

const root = new URL('../..', import.meta.url).pathname;
const run = process.env.TEST_DATABASE === 'postgres' ? describe.skip : describe;

function hold(dir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/test/support/hold-pglite.ts', dir], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('holding')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`holder exited with ${code}`)));
  });
}

function withoutDatabaseUrl(): NodeJS.ProcessEnv {
  const { DATABASE_URL: _, ...env } = process.env;
  return env;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) =>
    child.exitCode !== null || child.signalCode ? resolve() : child.on('exit', () => resolve()),
  );
}

run('one process per PGlite directory', () => {
  let dir: string;
  let holder: ChildProcess | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pglite-lock-'));
  });
  afterEach(async () => {
    if (holder) {
      holder.kill('SIGKILL');
      await exited(holder);
    }
    holder = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second process while the owner runs, naming the directory and the owner', async () => {
    holder = await hold(dir);
    const error = await openDatabase({ pgliteDataDir: dir }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(PgliteInUseError);
    expect((error as Error).message).toContain(`${dir} is in use by process ${holder.pid}`);
  }, 90_000);

  it('refuses the operator commands as printed in the README with that message, and changes nothing', async () => {
    holder = await hold(dir);
    const result = spawnSync('npm', ['run', 'db:migrate'], {
      cwd: root,
      env: { ...withoutDatabaseUrl(), PGLITE_DATA_DIR: dir },
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`is in use by process ${holder.pid}`);
    expect(JSON.parse(readFileSync(join(dir, 'portal.lock'), 'utf8')).pid).toBe(holder.pid);
  }, 120_000);

  it('takes over the lock of an owner killed with SIGKILL, and releases it on close', async () => {
    holder = await hold(dir);
    holder.kill('SIGKILL');
    await exited(holder);
    holder = undefined;
    const handle = await openDatabase({ pgliteDataDir: dir });
    expect(JSON.parse(readFileSync(join(dir, 'portal.lock'), 'utf8')).pid).toBe(process.pid);
    await handle.close();
    expect(() => readFileSync(join(dir, 'portal.lock'))).toThrow(/ENOENT/);
  }, 90_000);

  it('takes over a lock left with this process id by an earlier life (a restarted container)', async () => {
    writeFileSync(join(dir, 'portal.lock'), JSON.stringify({ pid: process.pid, hostname: hostname() }));
    const handle = await openDatabase({ pgliteDataDir: dir });
    await expect(openDatabase({ pgliteDataDir: dir })).rejects.toBeInstanceOf(PgliteInUseError);
    await handle.close();
  }, 90_000);
});
