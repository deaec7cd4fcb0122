import { randomUUID } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { encodeFrame } from '@portal/caster';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithGrant, setPushFeed } from '../src/cli/operator-actions.ts';
import type { CasterService } from '../src/modules/ntrip/index.ts';
import { createUsersRepo } from '../src/modules/users/users.repo.ts';
import { startTestCaster, TEST_FEED_KEY } from './support/caster.ts';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext } from './support/test-app.ts';

const TOO_DEEP = { code: 'too_deep', message: 'The request body is nested deeper than 64 levels.' };

const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const nestedObjects = (depth: number, leaf: string) => `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/**
 * Issue 31: a 12–16 KB anonymous body nested thousands of levels deep held the event loop (API and caster) for
 * 0.5–2 s and answered 500, the NUL guard walking it recursively. Over real sockets, so requests overlap.
 */
describe(`deeply nested JSON bodies on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let base: string;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  const post = (body: string) =>
    fetch(`${base}/api/demo-requests`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  const timedMeta = async () => {
    const started = performance.now();
    const res = await fetch(`${base}/api/meta`);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    return performance.now() - started;
  };

  it('answers an anonymous body nested 10,000 to 100,000 levels deep with 400 too_deep, and stores nothing', async () => {
    for (const body of [nestedArrays(10_000), nestedArrays(100_000), nestedObjects(10_000, '"x"')]) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual(TOO_DEEP);
    }
    const rows = await t.db.selectFrom('demo_requests').select('id').execute();
    expect(rows).toEqual([]);
  });

  it('reads a body nested to the limit, naming the full path of a NUL at its bottom, and refuses one level more', async () => {
    const atLimit = await post(nestedObjects(64, '"x\\u0000"'));
    expect(atLimit.status).toBe(400);
    expect(await atLimit.json()).toMatchObject({ code: 'invalid_character', field: Array(64).fill('a').join('.') });

    const past = await post(nestedObjects(65, '"x\\u0000"'));
    expect(past.status).toBe(400);
    expect(await past.json()).toEqual(TOO_DEEP);

    // Brackets inside strings are text, not nesting.
    const quoted = await post(JSON.stringify({ firstName: '['.repeat(10_000), lastName: '{"a":'.repeat(1000) }));
    expect(quoted.status).toBe(400);
    expect(((await quoted.json()) as { code: string }).code).toBe('validation_failed');
  });

  it('keeps /api/meta and the event loop prompt while several hostile bodies are in flight', async () => {
    // Rounds of hostile bodies alternate with rounds of as many shallow bodies of the same size, so a loaded machine
    // slows both alike and the difference is what the nesting costs. The process's CPU time in a round is the work
    // its event loop could not do for anyone else (the old guard: 0.5–2 s a body); wall times on a machine shared
    // with other test runs wander by tens of milliseconds either way, so their bound is wider.
    const hostile = nestedArrays(10_000);
    const shallow = JSON.stringify({ message: 'x'.repeat(hostile.length - 14) });
    const cpu = { hostile: [] as number[], shallow: [] as number[] };
    const meta = { hostile: [] as number[], shallow: [] as number[] };
    const statuses: number[] = [];
    await timedMeta();
    for (let round = 0; round < 16; round++) {
      const kind = round % 2 === 0 ? 'shallow' : 'hostile';
      const body = kind === 'shallow' ? shallow : hostile;
      const before = process.cpuUsage();
      const [took, ...refused] = await Promise.all([timedMeta(), post(body), post(body), post(body), post(body)]);
      const used = process.cpuUsage(before);
      cpu[kind].push((used.user + used.system) / 1000);
      meta[kind].push(took);
      if (kind === 'hostile') statuses.push(...refused.map((r) => r.status));
    }

    expect(median(cpu.hostile) - median(cpu.shallow)).toBeLessThan(20);
    expect(median(meta.hostile) - median(meta.shallow)).toBeLessThan(100);
    expect(new Set(statuses)).toEqual(new Set([400]));
  });

  it('keeps a rover on the caster sharing the process receiving its frames on time while hostile bodies arrive', async () => {
    await createUsersRepo(t.db).upsertFromIdentity({ uid: randomUUID(), email: 'deep@example.test' });
    const network = await t.db
      .insertInto('networks')
      .values({ slug: 'deep-rtk', name: 'Deep RTK', updated_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('stations')
      .values({
        network_id: network.id,
        mountpoint: 'DEEP1',
        country: 'NLD',
        latitude: 52,
        longitude: 5,
        updated_at: new Date(),
      })
      .execute();
    await createAccountWithGrant(t.db, {
      email: 'deep@example.test',
      username: 'deep-rover',
      password: 'rover-password',
      network: 'deep-rtk',
      days: 1,
    });
    await setPushFeed(t.db, { mountpoint: 'DEEP1', password: 'source-password' }, TEST_FEED_KEY);
    const caster: CasterService = await startTestCaster(t.db);
    const open = async (head: string) => {
      const socket = net.connect({ port: caster.port, host: '127.0.0.1' });
      socket.on('error', () => {});
      const answered = new Promise<Buffer>((resolve) => {
        let got = Buffer.alloc(0);
        const onData = (d: Buffer) => {
          got = Buffer.concat([got, d]);
          const end = got.indexOf('\r\n\r\n');
          if (end < 0) return;
          socket.off('data', onData);
          resolve(got.subarray(end + 4));
        };
        socket.on('data', onData);
      });
      socket.write(head);
      return { socket, rest: await answered };
    };
    const source = await open('SOURCE source-password /DEEP1\r\n\r\n');
    const credentials = Buffer.from('deep-rover:rover-password').toString('base64');
    const rover = await open(`GET /DEEP1 HTTP/1.0\r\nAuthorization: Basic ${credentials}\r\n\r\n`);

    // Each frame (proprietary type 4094, which nothing decodes) carries its index; frame i is due at start + 20 ms · i.
    // The sender catches up after a stall, so a frame's lateness is its arrival against when it was due: a blocked
    // event loop delays the rover's frames by as long as it was blocked, whoever sent them.
    const periodMs = 20;
    const frameOf = (i: number) => {
      const payload = Buffer.from([0xff, 0xe0, 0, 0, 0, 0]);
      payload.writeUInt32BE(i, 2);
      return encodeFrame(payload);
    };
    const frameLength = frameOf(0).length;
    const start = performance.now();
    let sent = 0;
    const sender = setInterval(() => {
      const due = Math.floor((performance.now() - start) / periodMs);
      while (sent <= due) source.socket.write(frameOf(sent++));
    }, periodMs / 2);
    const lateness: { at: number; late: number }[] = [];
    let pending = rover.rest;
    rover.socket.on('data', (d: Buffer) => {
      const now = performance.now();
      pending = Buffer.concat([pending, d]);
      while (pending.length >= frameLength) {
        const index = pending.readUInt32BE(3 + 2);
        lateness.push({ at: now, late: now - (start + index * periodMs) });
        pending = pending.subarray(frameLength);
      }
    });
    const lateDuring = (from: number, to: number) =>
      median(lateness.filter((f) => f.at >= from && f.at <= to).map((f) => f.late));

    try {
      const hostile = nestedArrays(10_000);
      const shallow = JSON.stringify({ message: 'x'.repeat(hostile.length - 14) });
      const late = { hostile: [] as number[], shallow: [] as number[] };
      for (let round = 0; round < 12; round++) {
        const kind = round % 2 === 0 ? 'shallow' : 'hostile';
        const body = kind === 'shallow' ? shallow : hostile;
        const from = performance.now();
        // Enough work in a round that frames arrive during it, as they would behind a stalled loop: at least three
        // volleys and eight frame periods, however fast the refusals come back.
        for (let i = 0; i < 3 || performance.now() - from < 8 * periodMs; i++) {
          await Promise.all([post(body), post(body), post(body), post(body)]);
        }
        await new Promise((r) => setTimeout(r, 3 * periodMs));
        late[kind].push(lateDuring(from, performance.now()));
      }
      expect(lateness.length).toBeGreaterThan(50);
      expect(median(late.hostile) - median(late.shallow)).toBeLessThan(20);
    } finally {
      clearInterval(sender);
      rover.socket.destroy();
      source.socket.destroy();
      await caster.close();
    }
  });
});
