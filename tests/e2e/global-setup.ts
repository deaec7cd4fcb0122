import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildSpaIfStale, root } from '../../scripts/launch.ts';
import { startAuthEmulator } from '../../server/src/dev/auth-emulator.ts';
import { freePort } from '../../server/src/dev/free-port.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    authEmulatorHost: string;
    casterPort: number;
    /** The production build the portal serves (size-budget.e2e.ts reads it). */
    spaDir: string;
    /**
     * The portal's SMTP_URL is smtp://127.0.0.1:{smtpPort}. Nothing listens there unless a test starts an SMTP server
     * on it (server/test/support/smtp.ts, startSmtpServer(port)) to read the mail; until then each mail waits and is
     * retried (docs/adr/0025-mail.md), and no run ever mails through a developer's own SMTP_URL.
     */
    smtpPort: number;
  }
}

async function waitFor(url: string, server: ChildProcess, output: () => string): Promise<void> {
  // Migrations and the demo seed take well over a minute when the machine is shared with other test runs.
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`Portal server exited:\n${output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Portal server did not answer ${url}:\n${output()}`);
}

/**
 * The whole portal as a user gets it: the production SPA build (pointed at this run's emulator), the API and caster
 * on free ports with a fresh PGlite store, and the Auth Emulator.
 */
export default async function setup(project: TestProject) {
  const emulator = await startAuthEmulator();
  // The build bakes in this run's emulator address, so each run builds into its own folder: two e2e runs at the
  // same time (several engineers share one tree) must not serve each other's build, pointing at a stopped emulator.
  const spaDir = `dist-e2e/run-${emulator.host.split(':').pop()}`;
  // The connection card shows the caster's address from the build (VITE_RELAY_*), and its str2str line is run
  // as shown: the build must name this run's caster.
  const casterPort = await freePort();
  // A developer's .env may name a real automation webhook; the suite must only ever talk to its own server.
  // NODE_ENV: vitest sets 'test', which gave React's development build (StrictMode runs effects twice), not the
  // production build users get.
  await buildSpaIfStale(
    {
      NODE_ENV: 'production',
      VITE_FIREBASE_AUTH_EMULATOR_URL: `http://${emulator.host}`,
      VITE_DEMO_WEBHOOK_URL: '',
      VITE_RELAY_HOST: '127.0.0.1',
      VITE_RELAY_PORT: String(casterPort),
    },
    spaDir,
  );
  const port = await freePort();
  const smtpPort = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-'));
  let output = '';
  const server = spawn(
    process.execPath,
    [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'server/src/main.ts')],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(port),
        CASTER_PORT: String(casterPort),
        PGLITE_DATA_DIR: join(dataDir, 'db'),
        // The archive and RINEX results of this run only: the defaults are folders of the repository.
        ARCHIVE_DIR: join(dataDir, 'archive'),
        RINEX_RESULTS_DIR: join(dataDir, 'rinex'),
        STATIC_DIR: join(root, spaDir),
        FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
        SEED_DEMO: 'true',
        LOG_LEVEL: 'warn',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        // An SMTP server makes the start a real one, which needs its own key (docs/adr/0050-no-published-secret.md).
        FEED_SECRET_KEY: randomBytes(32).toString('base64'),
        // The webhook e2e (machine-access) delivers to a receiver on loopback (docs/adr/0079).
        WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      },
    },
  );
  server.stdout?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  server.stderr?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  const baseURL = `http://127.0.0.1:${port}`;
  await waitFor(`${baseURL}/api/meta`, server, () => output);
  project.provide('baseURL', baseURL);
  project.provide('authEmulatorHost', emulator.host);
  project.provide('casterPort', casterPort);
  project.provide('spaDir', join(root, spaDir));
  project.provide('smtpPort', smtpPort);

  return async () => {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await emulator.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(join(root, spaDir), { recursive: true, force: true });
  };
}
