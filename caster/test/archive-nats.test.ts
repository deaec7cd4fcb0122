import { randomUUID } from 'node:crypto';
import { connect } from 'nats';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ArchiveDamage,
  type ArchiveStore,
  encodeMember,
  HOUR_MS,
  type HourKey,
  natsArchiveLease,
  natsArchiveStore,
  readArchive,
} from '../src/archive/index.ts';
import { type ArchiveHourUpdate, type Caster, createCaster, encodeFrame } from '../src/index.ts';
import { Peer } from './support/client.ts';
import { FakePorts } from './support/fakes.ts';
import { until } from './support/wait.ts';

/** The NATS server of this machine (and of CI); every test makes its own buckets and deletes them. */
const NATS_URL = process.env.CASTER_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

const open: Array<{ close(): unknown }> = [];
const buckets: string[] = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
  const nc = await connect({ servers: NATS_URL });
  const jsm = await nc.jetstreamManager();
  for (const bucket of buckets.splice(0)) {
    for (const stream of [`OBJ_${bucket}`, `ARCHIVE_TAIL_${bucket}`, `KV_${bucket}`]) {
      await jsm.streams.delete(stream).catch(() => false);
    }
  }
  await nc.close();
});

const uniqueBucket = () => {
  const bucket = `test-archive-${randomUUID()}`;
  buckets.push(bucket);
  return bucket;
};

async function store(bucket = uniqueBucket()): Promise<ArchiveStore> {
  const s = await natsArchiveStore({ url: NATS_URL, bucket });
  open.push(s);
  return s;
}

function frame(type: number, n: number): Buffer {
  const payload = Buffer.alloc(24);
  payload[0] = type >> 4;
  payload[1] = (type & 0xf) << 4;
  payload.writeUInt32BE(n, 2);
  return encodeFrame(payload);
}

async function readAll(s: ArchiveStore, mountpoint: string, from: number, to: number) {
  const damage: ArchiveDamage[] = [];
  const parts: Buffer[] = [];
  for await (const part of readArchive(s, mountpoint, from, to, (d) => damage.push(d))) parts.push(part);
  return { data: Buffer.concat(parts), damage };
}

async function listed(s: ArchiveStore) {
  const keys: HourKey[] = [];
  for await (const key of s.list()) keys.push(key);
  return keys;
}

const HOUR = Date.UTC(2026, 10, 24, 10);
const KEY: HourKey = { mountpoint: 'AMS1', hour: HOUR };

describe('archive hours in a NATS JetStream object store', () => {
  it('reads an hour the same while it is written, after it is sealed, and after it is continued', async () => {
    const s = await store();
    const batches = [1, 2, 3].map((n) => Buffer.concat([frame(1077, n), frame(1087, n)]));
    for (const batch of batches.slice(0, 2)) await s.append(KEY, await encodeMember(batch));
    expect((await readAll(s, 'AMS1', HOUR, HOUR + 1)).data).toEqual(Buffer.concat(batches.slice(0, 2)));

    await s.seal(KEY);
    expect((await readAll(s, 'AMS1', HOUR, HOUR + 1)).data).toEqual(Buffer.concat(batches.slice(0, 2)));

    // Another node took the station over and continues the hour after it was sealed.
    await s.append(KEY, await encodeMember(batches[2] as Buffer));
    expect((await readAll(s, 'AMS1', HOUR, HOUR + 1)).data).toEqual(Buffer.concat(batches));
    await s.seal(KEY);
    const all = await readAll(s, 'AMS1', HOUR, HOUR + 1);
    expect(all.data).toEqual(Buffer.concat(batches));
    expect(all.damage).toEqual([]);
    expect(await listed(s)).toEqual([KEY]);
  });

  it('serves every node: an hour written through one connection is read through another', async () => {
    const bucket = uniqueBucket();
    const writer = await store(bucket);
    const reader = await store(bucket);
    await writer.append(KEY, await encodeMember(frame(1077, 1)));
    expect((await readAll(reader, 'AMS1', HOUR, HOUR + 1)).data).toEqual(frame(1077, 1));
  });

  it('seals the hours a crashed writer left open once they are over, and only those', async () => {
    const s = await store();
    const current = { mountpoint: 'AMS1', hour: HOUR + HOUR_MS };
    await s.append(KEY, await encodeMember(frame(1077, 1)));
    await s.append(current, await encodeMember(frame(1077, 2)));
    expect(await s.sealAbandoned(HOUR + HOUR_MS + 10)).toBe(1);
    expect(await s.sealAbandoned(HOUR + HOUR_MS + 10)).toBe(0);
    expect((await readAll(s, 'AMS1', HOUR, HOUR + 2 * HOUR_MS)).data).toEqual(
      Buffer.concat([frame(1077, 1), frame(1077, 2)]),
    );
  });

  it('removes an hour, object and tail, leaving the others', async () => {
    const s = await store();
    const next = { mountpoint: 'AMS1', hour: HOUR + HOUR_MS };
    await s.append(KEY, await encodeMember(frame(1077, 1)));
    await s.seal(KEY);
    await s.append(KEY, await encodeMember(frame(1077, 2)));
    await s.append(next, await encodeMember(frame(1077, 3)));
    await s.remove(KEY);
    expect((await readAll(s, 'AMS1', HOUR, HOUR + 1)).data.length).toBe(0);
    expect(await listed(s)).toEqual([next]);
  });
});

describe('one archiving node per station', () => {
  it('gives a station to one node at a time: released or expired, another takes it', async () => {
    const bucket = uniqueBucket();
    const a = await natsArchiveLease({ url: NATS_URL, bucket, node: 'node-a', ttlMs: 600 });
    open.push(a);
    const b = await natsArchiveLease({ url: NATS_URL, bucket, node: 'node-b', ttlMs: 600 });
    open.push(b);
    expect(await a.hold('AMS1')).toBe(true);
    expect(await b.hold('AMS1')).toBe(false);
    expect(await b.hold('UTR1')).toBe(true);
    expect(await a.hold('AMS1')).toBe(true);

    await a.release('AMS1');
    expect(await b.hold('AMS1')).toBe(true);
    expect(await a.hold('AMS1')).toBe(false);

    // B stops renewing (it crashed): after the lease's length A may take the station.
    await expect.poll(() => a.hold('AMS1'), { timeout: 5000 }).toBe(true);
    expect(await b.hold('AMS1')).toBe(false);
  });

  it('archives a station fed on node A once, readable from node B', async () => {
    const bucket = uniqueBucket();
    const prefix = `test-${randomUUID()}`;
    const nodes: Array<{ caster: Caster; port: number; updates: ArchiveHourUpdate[] }> = [];
    for (const node of ['node-a', 'node-b']) {
      const ports = new FakePorts().addNetwork('nl').addStation('AMS1', 'nl', 52.37, 4.9);
      const updates: ArchiveHourUpdate[] = [];
      const caster = await createCaster({
        ports,
        busUrl: NATS_URL,
        busPrefix: prefix,
        nodeId: node,
        limits: { announceIntervalMs: 200 },
        archive: {
          store: { kind: 'nats', url: NATS_URL, bucket },
          lease: { url: NATS_URL, bucket, node },
          flushMs: 50,
          indexFlushMs: 50,
          index: { recordHours: async (u) => void updates.push(...u) },
        },
      });
      open.push(caster);
      const { port } = await caster.listen(0, '127.0.0.1');
      nodes.push({ caster, port, updates });
    }
    const [a, b] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
    const source = await Peer.connect(a.port);
    open.push(source);
    source.write('SOURCE src-secret /AMS1\r\n\r\n');
    await source.until((p) => p.text() === 'ICY 200 OK\r\n\r\n', 'source accepted on A');
    const frames = [1, 2, 3].map((n) => frame(1077, n));
    const from = Date.now();
    for (const f of frames) source.write(f);
    const stored = () => a.updates.reduce((n, u) => n + u.frames, 0);
    await until(() => stored() >= 3, 'A to index three frames');
    const reader = await store(bucket);
    expect((await readAll(reader, 'AMS1', from, Date.now() + 1)).data).toEqual(Buffer.concat(frames));
    // B relays the station from the bus for its rovers but never archives it.
    expect(b.updates).toEqual([]);
  });
});
