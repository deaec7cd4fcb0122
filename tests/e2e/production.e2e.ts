import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSpaIfStale, root } from '../../scripts/launch.ts';
import { freePort } from '../../server/src/dev/free-port.ts';
import { DEMO_USER, logIn } from './support/auth';
import { launchBrowser, newSession } from './support/browser';
import { type NpmProcess, spawnNpm, waitForOutput } from './support/npm-process';

/**
 * The portal started the way docs/deployment.md's Production section says: `npm run -w server start` with
 * NODE_ENV=production on PostgreSQL, the API and the caster as separate processes sharing NATS, a SPA built for
 * a real Firebase project, Stripe keys of the test-mode format and a throwaway service account. Nothing here
 * reaches Google or Stripe: ID tokens of a real project cannot be verified offline, so no signed-in call is made.
 */
const POSTGRES = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
const PROJECT = 'acme-portal-ci';

/** The pids under `pid`, nearest first. */
function descendants(pid: number): Array<{ pid: number; args: string }> {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] ?? '' }));
  const found: Array<{ pid: number; args: string }> = [];
  const queue = [pid];
  for (let parent = queue.shift(); parent !== undefined; parent = queue.shift()) {
    for (const row of rows.filter((r) => r.ppid === parent)) {
      found.push(row);
      queue.push(row.pid);
    }
  }
  return found;
}

/**
 * SIGTERM to the start script's own process (tsx, which hands it to the server), as a process manager that runs
 * the script stops it, and the exit code that comes back through npm. npm itself does not pass SIGTERM on.
 */
async function stop(p: NpmProcess): Promise<number | null> {
  if (p.child.exitCode !== null || p.child.pid === undefined) return p.child.exitCode;
  // `node …/.bin/tsx src/main.ts`, not the `sh -c` npm may put in between, nor the node process tsx starts.
  const script = descendants(p.child.pid).find((d) => /^\S*node\s+\S*\btsx\s/.test(d.args));
  if (!script) throw new Error(`no tsx process under npm ${p.child.pid}:\n${p.output()}`);
  process.kill(script.pid, 'SIGTERM');
  return p.exited;
}

/** Whatever is left of a start (after a failed test): the whole process group. */
function kill(p: NpmProcess | undefined): void {
  if (!p?.child.pid) return;
  try {
    process.kill(-p.child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** A service-account file of the real format for a key nobody holds; firebase-admin reads it at start. */
function throwawayServiceAccount(dir: string): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const file = join(dir, 'service-account.json');
  writeFileSync(
    file,
    JSON.stringify({
      type: 'service_account',
      project_id: PROJECT,
      private_key_id: randomBytes(20).toString('hex'),
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
      client_email: `portal-ci@${PROJECT}.iam.gserviceaccount.com`,
      client_id: '100000000000000000001',
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: 'https://oauth2.googleapis.com/token',
      auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
      client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/portal-ci%40${PROJECT}.iam.gserviceaccount.com`,
    }),
  );
  return file;
}

describe('production start (NODE_ENV=production, PostgreSQL, API and caster apart, NATS)', () => {
  const database = `portal_prod_${randomBytes(6).toString('hex')}`;
  const spaDir = `dist-e2e/production-${process.pid}`;
  let workDir: string;
  let env: Record<string, string>;
  let api: NpmProcess;
  let caster: NpmProcess;
  let apiUrl: string;
  let casterPort: number;

  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: POSTGRES });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'portal-production-'));
    await buildSpaIfStale(
      {
        NODE_ENV: 'production',
        VITE_FIREBASE_API_KEY: 'AIzaSyCi-offline-test-key-000000000000',
        VITE_FIREBASE_AUTH_DOMAIN: `${PROJECT}.firebaseapp.com`,
        VITE_FIREBASE_PROJECT_ID: PROJECT,
        VITE_FIREBASE_APP_ID: '1:100000000001:web:0000000000000000',
        VITE_FIREBASE_AUTH_EMULATOR_URL: '',
        VITE_DEMO_WEBHOOK_URL: '',
      },
      spaDir,
    );
    await admin(`CREATE DATABASE ${database}`);
    const url = new URL(POSTGRES);
    url.pathname = `/${database}`;
    const port = await freePort();
    casterPort = await freePort();
    apiUrl = `http://127.0.0.1:${port}`;
    env = {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      CASTER_PORT: String(casterPort),
      DATABASE_URL: url.toString(),
      STATIC_DIR: join(root, spaDir),
      PUBLIC_URL: apiUrl,
      FIREBASE_PROJECT_ID: PROJECT,
      GOOGLE_APPLICATION_CREDENTIALS: throwawayServiceAccount(workDir),
      FEED_SECRET_KEY: randomBytes(32).toString('base64'),
      STRIPE_SECRET_KEY: `sk_test_${randomBytes(24).toString('hex')}`,
      STRIPE_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('hex')}`,
      CASTER_BUS_URL: NATS,
      // Production requires a mail server; nothing listens here, so mail waits and is retried, never sent.
      SMTP_URL: `smtp://127.0.0.1:${await freePort()}`,
      // With a bus the caster archives to NATS: a bucket of this run's own, deleted afterwards.
      ARCHIVE_NATS_BUCKET: database,
      LOG_LEVEL: 'warn',
    };
    // Both at once, as a process manager starts them: migrations take an advisory lock.
    api = spawnNpm(['run', '-w', 'server', 'start'], { ...env, SERVICES: 'api' });
    caster = spawnNpm(['run', '-w', 'server', 'start'], { ...env, SERVICES: 'caster', CASTER_NODE_ID: 'ci-caster' });
    await Promise.all([
      waitForOutput(api, 'GNSS portal ready', 90_000),
      waitForOutput(caster, 'NTRIP caster listening on port', 90_000),
    ]);
  });

  afterAll(async () => {
    kill(api);
    kill(caster);
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    const nc = await connect({ servers: NATS });
    const jsm = await nc.jetstreamManager();
    for (const stream of [`OBJ_${database}`, `ARCHIVE_TAIL_${database}`, `KV_${database}-leases`]) {
      await jsm.streams.delete(stream).catch(() => false);
    }
    await nc.close();
    rmSync(workDir, { recursive: true, force: true });
    rmSync(join(root, spaDir), { recursive: true, force: true });
  });

  it('answers /api/meta with the security headers of production', async () => {
    const res = await fetch(`${apiUrl}/api/meta`);
    expect(res.status).toBe(200);
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('serves the SPA and its deep links with a policy for the real Firebase project and no framing', async () => {
    for (const path of ['/', '/accounts', '/admin/networks']) {
      const res = await fetch(`${apiUrl}${path}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<div id="root"></div>');
      const policy = res.headers.get('content-security-policy') ?? '';
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).toContain(`frame-src https://${PROJECT}.firebaseapp.com`);
      expect(policy).toContain('connect-src');
      expect(policy).not.toContain('127.0.0.1');
      expect(res.headers.get('strict-transport-security')).toBeTruthy();
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('runs the SPA in Chromium without a Content Security Policy violation', async () => {
    const browser: Browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const refused: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
      });
      // The public coverage map: MapLibre's blob: workers and data: images, the API and the locale files.
      // MapLibre loads when the visitor reaches for the map (the zoom button of its picture).
      await page.goto(`${apiUrl}/marketplace`);
      await page.getByRole('button', { name: 'Zoom in', exact: true }).click({ timeout: 60_000 });
      await page.locator('canvas.maplibregl-canvas').waitFor({ timeout: 60_000 });
      await page.goto(`${apiUrl}/dashboard`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.reload();
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(refused).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it("answers the caster's sourcetable on its own port, from its own process", async () => {
    const res = await fetch(`http://127.0.0.1:${casterPort}/`, {
      headers: { 'Ntrip-Version': 'Ntrip/2.0', 'User-Agent': 'NTRIP production-ci' },
    });
    expect(res.status).toBe(200);
    const table = await res.text();
    expect(table).toMatch(/^CAS;/m);
    expect(table).toContain('ENDSOURCETABLE');
  });

  it.each([
    ['the sandbox payment provider', { PAYMENT_PROVIDER: 'sandbox' }, 'PAYMENT_PROVIDER'],
    ['no Stripe key (the sandbox)', { STRIPE_SECRET_KEY: '' }, 'PAYMENT_PROVIDER'],
    ['the Auth Emulator', { FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' }, 'FIREBASE_AUTH_EMULATOR_HOST'],
    ['demo seeding', { SEED_DEMO: 'true' }, 'SEED_DEMO'],
    ['no feed key', { FEED_SECRET_KEY: '' }, 'FEED_SECRET_KEY'],
    [
      'a missing service-account file',
      { GOOGLE_APPLICATION_CREDENTIALS: '/nonexistent/sa.json' },
      'GOOGLE_APPLICATION_CREDENTIALS',
    ],
    ['the built-in feed key', { FEED_SECRET_KEY: 'ZGV2LW9ubHktZmVlZC1zZWNyZXQta2V5LTMyYnl0ZXM=' }, 'FEED_SECRET_KEY'],
  ])('refuses to start with %s, naming the variable', async (_, change, variable) => {
    const refused = spawnNpm(['run', '-w', 'server', 'start'], { ...env, SERVICES: 'api', PORT: '0', ...change });
    const code = await refused.exited;
    expect(code, refused.output()).not.toBe(0);
    expect(refused.output()).toMatch(new RegExp(`Invalid configuration:[\\s\\S]*${variable}: `));
    expect(refused.output()).not.toContain('GNSS portal ready');
  });

  it('stops both processes cleanly on SIGTERM', async () => {
    const [apiCode, casterCode] = await Promise.all([stop(api), stop(caster)]);
    expect(apiCode, api.output()).toBe(0);
    expect(casterCode, caster.output()).toBe(0);
  });
});

describe('the Content Security Policy of the Auth Emulator build', () => {
  it('lets a user log in through the modal and use the maps and pages without a violation', async () => {
    const browser = await launchBrowser();
    try {
      const s = await newSession(browser);
      const refused: string[] = [];
      s.page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
      });
      await s.goto('/marketplace');
      await s.page.getByRole('button', { name: 'Zoom in', exact: true }).click({ timeout: 60_000 });
      await s.page.locator('canvas.maplibregl-canvas').waitFor({ timeout: 60_000 });
      await logIn(s, DEMO_USER);
      await s.goto('/map');
      await s.page.getByRole('button', { name: 'Zoom in', exact: true }).click({ timeout: 60_000 });
      await s.page.locator('canvas.maplibregl-canvas').waitFor({ timeout: 60_000 });
      for (const path of ['/accounts', '/credits', '/settings']) {
        await s.goto(path);
        await s.page.getByRole('heading', { level: 1 }).waitFor();
      }
      expect(refused).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
