import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { askRunningPortal } from '../src/cli/control-socket.ts';
import { openDatabase } from '../src/db/client.ts';

const root = new URL('../..', import.meta.url).pathname;
const run = process.env.TEST_DATABASE === 'postgres' ? describe.skip : describe;
const EMAIL = 'surveyor@demo.gnss-portal.test';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The environment `npm start` gives the portal, with the suite's Auth Emulator, without the SPA, on a temporary PGlite. */
function portalEnv(dir: string, port: number): NodeJS.ProcessEnv {
  const { DATABASE_URL: _, ...env } = process.env;
  return {
    ...env,
    PGLITE_DATA_DIR: dir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SERVICES: 'api',
    SEED_DEMO: 'true',
    FIREBASE_PROJECT_ID: 'demo-gnss-portal',
    FIREBASE_AUTH_EMULATOR_HOST: inject('authEmulatorHost'),
  };
}

/** A README command, exactly as printed, run from the repository root. */
function operator(command: string, env: NodeJS.ProcessEnv) {
  const result = spawnSync('sh', ['-c', command], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, out: result.stdout, err: result.stderr };
}

run('operator commands while the portal runs on PGlite (README)', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let portal: ChildProcess;
  let exited: Promise<number | null>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'operator-cli-'));
    env = portalEnv(dir, await freePort());
    portal = spawn('npm', ['run', '-w', 'server', 'start'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    exited = new Promise((resolve) => portal.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      let output = '';
      portal.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('GNSS portal ready')) resolve();
      });
      portal.on('exit', () => reject(new Error(`portal exited:\n${output}`)));
    });
  }, 180_000);

  afterAll(async () => {
    // npm does not pass signals on: signal the group the test started, whatever of it a failed test left running.
    try {
      process.kill(-(portal.pid as number), 'SIGKILL');
    } catch {
      // the group is gone
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the control socket to the owner of the data directory and refuses unknown commands', async () => {
    expect(statSync(join(dir, 'portal.sock')).mode & 0o077).toBe(0);
    const answer = await askRunningPortal(dir, { command: 'drop-everything' } as never);
    expect(answer?.err).toEqual(['The portal does not know that command.']);
  }, 60_000);

  it('runs the README commands through the running portal, and the portal keeps what they wrote', async () => {
    const account = operator(
      `npm run caster -- account --email ${EMAIL} --username rover1 --password secret123 --network dutch-rtk --days 1`,
      env,
    );
    expect(account.err).not.toContain('in use by process');
    expect(account.status).toBe(0);
    expect(account.out).toContain(`NTRIP account 'rover1'`);

    const grant = operator(`npm run admin:grant -- ${EMAIL}`, env);
    expect(grant.status).toBe(0);
    expect(grant.out).toContain(`${EMAIL} is now an admin.`);

    const migrate = operator('npm run db:migrate', env);
    expect(migrate.status).toBe(0);
    expect(migrate.out).toContain('Database is up to date.');

    // The running portal answers from what the commands wrote: the username is now taken.
    const again = operator(
      `npm run caster -- account --email ${EMAIL} --username rover1 --password secret123 --network dutch-rtk --days 1`,
      env,
    );
    expect(again.status).toBe(1);

    process.kill(-(portal.pid as number), 'SIGTERM');
    await exited;
    // npm ends at the signal; the server it started still closes its database. The group is empty once it has.
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        process.kill(-(portal.pid as number), 0);
      } catch {
        break;
      }
      if (Date.now() > deadline) throw new Error('the portal was still running 30 s after SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const handle = await openDatabase({ pgliteDataDir: dir });
    try {
      const user = await sql<{ is_admin: boolean; accounts: number }>`
        select u.is_admin, (select count(*) from ntrip_accounts a where a.username = 'rover1')::int as accounts
        from users u where u.email = ${EMAIL}`.execute(handle.db);
      expect(user.rows).toEqual([{ is_admin: true, accounts: 1 }]);
    } finally {
      await handle.close();
    }
  }, 600_000);
});
