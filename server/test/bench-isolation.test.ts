import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiUser,
  askProbe,
  HOSTILE_FILTERS,
  type Load,
  loopbackAddresses,
  type NtripAccount,
  reconnectStorm,
  slowClients,
  sourcetableFlood,
  type Tally,
} from '../bench/isolation-load.ts';
import { createAccountWithGrant } from '../src/cli/operator-actions.ts';
import type { DatabaseHandle } from '../src/db/client.ts';
import type { CasterService } from '../src/modules/ntrip/index.ts';
import { createUsersRepo } from '../src/modules/users/users.repo.ts';
import { startTestCaster } from './support/caster.ts';
import { createTestDatabase, testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext } from './support/test-app.ts';

/**
 * The figures of `npm run bench:isolation` (docs/performance.md) are only as good as its loads: each must reach
 * the caster and be answered the way the bench says it is, and the probes must see what they claim to measure.
 */
let handle: DatabaseHandle;
let service: CasterService;
const account: NtripAccount = { username: 'storm-rover', password: 'storm-password', mountpoints: ['AMS1'] };

beforeAll(async () => {
  handle = await createTestDatabase();
  await createUsersRepo(handle.db).upsertFromIdentity({ uid: randomUUID(), email: 'storm@example.test' });
  const network = await handle.db
    .insertInto('networks')
    .values({ slug: 'nl-rtk', name: 'NL RTK', updated_at: new Date() })
    .returning('id')
    .executeTakeFirstOrThrow();
  await handle.db
    .insertInto('stations')
    .values({
      network_id: network.id,
      mountpoint: 'AMS1',
      identifier: 'Amsterdam',
      country: 'NLD',
      latitude: 52.37,
      longitude: 4.9,
      updated_at: new Date(),
    })
    .execute();
  await createAccountWithGrant(handle.db, {
    email: 'storm@example.test',
    username: account.username,
    password: account.password,
    network: 'nl-rtk',
    days: 1,
  });
  await handle.db.updateTable('ntrip_accounts').set({ max_connections: 100 }).execute();
  // A short head timeout, so a client that sends its head one byte at a time is answered within the test.
  service = await startTestCaster(handle.db, { limits: { headerTimeoutMs: 600 } });
});

afterAll(async () => {
  await service?.close();
  await handle?.close();
});

/** Runs a load until its tally satisfies `enough` (or 10 s pass) and stops it. */
async function runUntil(load: Load, enough: (tally: Tally) => boolean): Promise<Tally> {
  const deadline = Date.now() + 10_000;
  while (!enough(load.tally) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return load.stop();
}

describe(`bench:isolation loads against the portal's caster on ${testDatabaseKind()}`, () => {
  it('storm: rovers log in and hang up over and over, the stale ones refused, each from its own address', async () => {
    const tally = await runUntil(
      reconnectStorm({
        port: service.port,
        clients: 6,
        accounts: [account],
        staleEvery: 3,
        addresses: loopbackAddresses(6),
      }),
      (t) => (t['200'] ?? 0) >= 20 && (t['401'] ?? 0) + (t['429'] ?? 0) >= 10,
    );
    expect(tally['200']).toBeGreaterThanOrEqual(20);
    expect(tally['401']).toBeGreaterThan(0);
    // Two stale rovers on two addresses: each pair is throttled on its own (429 after five failures).
    expect((tally['401'] ?? 0) + (tally['429'] ?? 0)).toBeGreaterThanOrEqual(10);
    expect(Object.keys(tally).sort()).toEqual(tally['429'] ? ['200', '401', '429'] : ['200', '401']);
  });

  it('flood: every hostile filter is a valid request the caster answers with a sourcetable', async () => {
    const flood = sourcetableFlood({
      port: service.port,
      clients: 2,
      filters: HOSTILE_FILTERS,
      addresses: loopbackAddresses(2),
    });
    const tally = await runUntil(flood, (t) => (t['200'] ?? 0) >= 2 * HOSTILE_FILTERS.length);
    expect(tally).toEqual({ '200': expect.any(Number) });
    expect(tally['200']).toBeGreaterThanOrEqual(2 * HOSTILE_FILTERS.length);
    expect(flood.attemptMs.length).toBe(tally['200']);
  });

  it('slow: clients that never read are held, clients that never finish their head are timed out', async () => {
    const tally = await runUntil(
      slowClients({ port: service.port, clients: 4, holdMs: 300, dribbleMs: 50, addresses: loopbackAddresses(4) }),
      (t) => (t['held, never read'] ?? 0) >= 2 && (t['408'] ?? 0) >= 2,
    );
    expect(tally['held, never read']).toBeGreaterThanOrEqual(2);
    expect(tally['408']).toBeGreaterThanOrEqual(2);
  });
});

describe(`bench:isolation measurements on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await buildTestApp({ anonymousRequestsPerMinute: 1_000_000 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t?.close());

  it('the API user asks at a fixed rate and times every answer from when it was due', async () => {
    const { port } = t.app.server.address() as { port: number };
    const started = performance.now();
    const user = apiUser(`http://127.0.0.1:${port}/api/meta`, 40);
    await new Promise((r) => setTimeout(r, 400));
    // A stall of this process (the API's and the user's): what fell due meanwhile goes out late and counts late.
    const end = Date.now() + 300;
    while (Date.now() < end);
    await new Promise((r) => setTimeout(r, 600));
    const elapsed = performance.now() - started;
    const report = await user.stop();
    const due = Math.floor((elapsed * 40) / 1000);
    expect(report.latencies.length).toBeGreaterThanOrEqual(due - 5);
    expect(report.latencies.length).toBeLessThanOrEqual(due + 1);
    expect(report.statuses).toEqual({ '200': report.latencies.length });
    expect(Math.max(...report.latencies)).toBeGreaterThanOrEqual(250);
  });

  it('the loop-delay probe inside a process reports a stall of its event loop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loop-probe-'));
    const socket = join(dir, 'probe.sock');
    // Idle for half a second, then one 300 ms block, then idle until killed.
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        new URL('../bench/loop-delay-probe.ts', import.meta.url).pathname,
        '-e',
        'setTimeout(() => { const end = Date.now() + 300; while (Date.now() < end); }, 500); setInterval(() => {}, 1000);',
      ],
      { env: { ...process.env, BENCH_LOOP_DELAY_SOCKET: socket }, stdio: 'ignore' },
    );
    try {
      const read = async () => {
        for (let attempt = 0; ; attempt++) {
          try {
            return await askProbe(socket, 'read');
          } catch (err) {
            if (attempt > 100) throw err;
            await new Promise((r) => setTimeout(r, 100));
          }
        }
      };
      await read();
      await new Promise((r) => setTimeout(r, 1500));
      const reading = await read();
      expect(reading.max).toBeGreaterThanOrEqual(250);
      expect(reading.p50).toBeLessThan(50);
      await askProbe(socket, 'reset');
      await new Promise((r) => setTimeout(r, 300));
      expect((await askProbe(socket, 'read')).max).toBeLessThan(250);
    } finally {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
