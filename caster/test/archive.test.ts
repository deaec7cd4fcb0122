import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ArchiveDamage,
  type ArchiveStore,
  type ArchiveStoreSpec,
  ArchiveThread,
  encodeMember,
  HOUR_MS,
  type HourKey,
  localArchiveStore,
  readArchive,
} from '../src/archive/index.ts';
import { createRing, RingReader, RingWriter } from '../src/archive/ring.ts';
import { ArchiveWriter } from '../src/archive/writer.ts';
import { type ArchiveHourUpdate, type Caster, createCaster, encodeFrame, validFrames } from '../src/index.ts';
import { dechunk, fixture, Peer, roverRequest } from './support/client.ts';
import { crashingStore } from './support/crashing-store.ts';
import { FakePorts } from './support/fakes.ts';
import { observedStore } from './support/observed-store.ts';
import { until } from './support/wait.ts';

const open: Array<{ close(): unknown }> = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const silent = { info() {}, warn() {}, error() {} };

async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), 'archive-test-'));
  dirs.push(dir);
  return dir;
}

/** A frame of the given message type whose payload also carries a sequence number. */
function frame(type: number, n: number, size = 24): Buffer {
  const payload = Buffer.alloc(size);
  payload[0] = type >> 4;
  payload[1] = (type & 0xf) << 4;
  payload.writeUInt32BE(n, 2);
  return encodeFrame(payload);
}

async function readAll(store: ArchiveStore, mountpoint: string, from: number, to: number) {
  const damage: ArchiveDamage[] = [];
  const parts: Buffer[] = [];
  for await (const part of readArchive(store, mountpoint, from, to, (d) => damage.push(d))) parts.push(part);
  return { data: Buffer.concat(parts), damage };
}

const HOUR = Date.UTC(2026, 10, 24, 10);
const KEY: HourKey = { mountpoint: 'AMS1', hour: HOUR };
const hourFile = (dir: string) => join(dir, 'AMS1', '2026-11-24', 'AMS1_2026-11-24T10.rtcm3.gz');

describe('archive hours in a local directory', () => {
  it('keeps an hour as one gzip file that reads back frame for frame, and that gunzip reads too', async () => {
    const dir = await tempDir();
    const store = localArchiveStore(dir, silent);
    open.push(store);
    const batches = [0, 1, 2].map((b) => Buffer.concat([frame(1077, b * 2), frame(1087, b * 2 + 1)]));
    for (const batch of batches) await store.append(KEY, await encodeMember(batch));
    await store.seal(KEY);

    const { data, damage } = await readAll(store, 'AMS1', HOUR, HOUR + HOUR_MS);
    expect(data).toEqual(Buffer.concat(batches));
    expect(damage).toEqual([]);
    expect(gunzipSync(await readFile(hourFile(dir)))).toEqual(Buffer.concat(batches));
    // Hours the store does not hold read as nothing.
    expect((await readAll(store, 'AMS1', HOUR - HOUR_MS, HOUR)).data.length).toBe(0);
  });

  it('skips a member a crash cut short, and cuts it off before the hour is continued', async () => {
    const dir = await tempDir();
    const first = localArchiveStore(dir, silent);
    const kept = Buffer.concat([frame(1077, 1), frame(1077, 2)]);
    await first.append(KEY, await encodeMember(kept));
    await first.append(KEY, await encodeMember(frame(1077, 3)));
    await first.close();
    // The process died while its last member was being written.
    const { size } = await import('node:fs/promises').then((fs) => fs.stat(hourFile(dir)));
    await truncate(hourFile(dir), size - 5);

    const restarted = localArchiveStore(dir, silent);
    open.push(restarted);
    const cut = await readAll(restarted, 'AMS1', HOUR, HOUR + 1);
    expect(cut.data).toEqual(kept);
    expect(cut.damage).toEqual([expect.objectContaining({ kind: 'truncated' })]);

    await restarted.append(KEY, await encodeMember(frame(1077, 4)));
    const continued = await readAll(restarted, 'AMS1', HOUR, HOUR + 1);
    expect(continued.data).toEqual(Buffer.concat([kept, frame(1077, 4)]));
    expect(continued.damage).toEqual([]);
  });

  it('skips a damaged member inside an hour and reads the members after it', async () => {
    const dir = await tempDir();
    const store = localArchiveStore(dir, silent);
    open.push(store);
    const members = await Promise.all([1, 2, 3].map((n) => encodeMember(Buffer.concat([frame(1077, n)]))));
    for (const m of members) await store.append(KEY, m);
    await store.seal(KEY);
    const file = await readFile(hourFile(dir));
    const second = (members[0] as Buffer).length + 25;
    file[second] = (file[second] as number) ^ 0xff;
    await writeFile(hourFile(dir), file);

    const { data, damage } = await readAll(store, 'AMS1', HOUR, HOUR + 1);
    expect(data).toEqual(Buffer.concat([frame(1077, 1), frame(1077, 3)]));
    expect(damage).toEqual([
      {
        mountpoint: 'AMS1',
        hour: HOUR,
        kind: 'bad_member',
        offset: (members[0] as Buffer).length,
        bytes: (members[1] as Buffer).length,
      },
    ]);
  });

  it('lists what it holds and removes an hour with its emptied folders', async () => {
    const dir = await tempDir();
    const store = localArchiveStore(dir, silent);
    open.push(store);
    const next = { mountpoint: 'AMS1', hour: HOUR + 15 * HOUR_MS };
    await store.append(KEY, await encodeMember(frame(1077, 1)));
    await store.append(next, await encodeMember(frame(1077, 2)));
    const listed: HourKey[] = [];
    for await (const key of store.list()) listed.push(key);
    expect(listed).toEqual([KEY, next]);

    await store.remove(KEY);
    expect(await readdir(join(dir, 'AMS1'))).toEqual(['2026-11-25']);
    expect((await readAll(store, 'AMS1', HOUR, HOUR + 1)).data.length).toBe(0);
    await store.remove(next);
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a key that is not a mountpoint, so no name becomes a path outside the directory', async () => {
    const store = localArchiveStore(await tempDir(), silent);
    open.push(store);
    await expect(store.append({ mountpoint: '../etc', hour: HOUR }, Buffer.alloc(0))).rejects.toThrow(
      /not a mountpoint/,
    );
  });
});

class FakeIndex {
  updates: ArchiveHourUpdate[] = [];
  recordHours = async (updates: ArchiveHourUpdate[]) => {
    this.updates.push(...updates.map((u) => ({ ...u })));
  };

  /** The updates of one hour added up, as the server's index row would hold them. */
  total(hour: number) {
    const of = this.updates.filter((u) => u.hour.getTime() === hour);
    return {
      frames: of.reduce((n, u) => n + u.frames, 0),
      bytes: of.reduce((n, u) => n + u.bytes, 0),
      storedBytes: of.reduce((n, u) => n + u.storedBytes, 0),
      droppedFrames: of.reduce((n, u) => n + u.droppedFrames, 0),
      messageTypes: [...new Set(of.flatMap((u) => u.messageTypes))].sort((a, b) => a - b),
    };
  }
}

async function archivingCaster(store: ArchiveStoreSpec, options: { queueBytes?: number; clock?: () => number } = {}) {
  const ports = new FakePorts().addNetwork('nl').addStation('AMS1', 'nl', 52.37, 4.9);
  ports.accounts.push({ username: 'alice', password: 'alice-pw', accountId: 'acc-alice', networks: ['nl'] });
  const index = new FakeIndex();
  const warnings: string[] = [];
  const logger = { ...silent, warn: (_: object, message: string) => warnings.push(message) };
  const caster: Caster = await createCaster({
    ports,
    logger,
    archive: { store, index, flushMs: 50, indexFlushMs: 50, ...options },
  });
  open.push(caster);
  const { port } = await caster.listen(0, '127.0.0.1');
  const source = await Peer.connect(port);
  open.push(source);
  source.write('SOURCE src-secret /AMS1\r\n\r\n');
  await source.until((p) => p.text() === 'ICY 200 OK\r\n\r\n', 'source accepted');
  return { caster, port, index, warnings, source };
}

describe('archiving what the caster relays', () => {
  it("archives a base station's valid frames by the UTC hour they arrive in, and indexes them", async () => {
    const store = localArchiveStore(await tempDir(), silent);
    open.push(store);
    const { caster, source, index } = await archivingCaster(store.spec);
    const frames = [frame(1005, 0), frame(1077, 1), frame(1087, 2), frame(1077, 3)];
    const bad = Buffer.from(frame(1077, 99));
    bad.writeUInt8(0xff - (bad.at(-1) as number), bad.length - 1);
    const before = Date.now();
    source.write(Buffer.concat([Buffer.from('junk'), frames[0] as Buffer, bad, ...frames.slice(1)]));
    await until(() => index.total(before - (before % HOUR_MS)).frames >= 4, 'the index to hear of four frames');
    await caster.close();
    const after = Date.now();

    const { data } = await readAll(store, 'AMS1', before, after + 1);
    expect(data).toEqual(Buffer.concat(frames));
    const hour = before - (before % HOUR_MS);
    if (after - (after % HOUR_MS) === hour) {
      expect(index.total(hour)).toEqual({
        frames: 4,
        bytes: Buffer.concat(frames).length,
        storedBytes: expect.any(Number),
        droppedFrames: 0,
        messageTypes: [1005, 1077, 1087],
      });
      const first = index.updates[0];
      expect(first?.firstFrameAt?.getTime()).toBeGreaterThanOrEqual(before);
      expect(first?.lastFrameAt?.getTime()).toBeLessThanOrEqual(after);
    }
  });

  it("archives a pull feed's frames as they come from the upstream caster", async () => {
    const upstreamPorts = new FakePorts().addNetwork('up').addStation('UPS1', 'up', 50, 8, 'up-source');
    upstreamPorts.accounts.push({ username: 'relay', password: 'relay-pw', accountId: 'acc-relay', networks: ['up'] });
    const upstream = await createCaster({ ports: upstreamPorts });
    open.push(upstream);
    const upstreamPort = (await upstream.listen(0, '127.0.0.1')).port;
    const base = await Peer.connect(upstreamPort);
    open.push(base);
    base.write('SOURCE up-source /UPS1\r\n\r\n');
    await base.until((p) => p.text() === 'ICY 200 OK\r\n\r\n', 'upstream source accepted');

    const store = localArchiveStore(await tempDir(), silent);
    open.push(store);
    const ports = new FakePorts().addNetwork('nl').addStation('PULL1', 'nl', 52, 5);
    ports.pulls.push({
      mountpoint: 'PULL1',
      host: '127.0.0.1',
      port: upstreamPort,
      upstreamMountpoint: 'UPS1',
      username: 'relay',
      password: 'relay-pw',
      ntripVersion: 2,
    });
    const index = new FakeIndex();
    const caster = await createCaster({
      ports,
      limits: { pullBackoffMinMs: 50, pullBackoffMaxMs: 200 },
      archive: { store: store.spec, index, flushMs: 50, indexFlushMs: 50 },
    });
    open.push(caster);
    await caster.listen(0, '127.0.0.1');
    await until(() => caster.stats().mounts[0]?.source === 'pull', 'the pull feed to connect');
    const from = Date.now();
    const frames = [1, 2, 3].map((n) => frame(1077, n));
    for (const f of frames) base.write(f);
    await until(() => index.updates.reduce((n, u) => n + u.frames, 0) >= 3, 'three frames archived');
    expect((await readAll(store, 'PULL1', from, Date.now() + 1)).data).toEqual(Buffer.concat(frames));
  });

  it('files frames under the hour they arrive in and seals the hour that ended', async () => {
    const dir = await tempDir();
    const observed = observedStore(dir);
    let now = HOUR + HOUR_MS - 1000;
    const { caster, source, index } = await archivingCaster(observed.spec, { clock: () => now });
    source.write(frame(1077, 1));
    await until(() => index.total(HOUR).frames === 1, 'the first hour indexed');
    now = HOUR + HOUR_MS + 1000;
    source.write(frame(1077, 2));
    await until(() => index.total(HOUR + HOUR_MS).frames === 1, 'the next hour indexed');
    await until(() => observed.seals() === 1, 'the ended hour sealed');
    expect(observed.lastSealed()).toBe(HOUR);
    await caster.close();
    // The hour still going on was released, not sealed: another process may continue it.
    expect(observed.seals()).toBe(1);

    const store = localArchiveStore(dir, silent);
    open.push(store);
    expect((await readAll(store, 'AMS1', HOUR, HOUR + 1)).data).toEqual(frame(1077, 1));
    expect((await readAll(store, 'AMS1', HOUR + HOUR_MS, HOUR + HOUR_MS + 1)).data).toEqual(frame(1077, 2));
  });

  it('never holds a rover up for a store that does not answer: a full queue drops and counts frames', async () => {
    const dir = await tempDir();
    const observed = observedStore(dir);
    observed.hold();
    const { caster, port, source, index, warnings } = await archivingCaster(observed.spec, { queueBytes: 1000 });
    const rover = await Peer.connect(port);
    open.push(rover);
    rover.write(roverRequest('AMS1', 2, ['alice', 'alice-pw']));
    await rover.until((p) => p.text().includes('\r\n\r\n'), 'rover accepted');

    const frames = Array.from({ length: 20 }, (_, n) => frame(1077, n, 194));
    for (const f of frames) source.write(f);
    await rover.until((p) => dechunk(p.body()).length === 20, 'every frame at the rover while the store hangs');
    expect(dechunk(rover.body())).toEqual(frames);
    await until(() => warnings.length > 0, 'the archive to say it drops frames');
    expect(warnings).toEqual(['archive queue full: frames dropped from the archive (the relay is not affected)']);

    observed.release();
    await caster.close();
    const store = localArchiveStore(dir, silent);
    open.push(store);
    const { data } = await readAll(store, 'AMS1', Date.now() - HOUR_MS, Date.now() + 1);
    // 1000 bytes of queue hold five 200-byte frames; the other fifteen were dropped and counted.
    expect(data).toEqual(Buffer.concat(frames.slice(0, 5)));
    const hour = Date.now() - (Date.now() % HOUR_MS);
    expect(index.total(hour)).toMatchObject({ frames: 5, droppedFrames: 15 });
  });
});

describe('the archive index', () => {
  it("records a real capture's observation epochs (UTC) and message types beside its arrival times", async () => {
    const store = localArchiveStore(await tempDir(), silent);
    open.push(store);
    const index = new FakeIndex();
    // Hiroshima, 2022-12-13 01:09:22-01:10:21 GPST, arriving as if live.
    const arrival = Date.parse('2022-12-13T01:10:05Z');
    const writer = new ArchiveWriter({ store, index, flushMs: 60_000, clock: () => arrival }, silent);
    const frames = validFrames(fixture('oem729_hiroshima_20221213_msm7_alleph.rtcm3'));
    for (const f of frames) writer.frame('HIRO1', f, (f.readUInt16BE(3) >> 4) as number);
    await writer.close();

    const hour = Date.parse('2022-12-13T01:00:00Z');
    expect(index.updates).toEqual([
      {
        mountpoint: 'HIRO1',
        hour: new Date(hour),
        bytes: Buffer.concat(frames).length,
        frames: frames.length,
        storedBytes: expect.any(Number),
        droppedFrames: 0,
        firstFrameAt: new Date(arrival),
        lastFrameAt: new Date(arrival),
        firstEpoch: new Date('2022-12-13T01:09:04Z'),
        lastEpoch: new Date('2022-12-13T01:10:03Z'),
        epochMinutes: [9, 10],
        messageTypes: [1005, 1019, 1020, 1033, 1041, 1042, 1044, 1045, 1046, 1077, 1087, 1097, 1117, 1127, 1137, 1230],
      },
    ]);
    expect((await readAll(store, 'HIRO1', hour, hour + 1)).data).toEqual(Buffer.concat(frames));
  });
});

/** A GPS or Galileo MSM frame with its epoch (30 bits of milliseconds of the week, after bit 24) moved by `ms`. */
function shiftEpoch(frame: Buffer, ms: number): Buffer {
  const length = (((frame[1] as number) & 0x03) << 8) | (frame[2] as number);
  const payload = Buffer.from(frame.subarray(3, 3 + length));
  const week = 604_800_000;
  const bit = 24;
  let tow = 0;
  for (let i = 0; i < 30; i++) tow = tow * 2 + (((payload[(bit + i) >> 3] as number) >> (7 - ((bit + i) & 7))) & 1);
  const shifted = (tow + ms) % week;
  for (let i = 0; i < 30; i++) {
    const at = bit + i;
    const mask = 1 << (7 - (at & 7));
    const one = Math.floor(shifted / 2 ** (29 - i)) % 2 === 1;
    payload[at >> 3] = one ? (payload[at >> 3] as number) | mask : (payload[at >> 3] as number) & ~mask;
  }
  return encodeFrame(payload);
}

describe('the minutes of an hour that hold its epochs', () => {
  it('are none for a replay filed under an hour its epochs lie before and after', async () => {
    const store = localArchiveStore(await tempDir(), silent);
    open.push(store);
    const index = new FakeIndex();
    // The Hiroshima minute (01:09–01:10 UTC) and the same minute two hours on, both arriving at 02:30.
    const arrival = Date.parse('2022-12-13T02:30:00Z');
    const writer = new ArchiveWriter({ store, index, flushMs: 60_000, clock: () => arrival }, silent);
    const typeOf = (f: Buffer) => f.readUInt16BE(3) >> 4;
    const msm = validFrames(fixture('oem729_hiroshima_20221213_msm7_alleph.rtcm3')).filter((f) =>
      [1077, 1097].includes(typeOf(f)),
    );
    for (const f of [...msm, ...msm.map((f) => shiftEpoch(f, 2 * HOUR_MS))]) writer.frame('HIRO1', f, typeOf(f));
    await writer.close();

    const hour = Date.parse('2022-12-13T02:00:00Z');
    expect(index.updates).toHaveLength(1);
    const [update] = index.updates;
    expect(update?.hour).toEqual(new Date(hour));
    // First and last epoch straddle the hour, yet not one epoch is in it.
    expect(update?.firstEpoch?.getTime()).toBeLessThan(hour);
    expect(update?.lastEpoch?.getTime()).toBeGreaterThan(hour + HOUR_MS);
    expect(update?.epochMinutes).toEqual([]);
  });

  it('are the minutes of the epochs inside the hour, wherever the others lie', async () => {
    const store = localArchiveStore(await tempDir(), silent);
    open.push(store);
    const index = new FakeIndex();
    const arrival = Date.parse('2022-12-13T01:30:00Z');
    const writer = new ArchiveWriter({ store, index, flushMs: 60_000, clock: () => arrival }, silent);
    const typeOf = (f: Buffer) => f.readUInt16BE(3) >> 4;
    const msm = validFrames(fixture('oem729_hiroshima_20221213_msm7_alleph.rtcm3')).filter((f) =>
      [1077, 1097].includes(typeOf(f)),
    );
    for (const f of [...msm, ...msm.map((f) => shiftEpoch(f, HOUR_MS))]) writer.frame('HIRO1', f, typeOf(f));
    await writer.close();
    expect(index.updates.map((u) => u.epochMinutes)).toEqual([[9, 10]]);
  });
});

describe('the ring between the relay and the archive thread', () => {
  const take = (reader: RingReader) => {
    const records: Array<{ station: number; type: number; payload: Buffer; at: number; dropped: number }> = [];
    reader.drain((r) => records.push({ ...r, payload: Buffer.from(r.payload) }));
    return records;
  };

  it('hands frames over whole and in order across its end, and refuses one that does not fit', () => {
    const shared = createRing(0);
    const writer = new RingWriter(shared);
    const reader = new RingReader(shared);
    const frames = Array.from({ length: 120 }, (_, n) => frame(1077, n, 1000));
    let written = 0;
    while (writer.write(written % 7, 1077, frames[written] as Buffer, HOUR + written, 0)) written++;
    // 64 KB hold 63 records of a 1006-byte frame and its 32-byte header, 8-byte aligned.
    expect(written).toBe(63);
    const first = take(reader);
    expect(first.map((r) => r.payload)).toEqual(frames.slice(0, 63));
    expect(first.map((r) => r.at)).toEqual(frames.slice(0, 63).map((_, n) => HOUR + n));
    expect(first.map((r) => r.station)).toEqual(frames.slice(0, 63).map((_, n) => n % 7));

    // The next records wrap around the end; the count of frames refused rides on the next one that fits.
    for (let n = 63; n < 120; n++)
      expect(writer.write(1, 1087, frames[n] as Buffer, HOUR, n === 63 ? 4 : 0)).toBe(true);
    const second = take(reader);
    expect(second.map((r) => r.payload)).toEqual(frames.slice(63));
    expect(second.map((r) => r.type)).toEqual(frames.slice(63).map(() => 1087));
    expect(second[0]?.dropped).toBe(4);
    expect(take(reader)).toEqual([]);
  });
});

describe('the archive thread after a crash', () => {
  const FAILED =
    'archive thread failed: restarting it; frames are dropped from the archive until then (the relay is not affected)';
  const RESTARTED = 'archive thread restarted: frames are archived again';

  /** An archive whose store brings its thread down on the first `crashes` appends, with what it logs. */
  async function crashingArchive(crashes: number, restartMs: number, whileDown?: (archive: ArchiveThread) => void) {
    const dir = await tempDir();
    const store = crashingStore(dir, crashes);
    const index = new FakeIndex();
    const failures: Array<{ restartInMs: number }> = [];
    const infos: string[] = [];
    let archive: ArchiveThread | undefined;
    const logger = {
      ...silent,
      info: (_: object, message: string) => infos.push(message),
      error: (fields: object, message: string) => {
        if (message !== FAILED) return;
        failures.push(fields as { restartInMs: number });
        if (archive) whileDown?.(archive);
      },
    };
    archive = await ArchiveThread.start(
      { store: store.spec, index, flushMs: 20, indexFlushMs: 20, restartMs, clock: () => HOUR + 1000 },
      logger,
    );
    open.push(archive);
    return { archive, dir, store, index, failures, restarted: () => infos.filter((m) => m === RESTARTED).length };
  }

  it('starts a new thread after each crash, pausing twice as long each time, and archives again', async () => {
    const { archive, dir, index, failures, restarted } = await crashingArchive(2, 20, (a) =>
      // A frame while no thread runs: dropped, and counted in the hour.
      a.frame('AMS1', frame(1077, 99), 1077),
    );
    for (const n of [0, 1]) {
      // Each of these frames' append brings the thread down; the frame is lost with it.
      archive.frame('AMS1', frame(1077, n), 1077);
      await until(() => restarted() === n + 1, `restart ${n + 1}`);
    }
    expect(failures.map((f) => f.restartInMs)).toEqual([20, 40]);

    const after = [2, 3, 4].map((n) => frame(1077, n));
    for (const f of after) archive.frame('AMS1', f, 1077);
    await until(() => index.total(HOUR).frames === 3, 'the frames after the restarts stored');
    await archive.close();
    const store = localArchiveStore(dir, silent);
    open.push(store);
    expect((await readAll(store, 'AMS1', HOUR, HOUR + HOUR_MS)).data).toEqual(Buffer.concat(after));
    // The first drop's count rode on frame 1 into the thread that it brought down; the second's reached the store.
    expect(index.total(HOUR)).toMatchObject({ frames: 3, droppedFrames: 1 });
  });

  it('closes during the pause before a restart, and starts no thread after it', async () => {
    const { archive, store, failures } = await crashingArchive(1, 60_000);
    archive.frame('AMS1', frame(1077, 0), 1077);
    await until(() => failures.length === 1, 'the thread to fail');
    await archive.close();
    expect(store.opens()).toBe(1);
  });

  it('closes while a restarted thread is starting, once it has started', async () => {
    const { archive, store, restarted, failures } = await crashingArchive(1, 20);
    store.holdOpening();
    archive.frame('AMS1', frame(1077, 0), 1077);
    await until(() => store.opens() === 2, 'the restarted thread to open its store');
    const closed = archive.close();
    store.releaseOpening();
    await closed;
    expect(restarted()).toBe(1);
    expect(failures).toHaveLength(1);
  });
});
