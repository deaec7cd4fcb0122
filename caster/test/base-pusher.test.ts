import { utcToGpst } from '@portal/gnss';
import { afterEach, describe, expect, it } from 'vitest';
import { epochsOf, observationTime, pushBase } from '../src/base/pusher.ts';
import { createCaster, validFrames } from '../src/index.ts';
import { fixture, Peer, roverRequest } from './support/client.ts';
import { FakePorts } from './support/fakes.ts';
import { until } from './support/wait.ts';

const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
});

async function caster() {
  const ports = new FakePorts().addNetwork('jp').addStation('HIRO', 'jp', 34.4, 132.5, 'base-secret');
  ports.accounts.push({ username: 'alice', password: 'alice-pw', accountId: 'acc-alice', networks: ['jp'] });
  const c = await createCaster({ ports });
  open.push(c);
  return { port: (await c.listen(0, '127.0.0.1')).port, ports };
}

describe('the paced base station (npm run base)', () => {
  it("cuts a capture into its receiver's epochs, one second apart, with every frame kept", () => {
    for (const name of ['oem729_hiroshima_20221213_msm7_alleph.rtcm3', 'aamakinen_20260705_msm7_glomsm4.rtcm3']) {
      const capture = fixture(name);
      const epochs = epochsOf(capture);
      expect(Buffer.concat(epochs.flatMap((e) => e.frames))).toEqual(Buffer.concat(validFrames(capture)));
      expect(epochs[0]?.delayMs).toBe(0);
      expect(epochs.slice(1).every((e) => e.delayMs === 1000)).toBe(true);
      // Each epoch ends with the observation message that says none of its epoch follows.
      for (const e of epochs.slice(0, -1)) {
        const times = e.frames.map(observationTime).filter((t) => t !== null);
        expect(times.at(-1)?.more).toBe(false);
        expect(new Set(times.map((t) => t?.todMs)).size).toBe(1);
      }
    }
  });

  it('sends the capture to the caster at the pace it was recorded, as NTRIP 1 and NTRIP 2', async () => {
    const epochs = epochsOf(fixture('oem729_hiroshima_20221213_msm7_alleph.rtcm3'));
    for (const ntripVersion of [1, 2] as const) {
      const { port } = await caster();
      const rover = await Peer.connect(port);
      open.push(rover);
      rover.write(roverRequest('HIRO', 1, ['alice', 'alice-pw']));
      await rover.until((p) => p.text().startsWith('ICY 200 OK'), 'rover accepted');
      const controller = new AbortController();
      const lines: string[] = [];
      const started = Date.now();
      const pushing = pushBase({
        host: '127.0.0.1',
        port,
        mountpoint: 'HIRO',
        password: 'base-secret',
        ntripVersion,
        epochs,
        loop: true,
        retrySeconds: 1,
        log: (line) => lines.push(line),
        signal: controller.signal,
      });
      const firstThree = Buffer.concat(epochs.slice(0, 3).flatMap((e) => e.frames));
      await rover.until(
        (p) => validFrames(p.body()).length >= epochs.slice(0, 3).flatMap((e) => e.frames).length,
        'three epochs',
        8000,
      );
      const elapsed = Date.now() - started;
      controller.abort();
      await pushing;
      // Three epochs take two gaps of one second: not a burst of the whole file, not slower than the capture.
      expect(elapsed).toBeGreaterThanOrEqual(1900);
      expect(Buffer.concat(validFrames(rover.body())).subarray(0, firstThree.length)).toEqual(firstThree);
      expect(validFrames(rover.body()).length).toBeLessThan(epochs.flatMap((e) => e.frames).length);
      expect(lines.some((l) => l.includes(`as its base station (NTRIP ${ntripVersion})`))).toBe(true);
    }
  });

  it('sends a capture recorded in 2022 with epochs of now when asked to retime it (the demo base, issue 32)', async () => {
    const epochs = epochsOf(fixture('oem729_hiroshima_20221213_msm7_alleph.rtcm3'));
    const { port } = await caster();
    const rover = await Peer.connect(port);
    open.push(rover);
    rover.write(roverRequest('HIRO', 1, ['alice', 'alice-pw']));
    await rover.until((p) => p.text().startsWith('ICY 200 OK'), 'rover accepted');
    const controller = new AbortController();
    const pushing = pushBase({
      host: '127.0.0.1',
      port,
      mountpoint: 'HIRO',
      password: 'base-secret',
      ntripVersion: 1,
      epochs,
      loop: true,
      retime: true,
      retrySeconds: 1,
      log: () => {},
      signal: controller.signal,
    });
    const frames = epochs.slice(0, 2).flatMap((e) => e.frames).length;
    await rover.until((p) => validFrames(p.body()).length >= frames, 'two epochs', 8000);
    const nowTod = (utcToGpst(Date.now()).tow * 1000) % 86_400_000;
    controller.abort();
    await pushing;
    const received = validFrames(rover.body()).slice(0, frames);
    const times = received.map(observationTime).filter((t) => t !== null);
    expect(times.length).toBeGreaterThan(0);
    // Within a few seconds of now (GPS time of day), not the capture's December 2022 epoch.
    for (const t of times) expect(Math.abs((t?.todMs ?? 0) - nowTod)).toBeLessThan(5000);
    const original = epochs
      .slice(0, 2)
      .flatMap((e) => e.frames)
      .map(observationTime)
      .filter((t) => t !== null);
    expect(times[0]?.todMs).not.toBe(original[0]?.todMs);
    // Everything but the observation epochs is sent as recorded: the station's position, the ephemerides.
    const sameTypes = (list: Buffer[]) => list.map((f) => f.readUInt16BE(3) >> 4);
    expect(sameTypes(received)).toEqual(sameTypes(epochs.slice(0, 2).flatMap((e) => e.frames)));
  });

  it('says what the caster answered and tries again, as a base station does', async () => {
    const { port } = await caster();
    const controller = new AbortController();
    const lines: string[] = [];
    const pushing = pushBase({
      host: '127.0.0.1',
      port,
      mountpoint: 'HIRO',
      password: 'wrong',
      ntripVersion: 1,
      epochs: epochsOf(fixture('aamakinen_20260705_msm7_glomsm4.rtcm3')),
      loop: true,
      retrySeconds: 0.2,
      log: (line) => lines.push(line),
      signal: controller.signal,
    });
    await until(() => lines.filter((l) => l.startsWith('caster answered')).length >= 2, 'two refused attempts');
    controller.abort();
    await pushing;
    expect(lines.filter((l) => l === 'caster answered: ERROR - Bad Password').length).toBeGreaterThanOrEqual(2);
  });
});
