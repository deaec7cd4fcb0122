import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { CASTER_NODE_FLAGS } from '../caster/src/node-flags.ts';
import { startAuthEmulator } from '../server/src/dev/auth-emulator.ts';
import { onParentGone, STOP_WITH_PARENT } from '../server/src/dev/stop-with-parent.ts';
import { keptFeedSecretKey } from '../server/src/feed-secret-key.ts';
import { buildSpaIfStale, pathFromEnv, root } from './launch.ts';

/**
 * `npm run topology`: the deployment of deploy/ (docs/deployment.md) on one machine, each node on its own loopback
 * address: HAProxy in front (the portal on http://localhost:$PORT, NTRIP on $CASTER_PORT), two API nodes, three
 * caster nodes, a three-node NATS cluster with JetStream and a PostgreSQL server of its own, with demo data and the
 * Auth Emulator as `npm start` has them. It runs in the foreground and stops everything on SIGINT or SIGTERM. Like
 * systemd's Restart=always, a node that ends (killed, drained) is started again after a second.
 *
 * `npm run -s topology -- status`: the running processes as JSON; `npm run -s topology -- drain caster-2`: drain a
 * caster node (SIGUSR2) before an upgrade.
 */

type Role = 'haproxy' | 'api' | 'caster' | 'nats' | 'postgres';
interface Entry {
  role: Role;
  name: string;
  address: string;
  pid: number;
}

const dir = pathFromEnv(process.env.TOPOLOGY_DIR ?? './data/topology');
const statusFile = join(dir, 'status.json');
const command = process.argv[2] ?? 'run';

if (command === 'status' || command === 'drain') {
  const status = readStatus();
  if (command === 'status') {
    console.log(JSON.stringify(status.processes, null, 2));
  } else {
    const name = process.argv[3];
    const node = status.processes.find((p) => p.role === 'caster' && p.name === name);
    if (!node) {
      console.error(`usage: npm run -s topology -- drain CASTER (one of ${casterNames(status.processes)})`);
      process.exit(1);
    }
    process.kill(node.pid, 'SIGUSR2');
    console.log(`${name} (pid ${node.pid}) is draining; it starts again once its rovers and sources are handed over`);
  }
  process.exit(0);
} else if (command !== 'run') {
  console.error('usage: npm run topology [-- status | -- drain CASTER]');
  process.exit(1);
}

function casterNames(processes: Entry[]): string {
  return processes
    .filter((p) => p.role === 'caster')
    .map((p) => p.name)
    .join(', ');
}

function readStatus(): { launcher: number; processes: Entry[] } {
  let status: { launcher: number; processes: Entry[] };
  try {
    status = JSON.parse(readFileSync(statusFile, 'utf8'));
    process.kill(status.launcher, 0);
  } catch {
    console.error(`No topology is running from ${dir} (start it with npm run topology).`);
    process.exit(1);
  }
  return status;
}

// --- The layout: addresses, ports, environment -------------------------------------------------------------

/** 127.<net>.x.y: a second topology (a test beside a developer's) takes another TOPOLOGY_NET. */
const net8 = Number(process.env.TOPOLOGY_NET ?? 0);
if (!Number.isInteger(net8) || net8 < 0 || net8 > 254) throw new Error('TOPOLOGY_NET: a number from 0 to 254');
const address = (group: number, node: number) => `127.${net8}.${group}.${node}`;
const portalPort = Number(process.env.PORT ?? 8080);
const ntripPort = Number(process.env.CASTER_PORT ?? 2101);
const authPort = Number(process.env.AUTH_EMULATOR_PORT ?? 9099);
const staticDir = pathFromEnv(process.env.STATIC_DIR ?? 'dist');
/** Where the balancer's connections to the nodes come from: the address the nodes trust for X-Forwarded-For and PROXY. */
const BALANCER = '127.0.0.1';
const casters = [1, 2, 3].map((n) => ({ name: `caster-${n}`, host: address(1, n) }));
const apis = [1, 2].map((n) => ({ name: `api-${n}`, host: address(2, n) }));
const postgresHost = address(3, 1);
const natsNodes = [1, 2, 3].map((n) => ({ name: `nats-${n}`, host: address(4, n) }));
const databaseUrl = `postgres://postgres@${postgresHost}:5432/portal`;
const busUrl = natsNodes.map((n) => `nats://${n.host}:4222`).join(',');
const pgBin = (name: string) => {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  return join('/usr/lib/postgresql', versions[0] ?? '', 'bin', name);
};

/** What every API and caster node shares (deploy/env/portal.env, with the demo's settings instead of production's). */
const portalEnv: Record<string, string> = {
  NODE_ENV: 'development',
  DATABASE_URL: databaseUrl,
  CASTER_BUS_URL: busUrl,
  // Every JetStream bucket on all three NATS nodes: one stopped keeps the connection ledger and the archive.
  CASTER_BUS_REPLICAS: '3',
  ARCHIVE_STORE: 'nats',
  PUBLIC_URL: `http://localhost:${portalPort}`,
  CASTER_PUBLIC_HOST: 'localhost',
  STATIC_DIR: staticDir,
  RINEX_RESULTS_DIR: join(dir, 'rinex'),
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  CASTER_DRAIN_SECONDS: process.env.CASTER_DRAIN_SECONDS ?? '30',
};

// --- Processes ---------------------------------------------------------------------------------------------

const processes = new Map<string, Entry>();
let stopping = false;

function writeStatus(): void {
  const tmp = `${statusFile}.tmp`;
  writeFileSync(tmp, JSON.stringify({ launcher: process.pid, processes: [...processes.values()] }));
  renameSync(tmp, statusFile);
}

/** Prefixes each output line with the node's name, so one terminal tells the nodes apart. */
function prefixed(name: string, stream: NodeJS.ReadableStream | null, out: NodeJS.WriteStream): void {
  let rest = '';
  stream?.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) out.write(`[${name}] ${line}\n`);
  });
}

interface Supervised {
  role: Role;
  name: string;
  address: string;
  start(): ChildProcess;
  /** How to stop it cleanly: SIGINT is PostgreSQL's fast shutdown and NATS's lame-duck exit. */
  signal?: NodeJS.Signals;
}

const running = new Map<string, { child: ChildProcess; signal: NodeJS.Signals }>();

/** Starts a node and starts it again a second after it ends, until the topology stops. */
function supervise(node: Supervised): void {
  const child = node.start();
  prefixed(node.name, child.stdout, process.stdout);
  prefixed(node.name, child.stderr, process.stderr);
  running.set(node.name, { child, signal: node.signal ?? 'SIGTERM' });
  processes.set(node.name, { role: node.role, name: node.name, address: node.address, pid: child.pid ?? 0 });
  writeStatus();
  child.once('exit', (code, signal) => {
    running.delete(node.name);
    if (stopping) return;
    console.error(`[topology] ${node.name} ended (${signal ?? `exit code ${code}`}); starting it again in 1 s`);
    setTimeout(() => {
      if (!stopping) supervise(node);
    }, 1000);
  });
}

/**
 * Every node is started through util-linux's `setpriv --pdeathsig TERM`: the kernel sends it SIGTERM when the launcher
 * dies, however it dies. The Node programs also watch their parent (STOP_WITH_PARENT), but NATS, HAProxy and
 * PostgreSQL cannot, and a killed launcher left them running, holding their addresses for the next start.
 */
function spawnProcess(cmd: string, args: string[], env: Record<string, string> = {}, uid?: number, gid?: number) {
  return spawn('setpriv', ['--pdeathsig', 'TERM', '--', cmd, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    // A group of its own: Ctrl-C in the terminal reaches the launcher only, which stops the nodes in order.
    detached: true,
    env: { ...process.env, ...env },
    ...(uid === undefined ? {} : { uid, gid }),
  });
}

const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
function serverNode(env: Record<string, string>, flags: string[] = []): ChildProcess {
  return spawnProcess(
    process.execPath,
    ['--import', STOP_WITH_PARENT, '--import', tsx, ...flags, join(root, 'server/src/main.ts')],
    { ...portalEnv, ...env },
  );
}

/** PostgreSQL refuses to run as root; as root, the Debian package's postgres user runs it. */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
  return { uid, gid };
}

async function until(what: string, check: () => Promise<boolean>, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (stopping) throw new Error('stopped');
    if (Date.now() > deadline) throw new Error(`${what} not ready within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function listening(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function answers(url: string): Promise<boolean> {
  return (await fetch(url, { signal: AbortSignal.timeout(2000) })).ok;
}

// --- Start -------------------------------------------------------------------------------------------------

async function startPostgres(): Promise<void> {
  const data = join(dir, 'postgres');
  const user = postgresUser();
  if (!existsSync(join(data, 'PG_VERSION'))) {
    mkdirSync(data, { recursive: true, mode: 0o700 });
    if (user) chownSync(data, user.uid, user.gid);
    console.log('[topology] creating a PostgreSQL cluster in', data);
    try {
      execFileSync(pgBin('initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions'], {
        stdio: ['ignore', 'ignore', 'pipe'],
        ...(user ?? {}),
      });
    } catch (err) {
      // As root, the postgres user must be able to reach TOPOLOGY_DIR (every folder above it searchable).
      throw new Error(`initdb failed: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}`);
    }
  }
  supervise({
    role: 'postgres',
    name: 'postgres',
    address: `${postgresHost}:5432`,
    signal: 'SIGINT',
    start: () =>
      spawnProcess(
        pgBin('postgres'),
        [
          '-D',
          data,
          '-c',
          `listen_addresses=${postgresHost}`,
          '-c',
          'port=5432',
          '-c',
          `unix_socket_directories=${data}`,
        ],
        {},
        user?.uid,
        user?.gid,
      ),
  });
  await until('PostgreSQL', async () => {
    const client = new pg.Client({ connectionString: `postgres://postgres@${postgresHost}:5432/postgres` });
    await client.connect();
    try {
      const found = await client.query("SELECT 1 FROM pg_database WHERE datname = 'portal'");
      if (found.rowCount === 0) await client.query('CREATE DATABASE portal');
    } finally {
      await client.end();
    }
    return true;
  });
}

async function startNats(): Promise<void> {
  const routes = `[${natsNodes.map((n) => `nats-route://${n.host}:6222`).join(', ')}]`;
  for (const node of natsNodes) {
    const store = join(dir, node.name);
    mkdirSync(store, { recursive: true });
    supervise({
      role: 'nats',
      name: node.name,
      address: `${node.host}:4222`,
      signal: 'SIGINT',
      start: () =>
        spawnProcess('nats-server', ['-c', join(root, 'deploy/nats/nats.conf')], {
          NATS_NAME: node.name,
          NATS_ADDRESS: `${node.host}:4222`,
          NATS_MONITOR: `${node.host}:8222`,
          NATS_CLUSTER: `${node.host}:6222`,
          NATS_STORE: store,
          NATS_ROUTES: routes,
        }),
    });
  }
  // healthz answers 200 once the node's JetStream is up and the cluster has a meta leader.
  await Promise.all(natsNodes.map((n) => until(n.name, () => answers(`http://${n.host}:8222/healthz`))));
}

function startHaproxy(): void {
  supervise({
    role: 'haproxy',
    name: 'haproxy',
    address: `${BALANCER}:${portalPort}`,
    start: () =>
      spawnProcess('haproxy', ['-db', '-q', '-f', join(root, 'deploy/haproxy/haproxy.cfg')], {
        HAPROXY_MAXCONN: '8000',
        NTRIP_BIND: `${BALANCER}:${ntripPort},[::1]:${ntripPort}`,
        PORTAL_BIND: `${BALANCER}:${portalPort},[::1]:${portalPort}`,
        API_1: `${apis[0]?.host}:${portalPort}`,
        API_2: `${apis[1]?.host}:${portalPort}`,
        CASTER_1: `${casters[0]?.host}:${ntripPort}`,
        CASTER_2: `${casters[1]?.host}:${ntripPort}`,
        CASTER_3: `${casters[2]?.host}:${ntripPort}`,
      }),
  });
}

function startApi(node: { name: string; host: string }, emulatorHost: string, seed: boolean): void {
  supervise({
    role: 'api',
    name: node.name,
    address: `${node.host}:${portalPort}`,
    start: () =>
      serverNode({
        SERVICES: 'api',
        HOST: node.host,
        PORT: String(portalPort),
        TRUST_PROXY: BALANCER,
        CASTER_INTERNAL_HOST: BALANCER,
        CASTER_PORT: String(ntripPort),
        FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
        SEED_DEMO: String(seed),
      }),
  });
}

function startCaster(node: { name: string; host: string }): void {
  supervise({
    role: 'caster',
    name: node.name,
    address: `${node.host}:${ntripPort}`,
    start: () =>
      serverNode(
        {
          SERVICES: 'caster',
          HOST: node.host,
          CASTER_PORT: String(ntripPort),
          CASTER_NODE_ID: node.name,
          CASTER_TRUSTED_PROXIES: BALANCER,
        },
        CASTER_NODE_FLAGS,
      ),
  });
}

let emulator: Awaited<ReturnType<typeof startAuthEmulator>> | undefined;

async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log('[topology] stopping');
  // The balancer first, so no client reaches a node that is going; the database and the bus last.
  for (const roles of [['haproxy'], ['api', 'caster'], ['nats', 'postgres']] as Role[][]) {
    const group = [...running.entries()].filter(([name]) => roles.includes(processes.get(name)?.role as Role));
    await Promise.all(
      group.map(
        ([, { child, signal }]) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
            child.once('exit', () => {
              clearTimeout(killer);
              resolve();
            });
            child.kill(signal);
          }),
      ),
    );
  }
  await emulator?.stop();
  processes.clear();
  writeStatus();
  process.exit(code);
}

process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
process.on('SIGHUP', () => void stop(0));
onParentGone(() => void stop(1));

try {
  mkdirSync(dir, { recursive: true });
  // Every node on the one database needs the same secret; PostgreSQL without one is refused (ADR 0050).
  portalEnv.FEED_SECRET_KEY = process.env.FEED_SECRET_KEY || keptFeedSecretKey(dir);
  writeStatus();
  // A STATIC_DIR given is served as it is (a build made elsewhere); dist/ is built when its sources changed.
  if (!process.env.STATIC_DIR) {
    await buildSpaIfStale({ VITE_FIREBASE_AUTH_EMULATOR_URL: `http://127.0.0.1:${authPort}` }, staticDir);
  }
  console.log(`[topology] starting the Firebase Auth Emulator on 127.0.0.1:${authPort}, PostgreSQL and NATS…`);
  const emulatorStarted = startAuthEmulator({ port: authPort, persistDir: join(dir, 'auth') });
  await Promise.all([startPostgres(), startNats()]);
  emulator = await emulatorStarted;
  void emulator.exited.then((how) => {
    if (stopping) return;
    console.error(`[topology] the Auth Emulator ended (${how}); stopping`);
    void stop(1);
  });
  startHaproxy();
  // The first API node migrates the database and seeds the demo before the others start on it.
  const [first, ...otherApis] = apis;
  if (!first) throw new Error('no API node');
  startApi(first, emulator.host, true);
  await until(first.name, () => answers(`http://${first.host}:${portalPort}/api/meta`), 300_000);
  for (const node of otherApis) startApi(node, emulator.host, false);
  for (const node of casters) startCaster(node);
  await Promise.all([
    ...otherApis.map((n) => until(n.name, () => answers(`http://${n.host}:${portalPort}/api/meta`), 300_000)),
    ...casters.map((n) => until(n.name, () => listening(n.host, ntripPort), 300_000)),
    until('haproxy', () => answers(`http://${BALANCER}:${portalPort}/api/meta`)),
  ]);
  console.log(
    `\n  Topology ready: portal http://localhost:${portalPort} (2 API nodes), NTRIP localhost:${ntripPort} (3 caster nodes)` +
      `\n  PostgreSQL ${databaseUrl}\n  NATS ${busUrl}\n  npm run -s topology -- status\n`,
  );
} catch (err) {
  if (!stopping) {
    console.error(`[topology] ${(err as Error).message}`);
    await stop(1);
  }
}
