import { type ChildProcess, fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CASTER_NODE_FLAGS } from '@portal/caster';
import type { Insertable } from 'kysely';
import pg from 'pg';
import { createAccountWithGrant } from '../src/cli/operator-actions.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import type { StationsTable } from '../src/db/schema.ts';
import { freePort } from '../src/dev/free-port.ts';
import { createUsersRepo } from '../src/modules/users/users.repo.ts';
import {
  apiUser,
  askProbe,
  HOSTILE_FILTERS,
  loopbackAddresses,
  type NtripAccount,
  percentile,
} from './isolation-load.ts';
import type { LoadRequest, LoadResult } from './isolation-load-process.ts';
import type { LoopDelayReading } from './loop-delay-probe.ts';

/**
 * `npm run bench:isolation`: how much a slow or hostile NTRIP client costs the portal API's users, with the API
 * and the caster in one process (what `npm start` runs) and in two (production's SERVICES=api and SERVICES=caster
 * sharing NATS). The portal is started as `npm run -w server start` starts it, on a fresh PostgreSQL database with
 * a catalogue of BENCH_STATIONS stations and NTRIP accounts; the load comes from a separate process; a user of the
 * API asks GET /api/meta at a fixed rate and times each answer from when it was due. Inside each portal process a
 * probe (loop-delay-probe.ts, loaded with --import) samples the event-loop delay.
 *
 * BENCH_SECONDS (window, 15), BENCH_LAYOUTS (`one,separate`), BENCH_ONLY (scenarios: idle,storm,flood,slow),
 * BENCH_STATIONS (2000), BENCH_API_RATE (requests a second, 50), BENCH_API_PATH (what the user asks, /api/meta),
 * BENCH_STORM_CLIENTS (300), BENCH_FLOOD_CLIENTS (8), BENCH_SLOW_CLIENTS (400), BENCH_POSTGRES_URL and
 * BENCH_NATS_URL adjust it.
 */

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WARMUP_MS = 3000;
const STATIONS = Number(process.env.BENCH_STATIONS ?? 2000);
const API_RATE = Number(process.env.BENCH_API_RATE ?? 50);
const API_PATH = process.env.BENCH_API_PATH ?? '/api/meta';
const STORM_CLIENTS = Number(process.env.BENCH_STORM_CLIENTS ?? 300);
const FLOOD_CLIENTS = Number(process.env.BENCH_FLOOD_CLIENTS ?? 8);
const SLOW_CLIENTS = Number(process.env.BENCH_SLOW_CLIENTS ?? 400);
const POSTGRES = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS = process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222';
const LAYOUTS = (process.env.BENCH_LAYOUTS ?? 'one,separate').split(',') as Array<'one' | 'separate'>;
const SCENARIOS = ['idle', 'storm', 'flood', 'slow'] as const;
type Scenario = (typeof SCENARIOS)[number];
const ONLY = process.env.BENCH_ONLY?.split(',');
const chosen = SCENARIOS.filter((s) => !ONLY || ONLY.includes(s));

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const root = here('../..');
const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- the database ----

const NETWORKS = ['bench-west', 'bench-central', 'bench-north', 'bench-south'];
const ACCOUNTS = 20;

/** A catalogue like a national network's, and NTRIP accounts each with a grant to one network. */
async function seed(db: Database): Promise<NtripAccount[]> {
  await createUsersRepo(db).upsertFromIdentity({ uid: 'bench-owner', email: 'bench@example.test' });
  const networkIds: string[] = [];
  for (const slug of NETWORKS) {
    const row = await db
      .insertInto('networks')
      .values({ slug, name: slug, updated_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    networkIds.push(row.id);
  }
  const rows: Insertable<StationsTable>[] = [];
  const mountpoints: string[][] = NETWORKS.map(() => []);
  for (let i = 0; i < STATIONS; i++) {
    const mountpoint = `BN${String(i).padStart(5, '0')}`;
    mountpoints[i % NETWORKS.length]?.push(mountpoint);
    rows.push({
      network_id: networkIds[i % NETWORKS.length] as string,
      mountpoint,
      identifier: `Bench station ${i}`,
      country: 'NLD',
      latitude: 50 + (i % 100) / 20,
      longitude: 3 + Math.floor(i / 100) / 20,
      height_m: 10,
      receiver: 'SEPT POLARX5',
      antenna: 'SEPCHOKE_B3E6 SPKE',
      format_details: '1006(10),1077(1),1087(1),1097(1),1127(1),1230(10)',
      nav_system: 'GPS+GLO+GAL+BDS',
      bitrate: 8000,
      updated_at: new Date(),
    });
  }
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('stations')
      .values(rows.slice(i, i + 500))
      .execute();
  }
  const accounts: NtripAccount[] = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const account = {
      username: `bench-rover-${i}`,
      password: `bench-password-${i}`,
      mountpoints: (mountpoints[i % NETWORKS.length] ?? []).slice(0, 25),
    };
    await createAccountWithGrant(db, {
      email: 'bench@example.test',
      username: account.username,
      password: account.password,
      network: NETWORKS[i % NETWORKS.length] as string,
      days: 1,
    });
    accounts.push(account);
  }
  // Many rovers of one account at once: the storm measures logins, not the per-account connection limit.
  await db.updateTable('ntrip_accounts').set({ max_connections: 1000 }).execute();
  return accounts;
}

async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `bench_isolation_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: POSTGRES });
      await dropper.connect();
      // A forced drop kills connections still closing, whose pool would then throw where nobody listens.
      for (let attempt = 0; attempt < 100; attempt++) {
        const { rows } = await dropper.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [
          name,
        ]);
        if (rows[0]?.n === 0) break;
        await sleep(100);
      }
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

// ---- the portal's processes ----

/** What a developer's shell may carry that would change how the portal runs. */
const CONFIG_VARIABLES =
  /^(NODE_ENV$|HOST$|PORT$|SERVICES$|DATABASE_URL$|PGLITE_|STATIC_DIR$|PUBLIC_URL$|FIREBASE_|GOOGLE_APPLICATION_CREDENTIALS$|SEED_DEMO$|LOG_LEVEL$|RATE_LIMIT_|TRUST_PROXY$|PAYMENT_PROVIDER$|STRIPE_|CASTER_|FEED_SECRET_KEY$)/;

interface PortalProcess {
  child: ChildProcess;
  output: () => string;
  /** The probe's socket in this process. */
  probe: string;
}

/** `npm run -w server start`'s command (tsx with the caster's Node options), plus the probe. */
function startPortal(env: Record<string, string>, probe: string, ready: string): Promise<PortalProcess> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !CONFIG_VARIABLES.test(key)));
  const child = spawn(
    process.execPath,
    [tsxCli, '--import', here('./loop-delay-probe.ts'), ...CASTER_NODE_FLAGS, join(root, 'server/src/main.ts')],
    {
      cwd: join(root, 'server'),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...inherited, ...env, BENCH_LOOP_DELAY_SOCKET: probe },
    },
  );
  let output = '';
  child.stdout?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 120_000;
    const check = setInterval(() => {
      if (output.includes(ready)) {
        clearInterval(check);
        resolve({ child, output: () => output, probe });
      } else if (child.exitCode !== null || Date.now() > deadline) {
        clearInterval(check);
        reject(new Error(`the portal did not print '${ready}':\n${output}`));
      }
    }, 100);
  });
}

/** SIGTERM as a process manager sends it; the whole group if it has not stopped within 20 s. */
async function stopPortal(p: PortalProcess): Promise<void> {
  if (p.child.exitCode !== null || p.child.pid === undefined) return;
  const exited = new Promise((resolve) => p.child.once('exit', resolve));
  p.child.kill('SIGTERM');
  if ((await Promise.race([exited, sleep(20_000).then(() => 'late')])) === 'late') {
    process.kill(-p.child.pid, 'SIGKILL');
    await exited;
  }
}

interface Layout {
  name: 'one' | 'separate';
  apiPort: number;
  casterPort: number;
  api: PortalProcess;
  /** The caster's own process, or the API's in the one-process layout. */
  caster: PortalProcess;
  stop(): Promise<void>;
}

async function startLayout(name: 'one' | 'separate', databaseUrl: string, probes: string): Promise<Layout> {
  const apiPort = await freePort();
  const casterPort = await freePort();
  const env = {
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    PORT: String(apiPort),
    CASTER_PORT: String(casterPort),
    LOG_LEVEL: 'warn',
    // The bench's API user is one anonymous address asking 50 times a second.
    RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000',
  };
  if (name === 'one') {
    const api = await startPortal(env, join(probes, 'one.sock'), 'GNSS portal ready');
    return { name, apiPort, casterPort, api, caster: api, stop: () => stopPortal(api) };
  }
  const [api, caster] = await Promise.all([
    startPortal({ ...env, SERVICES: 'api', CASTER_BUS_URL: NATS }, join(probes, 'api.sock'), 'GNSS portal ready'),
    startPortal(
      { ...env, SERVICES: 'caster', CASTER_BUS_URL: NATS },
      join(probes, 'caster.sock'),
      'NTRIP caster listening on port',
    ),
  ]);
  return {
    name,
    apiPort,
    casterPort,
    api,
    caster,
    stop: async () => {
      await Promise.all([stopPortal(api), stopPortal(caster)]);
    },
  };
}

// ---- the loads ----

function loadRequest(scenario: Exclude<Scenario, 'idle'>, port: number, accounts: NtripAccount[]): LoadRequest {
  if (scenario === 'storm') {
    return {
      type: 'start',
      kind: 'storm',
      options: { port, clients: STORM_CLIENTS, accounts, staleEvery: 10, addresses: loopbackAddresses(STORM_CLIENTS) },
    };
  }
  if (scenario === 'flood') {
    return {
      type: 'start',
      kind: 'flood',
      options: { port, clients: FLOOD_CLIENTS, filters: HOSTILE_FILTERS, addresses: loopbackAddresses(FLOOD_CLIENTS) },
    };
  }
  return {
    type: 'start',
    kind: 'slow',
    options: { port, clients: SLOW_CLIENTS, holdMs: 10_000, dribbleMs: 1000, addresses: loopbackAddresses(50) },
  };
}

function message<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: { type: string }) => {
      if (m.type !== type) return;
      child.off('message', onMessage);
      resolve(m as T);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`the load process exited (${code}) before '${type}'`)));
  });
}

async function startLoad(request: LoadRequest): Promise<ChildProcess> {
  const child = fork(here('./isolation-load-process.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const started = message(child, 'started');
  child.send(request);
  await started;
  return child;
}

async function stopLoad(child: ChildProcess): Promise<LoadResult> {
  const stopped = message<LoadResult>(child, 'stopped');
  child.send({ type: 'stop' } satisfies LoadRequest);
  return stopped;
}

// ---- a run ----

interface Row {
  layout: string;
  scenario: Scenario;
  load: string;
  api: { p50: number; p99: number; max: number; answered: number; failed: number };
  apiLoop: LoopDelayReading;
  casterLoop: LoopDelayReading | null;
  casterCpu: number;
  loadCpu: number;
  loadAverage: number;
}

function describeLoad(scenario: Scenario, result: LoadResult | null, seconds: number): string {
  if (!result) return '–';
  const total = Object.values(result.tally).reduce((a, b) => a + b, 0);
  const outcomes = Object.entries(result.tally)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
  const unit = scenario === 'storm' ? 'logins' : scenario === 'flood' ? 'tables' : 'connections';
  const each = `${percentile(result.attemptMs, 50).toFixed(0)} ms each (p50)`;
  return `${(total / seconds).toFixed(0)} ${unit}/s, ${each} (${outcomes})`;
}

async function measure(layout: Layout, scenario: Scenario, accounts: NtripAccount[]): Promise<Row> {
  const started = Date.now();
  const load = scenario === 'idle' ? null : await startLoad(loadRequest(scenario, layout.casterPort, accounts));
  await sleep(WARMUP_MS);
  const separate = layout.caster !== layout.api;
  await Promise.all([askProbe(layout.api.probe, 'reset'), separate && askProbe(layout.caster.probe, 'reset')]);
  const user = apiUser(`http://127.0.0.1:${layout.apiPort}${API_PATH}`, API_RATE);
  await sleep(SECONDS * 1000);
  const [apiLoop, casterLoop] = await Promise.all([
    askProbe(layout.api.probe, 'read'),
    separate ? askProbe(layout.caster.probe, 'read') : null,
  ]);
  const loadAverage = os.loadavg()[0] ?? 0;
  const answers = await user.stop();
  const result = load ? await stopLoad(load) : null;
  const loadSeconds = (Date.now() - started) / 1000;
  const ok = answers.statuses['200'] ?? 0;
  const asked = Object.values(answers.statuses).reduce((a, b) => a + b, 0);
  const windowMicros = SECONDS * 1e6;
  // Let the caster's side of the load drain before the next scenario.
  await sleep(3000);
  return {
    layout: layout.name,
    scenario,
    load: describeLoad(scenario, result, loadSeconds),
    api: {
      p50: percentile(answers.latencies, 50),
      p99: percentile(answers.latencies, 99),
      max: Math.max(...answers.latencies),
      answered: ok,
      failed: asked - ok,
    },
    apiLoop,
    casterLoop,
    casterCpu: (100 * (casterLoop ?? apiLoop).cpuMicros) / windowMicros,
    loadCpu: result ? (100 * result.cpuMicros) / (loadSeconds * 1e6) : 0,
    loadAverage,
  };
}

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '–');

const COLUMNS: Array<[string, number]> = [
  ['layout', 9],
  ['load', 6],
  ['API p50 / p99 / max ms', 24],
  ['answered', 9],
  ['API loop p50 / p99 / max', 25],
  ['caster loop p50 / p99 / max', 28],
  ['caster CPU', 11],
  ['caster RSS', 11],
  ['load CPU', 9],
  ['load avg', 9],
];

function printRow(r: Row | null): void {
  const loop = (l: LoopDelayReading) => `${ms(l.p50)} / ${ms(l.p99)} / ${ms(l.max)}`;
  const cells = r
    ? [
        r.layout,
        r.scenario,
        `${ms(r.api.p50)} / ${ms(r.api.p99)} / ${ms(r.api.max)}`,
        `${r.api.answered}${r.api.failed ? ` +${r.api.failed} failed` : ''}`,
        loop(r.apiLoop),
        r.casterLoop ? loop(r.casterLoop) : 'same process',
        `${r.casterCpu.toFixed(0)} %`,
        `${((r.casterLoop ?? r.apiLoop).rss / 2 ** 20).toFixed(0)} MB`,
        `${r.loadCpu.toFixed(0)} %`,
        r.loadAverage.toFixed(1),
        r.load,
      ]
    : [...COLUMNS.map(([name]) => name), 'load generated (answers by status)'];
  console.log(
    cells
      .map((cell, i) => (i < 2 ? cell.padEnd(COLUMNS[i]?.[1] ?? 0) : cell.padStart(COLUMNS[i]?.[1] ?? 0)))
      .join('  '),
  );
}

const probes = mkdtempSync(join(os.tmpdir(), 'bench-isolation-'));
const database = await createDatabase();
try {
  const handle = await openDatabase({ databaseUrl: database.url, pgliteDataDir: 'memory://' });
  const accounts = await migrate(handle.db)
    .then(() => seed(handle.db))
    .finally(() => handle.close());
  console.log(
    `Isolation bench: ${SECONDS} s per scenario after ${WARMUP_MS / 1000} s of load, GET ${API_PATH} ${API_RATE}/s, ` +
      `${STATIONS} stations, PostgreSQL; Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]?.toFixed(1)}`,
  );
  printRow(null);
  for (const name of LAYOUTS) {
    const layout = await startLayout(name, database.url, probes);
    try {
      for (const scenario of chosen) {
        const row = await measure(layout, scenario, accounts);
        printRow(row);
      }
    } finally {
      await layout.stop();
    }
  }
} finally {
  await database.drop();
  rmSync(probes, { recursive: true, force: true });
}
process.exit(0);
