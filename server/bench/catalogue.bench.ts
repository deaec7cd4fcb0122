import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Insertable } from 'kysely';
import { buildApp } from '../src/app.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import type { StationsTable } from '../src/db/schema.ts';

/**
 * `npm run bench:catalogue`: 10,000 stations in an in-memory PGlite, then the public station list as the map and
 * the marketplace ask for it, through app.inject (no sockets, so the figures are the API and the database only).
 */
const STATIONS = 10_000;
const WARMUP = 3;
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

const handle = await openDatabase({ pgliteDataDir: 'memory://' });
await migrate(handle.db);
const app = await buildApp({
  db: handle.db,
  verifier: {
    verify: async () => {
      throw new Error('the benchmark calls public routes only');
    },
  },
  anonymousRequestsPerMinute: 1_000_000,
});
await app.ready();

const networkIds: string[] = [];
for (const slug of ['bench-west', 'bench-central', 'bench-north', 'bench-south']) {
  const row = await handle.db
    .insertInto('networks')
    .values({ slug, name: slug })
    .returning('id')
    .executeTakeFirstOrThrow();
  networkIds.push(row.id);
}

const seedStart = performance.now();
const side = Math.ceil(Math.sqrt(STATIONS));
const rows: Insertable<StationsTable>[] = [];
for (let i = 0; i < STATIONS; i++) {
  const row = Math.floor(i / side);
  const col = i % side;
  rows.push({
    network_id: networkIds[(row * 4) / side < 4 ? Math.floor((row * 4) / side) : 3] ?? '',
    mountpoint: `B${String(i).padStart(5, '0')}EUR0`,
    identifier: `Bench station ${i}`,
    country: 'DEU',
    latitude: 36 + (34 * row) / side,
    longitude: -10 + (40 * col) / side,
    height_m: 100,
    receiver: 'SEPT POLARX5',
    antenna: 'SEPCHOKE_B3E6 SPKE',
    format_details: '1006(10),1077(1),1087(1),1097(1),1127(1),1230(10)',
    nav_system: 'GPS+GLO+GAL+BDS',
    bitrate: 8000,
    status: i % 13 === 0 ? 'offline' : 'online',
    last_data_at: new Date(),
  });
}
for (let i = 0; i < rows.length; i += 500) {
  await handle.db
    .insertInto('stations')
    .values(rows.slice(i, i + 500))
    .execute();
}
const seedMs = performance.now() - seedStart;

interface Result {
  name: string;
  status: number;
  bytes: number;
  items: number | string;
  p50: number;
  p95: number;
  mean: number;
  /** Process CPU per request: steadier than wall time when other work shares the machine. */
  cpu: number;
}

async function measure(name: string, url: string, headers: Record<string, string> = {}): Promise<Result> {
  const times: number[] = [];
  let cpuMicros = 0;
  let last = await app.inject({ method: 'GET', url, headers });
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    last = await app.inject({ method: 'GET', url, headers });
    if (i >= WARMUP) {
      times.push(performance.now() - start);
      const used = process.cpuUsage(cpuStart);
      cpuMicros += used.user + used.system;
    }
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)] ?? Number.NaN;
  const body = last.statusCode === 200 ? (last.json() as { items?: unknown[] }) : {};
  return {
    name,
    status: last.statusCode,
    bytes: last.rawPayload.length,
    items: body.items?.length ?? '-',
    p50: at(0.5),
    p95: at(0.95),
    mean: times.reduce((a, b) => a + b, 0) / times.length,
    cpu: cpuMicros / 1000 / RUNS,
  };
}

const all = await app.inject({ method: 'GET', url: '/api/stations?view=compact&limit=10000' });
const results = [
  await measure('markers, all 10,000 (map)', '/api/stations?view=compact&limit=10000'),
  await measure('markers, revalidated (304)', '/api/stations?view=compact&limit=10000', {
    'if-none-match': String(all.headers.etag),
  }),
  await measure('markers, bbox of ~1/16', '/api/stations?view=compact&limit=10000&bbox=0,50,10,58.5'),
  await measure('full records, page of 500', '/api/stations?limit=500&offset=5000'),
  await measure('full records, one network, 100', `/api/stations?network=${networkIds[1]}&limit=100`),
  await measure('networks with coverage', '/api/networks'),
];

const fmt = (ms: number) => ms.toFixed(1).padStart(7);
console.log(`\nCatalogue benchmark: ${STATIONS} stations in PGlite (seeded in ${(seedMs / 1000).toFixed(1)} s),`);
console.log(`${RUNS} runs per request after ${WARMUP} warm-up runs, through app.inject; Node ${process.version},`);
console.log(`${cpus().length} CPUs, load average ${loadavg()[0]?.toFixed(1)} at start\n`);
console.log(`${'request'.padEnd(34)} status  items     bytes   p50 ms  p95 ms mean ms  cpu ms`);
for (const r of results) {
  console.log(
    `${r.name.padEnd(34)} ${String(r.status).padStart(6)} ${String(r.items).padStart(6)} ${String(r.bytes).padStart(9)} ${fmt(r.p50)} ${fmt(r.p95)} ${fmt(r.mean)} ${fmt(r.cpu)}`,
  );
}
console.log('');

await app.close();
await handle.close();
