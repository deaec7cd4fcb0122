import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/launch.ts';
import { emulatorClient } from '../../server/src/dev/auth-emulator.ts';
import { freePort } from '../../server/src/dev/free-port.ts';
import { DEMO_ADMIN } from './support/auth';
import { type NpmProcess, spawnNpm, waitForOutput } from './support/npm-process';

/**
 * `npm start` stopped every way it can be, then started again on the same data: the demo admin and every user made
 * before still log in and find their own portal user. Its own ports and data folders, so it never touches the
 * repository's data/ nor a portal someone runs on the default ports; the suite's global setup runs another Auth
 * Emulator of the same project beside it all along.
 */

/**
 * Each start boots the Auth Emulator (firebase-tools compiles its API schema: 15 s on an idle two-core machine,
 * minutes when the machine is busy) and the server.
 */
const START_MS = 300_000;
const RESTART_MS = START_MS + 120_000;

interface PortalUser {
  email: string;
  password: string;
  termsAcceptedAt: string;
}

/** The living processes of the start's process group (orphans stay in it), as `pid args`. */
function processesOf(p: NpmProcess): Array<{ pid: number; args: string }> {
  return execFileSync('ps', ['-eo', 'pid=,pgid=,stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && Number(m[2]) === p.child.pid && !m[3]?.startsWith('Z'))
    .map((m) => ({ pid: Number(m[1]), args: m[4] ?? '' }));
}

/** The one process of the start whose command line matches, the innermost when a wrapper matches too. */
function processOf(p: NpmProcess, pattern: RegExp): number {
  const matching = processesOf(p).filter((row) => pattern.test(row.args));
  const found = matching.at(-1);
  if (!found)
    throw new Error(
      `no ${pattern} in:\n${processesOf(p)
        .map((r) => r.args)
        .join('\n')}`,
    );
  return found.pid;
}

/** Waits until nothing of the start runs any more: no orphan keeps a port or the PGlite directory. */
async function allGone(p: NpmProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const left = processesOf(p);
    if (left.length === 0) return;
    if (Date.now() > deadline) {
      throw new Error(`still running after the stop:\n${left.map((r) => `${r.pid} ${r.args}`).join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('npm start comes back after any stop, with every account', () => {
  const spaDir = `dist-e2e/restart-${process.pid}`;
  const users: PortalUser[] = [];
  let workDir: string;
  let env: Record<string, string>;
  let baseURL: string;
  let portal: NpmProcess;
  let emulator: ReturnType<typeof emulatorClient>;
  let tlsPort: number;

  /** The first line the caster answers a sourcetable request with over TLS, trusting only the certificate made. */
  const sourcetableOverTls = () =>
    new Promise<string>((resolve, reject) => {
      const ca = readFileSync(join(workDir, 'tls/localhost-cert.pem'));
      const socket = tls.connect({ host: '127.0.0.1', port: tlsPort, servername: 'localhost', ca }, () =>
        socket.write('GET / HTTP/1.0\r\nUser-Agent: NTRIP restart-test\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (d: Buffer) => {
        text += d.toString('latin1');
      });
      socket.on('close', () => resolve(text.split('\r\n')[0] ?? ''));
      socket.on('error', reject);
    });

  const userInfo = async (idToken: string) => {
    const res = await fetch(`${baseURL}/api/user`, { headers: { authorization: `Bearer ${idToken}` } });
    expect(res.status).toBe(200);
    return (await res.json()) as { isAdmin: boolean; termsAcceptedAt: string | null };
  };

  /** A user who signs up and accepts the terms, so their portal user has something to lose. */
  const signUpUser = async (label: string) => {
    const user = { email: `restart-${label}-${Date.now()}@example.test`, password: `pw-${label}-secret` };
    const { idToken } = await emulator.signUp(user.email, user.password);
    const res = await fetch(`${baseURL}/api/user/terms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${idToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ accepted: true }),
    });
    expect(res.status).toBe(200);
    users.push({ ...user, ...((await res.json()) as { termsAcceptedAt: string }) });
  };

  const startAgain = async () => {
    await allGone(portal);
    portal = spawnNpm(['start'], env);
    await waitForOutput(portal, 'GNSS portal ready', START_MS);
  };

  /** The demo admin is still an admin, and each user's terms acceptance is the one they gave: the same users row. */
  const everyoneLogsIn = async () => {
    const admin = await emulator.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    expect((await userInfo(admin.idToken)).isAdmin).toBe(true);
    for (const user of users) {
      const { idToken } = await emulator.signIn(user.email, user.password);
      expect(await userInfo(idToken)).toMatchObject({ isAdmin: false, termsAcceptedAt: user.termsAcceptedAt });
    }
  };

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'portal-restart-'));
    const [port, casterPort, authPort] = [await freePort(), await freePort(), await freePort()];
    tlsPort = await freePort();
    baseURL = `http://127.0.0.1:${port}`;
    env = {
      HOST: '127.0.0.1',
      PORT: String(port),
      CASTER_PORT: String(casterPort),
      CASTER_TLS_PORTS: String(tlsPort),
      AUTH_EMULATOR_PORT: String(authPort),
      PGLITE_DATA_DIR: join(workDir, 'db'),
      AUTH_EMULATOR_DATA_DIR: join(workDir, 'auth'),
      STATIC_DIR: join(root, spaDir),
      PUBLIC_URL: baseURL,
      LOG_LEVEL: 'warn',
    };
    emulator = emulatorClient(`127.0.0.1:${authPort}`);
    portal = spawnNpm(['start'], env);
    await waitForOutput(portal, 'GNSS portal ready', START_MS);
  }, RESTART_MS);

  afterAll(() => {
    if (portal?.child.pid) {
      try {
        process.kill(-portal.child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    rmSync(workDir, { recursive: true, force: true });
    rmSync(join(root, spaDir), { recursive: true, force: true });
  });

  it('serves NTRIP over TLS with the certificate it made for localhost', async () => {
    expect(await sourcetableOverTls()).toBe('SOURCETABLE 200 OK');
  });

  it(
    'after SIGTERM to its process group',
    async () => {
      await signUpUser('sigterm');
      process.kill(-(portal.child.pid as number), 'SIGTERM');
      await startAgain();
      await everyoneLogsIn();
    },
    RESTART_MS,
  );

  it(
    'after SIGINT to its process group (Ctrl-C)',
    async () => {
      await signUpUser('sigint');
      process.kill(-(portal.child.pid as number), 'SIGINT');
      await startAgain();
      await everyoneLogsIn();
    },
    RESTART_MS,
  );

  it(
    'after kill -9 of the server, which stops the rest',
    async () => {
      await signUpUser('server-killed');
      process.kill(processOf(portal, /server\/src\/main\.ts/), 'SIGKILL');
      expect(await portal.exited).not.toBe(0);
      await startAgain();
      await everyoneLogsIn();
    },
    RESTART_MS,
  );

  it(
    'after kill -9 of the Auth Emulator right after a sign-up, which stops the rest',
    async () => {
      await signUpUser('emulator-killed');
      process.kill(processOf(portal, /firebase\.js emulators:start/), 'SIGKILL');
      expect(await portal.exited).not.toBe(0);
      await startAgain();
      await everyoneLogsIn();
    },
    RESTART_MS,
  );

  it(
    'after kill -9 of the launcher, whose children then stop by themselves',
    async () => {
      await signUpUser('launcher-killed');
      process.kill(processOf(portal, /scripts\/start\.ts/), 'SIGKILL');
      await startAgain();
      await everyoneLogsIn();
    },
    RESTART_MS,
  );

  it(
    'after its saved Auth Emulator accounts were lost: demo accounts made again, a link to set a password for the rest',
    async () => {
      await signUpUser('accounts-lost');
      process.kill(-(portal.child.pid as number), 'SIGTERM');
      await allGone(portal);
      // What a data folder from before the accounts were saved on every change looks like after a lost export.
      rmSync(env.AUTH_EMULATOR_DATA_DIR as string, { recursive: true, force: true });
      await startAgain();

      const admin = await emulator.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
      expect((await userInfo(admin.idToken)).isAdmin).toBe(true);
      for (const user of users) {
        await expect(emulator.signIn(user.email, user.password)).rejects.toThrow();
        const line = portal
          .output()
          .split('\n')
          .find((l) => l.includes(`${user.email} was missing`));
        const link = / Set one: (\S+)NEW_PASSWORD$/.exec(line ?? '')?.[1];
        expect(link, portal.output()).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${env.AUTH_EMULATOR_PORT}/`));
        expect((await fetch(`${link}${user.password}`)).status).toBe(200);
      }
      await everyoneLogsIn();
    },
    RESTART_MS,
  );
});
