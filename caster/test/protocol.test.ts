import { afterEach, describe, expect, it } from 'vitest';
import { type Caster, type CasterLimits, createCaster, encodeFrame, formatGga, validFrames } from '../src/index.ts';
import { dechunk, fixture, Peer, roverRequest, writeInPieces } from './support/client.ts';
import { ManualClock } from './support/clock.ts';
import { FakePorts } from './support/fakes.ts';
import { forTransport, plainPort, TRANSPORTS } from './support/transports.ts';
import { until } from './support/wait.ts';

const capture = fixture('oem729_hiroshima_20221213_msm7_alleph.rtcm3').subarray(0, 30_000);
const frames = validFrames(capture);
const framesBytes = Buffer.concat(frames);

const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
});

function standardPorts(): FakePorts {
  const ports = new FakePorts()
    .addNetwork('nl')
    .addNetwork('de')
    .addStation('AMS1', 'nl', 52.37, 4.9)
    .addStation('UTR1', 'nl', 52.09, 5.12)
    .addStation('BER1', 'de', 52.52, 13.4);
  ports.accounts.push(
    { username: 'alice', password: 'alice-pw', accountId: 'acc-alice', networks: ['nl'] },
    { username: 'bob', password: 'bob-pw', accountId: 'acc-bob', networks: ['nl'], enabled: false },
    { username: 'carol', password: 'carol-pw', accountId: 'acc-carol', networks: ['nl', 'de'], maxConnections: 2 },
  );
  return ports;
}

async function start(
  ports = standardPorts(),
  limits: Partial<CasterLimits> = {},
  logger?: TestLogger,
  directWrites?: boolean,
  clock?: ManualClock,
  fanOutThreads?: number,
) {
  const caster: Caster = await createCaster({
    ports,
    limits,
    logger,
    directWrites,
    clock,
    fanOutThreads,
    ...plainPort,
  });
  open.push(caster);
  const { port } = await caster.listen(0, '127.0.0.1');
  const peer = async () => {
    const p = await Peer.connect(port);
    open.push(p);
    return p;
  };
  return { caster, port, ports, peer };
}

class TestLogger {
  lines: Array<{ level: string; message: string; fields: object }> = [];
  info = (fields: object, message: string) => this.lines.push({ level: 'info', message, fields });
  warn = (fields: object, message: string) => this.lines.push({ level: 'warn', message, fields });
  error = (fields: object, message: string) => this.lines.push({ level: 'error', message, fields });
}

async function v1Source(peer: () => Promise<Peer>, mountpoint: string, password = 'src-secret') {
  const source = await peer();
  source.write(`SOURCE ${password} /${mountpoint}\r\nSource-Agent: NTRIP test-source\r\n\r\n`);
  await source.until((p) => p.text().includes('\r\n'), 'source answer');
  return source;
}

async function v1Rover(peer: () => Promise<Peer>, mountpoint: string, user = 'alice', password = 'alice-pw') {
  const rover = await peer();
  rover.write(roverRequest(mountpoint, 1, [user, password]));
  await rover.until((p) => p.text().includes('\r\n\r\n') || p.closed, 'rover answer');
  return rover;
}

describe.each(TRANSPORTS)('the plain port through %s', (transport) => {
  forTransport(transport);

  it('fails to start on a port in use, saying so with the address and port', async () => {
    const { port } = await start();
    const second = await createCaster({ ports: standardPorts(), ...plainPort });
    open.push(second);
    await expect(second.listen(port, '127.0.0.1')).rejects.toMatchObject({
      code: 'EADDRINUSE',
      message: `listen EADDRINUSE: address already in use 127.0.0.1:${port}`,
    });
  });

  describe('NTRIP 1', () => {
    it('relays exactly the valid frames from a SOURCE to a rover, whatever the chunking', async () => {
      const { peer } = await start();
      const rover = await v1Rover(peer, 'AMS1');
      expect(rover.text()).toBe('ICY 200 OK\r\n\r\n');
      const source = await v1Source(peer, 'AMS1');
      expect(source.text()).toBe('ICY 200 OK\r\n\r\n');
      await writeInPieces(source, capture);
      await rover.until((p) => p.body().length >= framesBytes.length, 'all frames');
      expect(rover.body().equals(framesBytes)).toBe(true);
    });

    it('accepts a SOURCE line without the leading slash and a rover on HTTP/1.1 without Host', async () => {
      const { peer } = await start();
      const source = await peer();
      source.write('SOURCE src-secret AMS1\r\n\r\n');
      await source.until((p) => p.text() === 'ICY 200 OK\r\n\r\n', 'source ok');
      const rover = await peer();
      rover.write(
        `GET /AMS1 HTTP/1.1\r\nAuthorization: Basic ${Buffer.from('alice:alice-pw').toString('base64')}\r\n\r\n`,
      );
      await rover.until((p) => p.text().startsWith('ICY 200 OK\r\n\r\n'), 'v1 answer to an HTTP/1.1 request');
    });

    it('answers a sourcetable with a correct Content-Length and complete STR, CAS and NET records', async () => {
      const { peer } = await start();
      const client = await peer();
      client.write('GET / HTTP/1.0\r\nUser-Agent: NTRIP test\r\n\r\n');
      const text = await client.closedWith('sourcetable');
      const head = text.slice(0, text.indexOf('\r\n\r\n'));
      const body = text.slice(text.indexOf('\r\n\r\n') + 4);
      expect(head.split('\r\n')[0]).toBe('SOURCETABLE 200 OK');
      const length = Number(/Content-Length: (\d+)/.exec(head)?.[1]);
      expect(length).toBe(Buffer.byteLength(body));
      expect(body.endsWith('ENDSOURCETABLE\r\n')).toBe(true);
      const records = body
        .trim()
        .split('\r\n')
        .slice(0, -1)
        .map((l) => l.split(';'));
      expect(records.filter((r) => r[0] === 'CAS')).toHaveLength(1);
      expect(records.find((r) => r[0] === 'CAS')).toHaveLength(12);
      expect(records.filter((r) => r[0] === 'NET').map((r) => r[1])).toEqual(['nl', 'de']);
      for (const r of records.filter((r) => r[0] === 'NET')) expect(r).toHaveLength(9);
      const str = records.filter((r) => r[0] === 'STR');
      expect(str.map((r) => r[1])).toEqual(['NL_NEAR', 'DE_NEAR', 'AMS1', 'BER1', 'UTR1']);
      for (const r of str) expect(r).toHaveLength(19);
      expect(str.find((r) => r[1] === 'AMS1')).toEqual([
        'STR',
        'AMS1',
        'AMS1 town',
        'RTCM 3.3',
        '1005(10),1077(1)',
        '2',
        'GPS+GLO+GAL',
        'nl',
        'NLD',
        '52.37',
        '4.90',
        '0',
        '0',
        'TEST RX',
        'none',
        'B',
        'Y',
        '9600',
        'none',
      ]);
      expect(str.find((r) => r[1] === 'NL_NEAR')?.[11]).toBe('1');
    });

    it('answers the sourcetable for an unknown mountpoint', async () => {
      const { peer } = await start();
      const rover = await v1Rover(peer, 'NOPE');
      expect(await rover.closedWith('sourcetable')).toMatch(/^SOURCETABLE 200 OK\r\n/);
    });

    it('refuses a bad source password, a taken mountpoint and an unknown one with the NTRIP 1 error lines', async () => {
      const { peer } = await start();
      const bad = await v1Source(peer, 'AMS1', 'wrong');
      expect(await bad.closedWith('bad password')).toBe('ERROR - Bad Password\r\n');
      const first = await v1Source(peer, 'AMS1');
      expect(first.text()).toBe('ICY 200 OK\r\n\r\n');
      const second = await v1Source(peer, 'AMS1');
      expect(await second.closedWith('taken')).toBe('ERROR - Mount Point Taken or Invalid\r\n');
      const unknown = await v1Source(peer, 'NOPE');
      expect(await unknown.closedWith('invalid')).toBe('ERROR - Mount Point Taken or Invalid\r\n');
    });

    it('answers 401 for bad credentials and 403 for a disabled account or a network without a grant', async () => {
      const { peer } = await start();
      const bad = await v1Rover(peer, 'AMS1', 'alice', 'nope');
      expect(await bad.closedWith('401')).toMatch(
        /^HTTP\/1\.0 401 Unauthorized\r\n[\s\S]*WWW-Authenticate: Basic realm="\/AMS1"/,
      );
      const disabled = await v1Rover(peer, 'AMS1', 'bob', 'bob-pw');
      expect(await disabled.closedWith('403')).toMatch(/^HTTP\/1\.0 403 Forbidden\r\n[\s\S]*disabled/);
      const noGrant = await v1Rover(peer, 'BER1');
      expect(await noGrant.closedWith('403')).toMatch(/^HTTP\/1\.0 403 Forbidden\r\n[\s\S]*no access/);
    });
  });

  describe('NTRIP 2', () => {
    it('streams each frame as one chunk to a rover fed by a chunked POST source', async () => {
      const { peer } = await start();
      const rover = await peer();
      rover.write(roverRequest('AMS1', 2, ['alice', 'alice-pw']));
      await rover.until((p) => p.text().includes('\r\n\r\n'), 'v2 header');
      const head = rover.text().slice(0, rover.text().indexOf('\r\n\r\n'));
      expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(head).toContain('Ntrip-Version: Ntrip/2.0');
      expect(head).toContain('Transfer-Encoding: chunked');
      expect(head).toContain('Content-Type: gnss/data');

      const source = await peer();
      source.write(
        `POST /AMS1 HTTP/1.1\r\nHost: 127.0.0.1\r\nNtrip-Version: Ntrip/2.0\r\nAuthorization: Basic ${Buffer.from('station:src-secret').toString('base64')}\r\nTransfer-Encoding: chunked\r\n\r\n`,
      );
      await source.until((p) => p.text().includes('\r\n\r\n'), 'source answer');
      expect(source.text()).toMatch(/^HTTP\/1\.1 200 OK\r\nNtrip-Version: Ntrip\/2\.0\r\n/);
      const body = Buffer.concat(
        [capture.subarray(0, 10_000), capture.subarray(10_000)].map((part) =>
          Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]),
        ),
      );
      await writeInPieces(source, body);
      const expectedChunked = frames.reduce((n, f) => n + f.length + f.length.toString(16).length + 4, 0);
      await rover.until((p) => p.body().length >= expectedChunked, 'all chunks');
      const chunks = dechunk(rover.body());
      expect(chunks).toEqual(frames);
    });

    it('takes a raw (not chunked) POST body', async () => {
      const { peer } = await start();
      const rover = await peer();
      rover.write(roverRequest('UTR1', 1, ['alice', 'alice-pw']));
      await rover.until((p) => p.text() === 'ICY 200 OK\r\n\r\n', 'rover ok');
      const source = await peer();
      source.write(
        `POST /UTR1 HTTP/1.1\r\nNtrip-Version: Ntrip/2.0\r\nAuthorization: Basic ${Buffer.from(':src-secret').toString('base64')}\r\n\r\n`,
      );
      await source.until((p) => p.text().includes('\r\n\r\n'), 'source answer');
      source.write(capture);
      await rover.until((p) => p.body().length >= framesBytes.length, 'frames');
      expect(rover.body().equals(framesBytes)).toBe(true);
    });

    it('answers every refusal with its status and Ntrip-Version', async () => {
      const { peer } = await start();
      const v2 = async (request: string) => {
        const p = await peer();
        p.write(request);
        const text = await p.closedWith('refusal');
        expect(text).toContain('\r\nNtrip-Version: Ntrip/2.0\r\n');
        return text;
      };
      expect(await v2(roverRequest('AMS1', 2))).toMatch(/^HTTP\/1\.1 401 [\s\S]*WWW-Authenticate: Basic/);
      expect(await v2(roverRequest('AMS1', 2, ['alice', 'x']))).toMatch(
        /^HTTP\/1\.1 401 [\s\S]*WWW-Authenticate: Basic/,
      );
      expect(await v2(roverRequest('AMS1', 2, ['bob', 'bob-pw']))).toMatch(/^HTTP\/1\.1 403 /);
      expect(await v2(roverRequest('BER1', 2, ['alice', 'alice-pw']))).toMatch(/^HTTP\/1\.1 403 /);
      expect(await v2(roverRequest('NOPE', 2, ['alice', 'alice-pw']))).toMatch(/^HTTP\/1\.1 404 /);
      const post = (mp: string, pw: string) =>
        `POST /${mp} HTTP/1.1\r\nNtrip-Version: Ntrip/2.0\r\nAuthorization: Basic ${Buffer.from(`s:${pw}`).toString('base64')}\r\n\r\n`;
      expect(await v2(post('AMS1', 'wrong'))).toMatch(/^HTTP\/1\.1 401 /);
      expect(await v2(post('NOPE', 'src-secret'))).toMatch(/^HTTP\/1\.1 404 /);
      const fed = await peer();
      fed.write(post('AMS1', 'src-secret'));
      await fed.until((p) => p.text().startsWith('HTTP/1.1 200 OK'), 'first source');
      expect(await v2(post('AMS1', 'src-secret'))).toMatch(/^HTTP\/1\.1 409 /);
    });

    it('limits concurrent connections per account', async () => {
      const { peer } = await start();
      const first = await peer();
      first.write(roverRequest('AMS1', 2, ['alice', 'alice-pw']));
      await first.until((p) => p.text().startsWith('HTTP/1.1 200'), 'first');
      const second = await peer();
      second.write(roverRequest('UTR1', 2, ['alice', 'alice-pw']));
      expect(await second.closedWith('limit')).toMatch(/^HTTP\/1\.1 429 [\s\S]*at most 1/);
      first.close();
      await first.closedWith('closed');
      const third = await peer();
      third.write(roverRequest('UTR1', 2, ['alice', 'alice-pw']));
      await third.until((p) => p.text().startsWith('HTTP/1.1 200'), 'a free slot after the first left');
    });

    it('filters the gnss/sourcetable', async () => {
      const { peer } = await start();
      const client = await peer();
      client.write('GET /?STR;;;;;;;de HTTP/1.1\r\nNtrip-Version: Ntrip/2.0\r\n\r\n');
      const text = await client.closedWith('sourcetable');
      expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(text).toContain('Content-Type: gnss/sourcetable');
      const body = text.slice(text.indexOf('\r\n\r\n') + 4);
      expect(Number(/Content-Length: (\d+)/.exec(text)?.[1])).toBe(Buffer.byteLength(body));
      expect(body.split('\r\n').map((l) => l.split(';')[1] ?? l)).toEqual(['DE_NEAR', 'BER1', 'ENDSOURCETABLE', '']);
      const bad = await peer();
      bad.write('GET /?FOO;1 HTTP/1.1\r\nNtrip-Version: Ntrip/2.0\r\n\r\n');
      expect(await bad.closedWith('bad filter')).toMatch(/^HTTP\/1\.1 400 [\s\S]*must start with STR, CAS or NET/);
    });

    it('answers filters of many wildcards at once and keeps serving others meanwhile (issue 16)', async () => {
      const ports = standardPorts();
      // A real station's message list: a long field is what made the stars' regular expression backtrack.
      const amsterdam = ports.stations[0];
      if (!amsterdam) throw new Error('no station');
      amsterdam.str.formatDetails =
        '1004(1),1005(10),1008(10),1012(1),1019(5),1020(5),1033(10),1042(5),1045(5),1046(5),1077(1),1087(1),1097(1),1127(1),1230(10)';
      const { peer } = await start(ports);
      const stars = await peer();
      stars.write('GET /?STR;;;;*****%23 HTTP/1.1\r\nNtrip-Version: Ntrip/2.0\r\n\r\n');
      const many = await peer();
      many.write(`GET /?STR;;;;${'*'.repeat(30)}x HTTP/1.1\r\nNtrip-Version: Ntrip/2.0\r\n\r\n`);
      // A regular expression of these stars took 18 s for five and hours for thirty, the whole process frozen.
      const rover = await peer();
      rover.write(roverRequest('AMS1', 2, ['alice', 'alice-pw']));
      await rover.until((p) => p.text().startsWith('HTTP/1.1 200'), 'another client served');
      for (const client of [stars, many]) {
        const text = await client.closedWith('sourcetable');
        expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
        expect(text.slice(text.indexOf('\r\n\r\n') + 4)).toBe('ENDSOURCETABLE\r\n');
      }
    });
  });

  describe('GGA and the nearest-station mountpoint', () => {
    const stationFrame = (id: number) => encodeFrame(Buffer.from([0x3e, 0xd0, id, 0, 0, 0, 0, 0, 0, 0]));
    const observation = (id: number, n: number) => encodeFrame(Buffer.from([0x43, 0x50, id, n]));

    it('serves the nearest online station, switching with hysteresis and sending the cached 1005 first', async () => {
      const { peer } = await start();
      const ams = await v1Source(peer, 'AMS1');
      const utr = await v1Source(peer, 'UTR1');
      ams.write(Buffer.concat([stationFrame(1), observation(1, 0)]));
      utr.write(Buffer.concat([stationFrame(2), observation(2, 0)]));

      const rover = await peer();
      rover.write(roverRequest('NL_NEAR', 1, ['alice', 'alice-pw']));
      await rover.until((p) => p.text() === 'ICY 200 OK\r\n\r\n', 'accepted');
      rover.write(formatGga({ latitude: 52.0, longitude: 5.0 }, 'GP', 0));
      rover.write('$GPGGA,,,,,,0,,,,,,,,*66\r\n');
      rover.write(formatGga({ latitude: 52.38, longitude: 4.89 }, 'GP'));
      await rover.until((p) => p.body().length >= stationFrame(1).length, 'cached 1005 of AMS1');
      expect(rover.body().equals(stationFrame(1))).toBe(true);
      ams.write(observation(1, 1));
      utr.write(observation(2, 1));
      const afterAms = Buffer.concat([stationFrame(1), observation(1, 1)]);
      await rover.until((p) => p.body().length >= afterAms.length, 'AMS1 observation');
      expect(rover.body().equals(afterAms)).toBe(true);

      // Between the two stations but only a little closer to UTR1: inside the hysteresis, no switch.
      rover.write(formatGga({ latitude: 52.22, longitude: 5.02 }, 'GN'));
      // Next to UTR1: switch, with UTR1's 1005 before any UTR1 observation.
      rover.write(formatGga({ latitude: 52.09, longitude: 5.12 }, 'GN'));
      await rover.until((p) => p.body().length >= afterAms.length + stationFrame(2).length, 'cached 1005 of UTR1');
      ams.write(observation(1, 2));
      utr.write(observation(2, 2));
      const expected = Buffer.concat([afterAms, stationFrame(2), observation(2, 2)]);
      await rover.until((p) => p.body().length >= expected.length, 'UTR1 observation');
      expect(rover.body().equals(expected)).toBe(true);
    });

    it.each(['GL', 'GA', 'GB'])(
      'serves the nearest station to a rover that sends $%sGGA (issue 40)',
      async (talker) => {
        const { peer } = await start();
        const ams = await v1Source(peer, 'AMS1');
        const utr = await v1Source(peer, 'UTR1');
        ams.write(stationFrame(1));
        utr.write(stationFrame(2));
        const rover = await peer();
        rover.write(roverRequest('NL_NEAR', 1, ['alice', 'alice-pw']));
        await rover.until((p) => p.text() === 'ICY 200 OK\r\n\r\n', 'accepted');
        // Next to UTR1, not the first station fed.
        rover.write(formatGga({ latitude: 52.09, longitude: 5.12 }, talker));
        await rover.until((p) => p.body().length >= stationFrame(2).length, `UTR1 1005 for a $${talker}GGA rover`);
        expect(rover.body().equals(stationFrame(2))).toBe(true);
      },
    );

    it('ignores the hysteresis when the current station goes offline', async () => {
      const { peer } = await start();
      const ams = await v1Source(peer, 'AMS1');
      const utr = await v1Source(peer, 'UTR1');
      ams.write(stationFrame(1));
      utr.write(stationFrame(2));
      const rover = await peer();
      rover.write(
        roverRequest(
          'NL_NEAR',
          2,
          ['alice', 'alice-pw'],
          [`Ntrip-GGA: ${formatGga({ latitude: 52.37, longitude: 4.9 }).trim()}`],
        ),
      );
      await rover.until((p) => dechunk(p.body()).length === 1, 'AMS1 1005 from the Ntrip-GGA header');
      expect(dechunk(rover.body())[0]).toEqual(stationFrame(1));
      ams.close();
      await rover.until((p) => dechunk(p.body()).length === 2, 'UTR1 1005 after AMS1 went offline');
      expect(dechunk(rover.body())[1]).toEqual(stationFrame(2));
    });

    it('skips a station whose source is connected but sends nothing, and returns to it when its data flows (issue 17)', async () => {
      const { peer } = await start(standardPorts(), { stationOnlineWindowMs: 400 });
      const ams = await v1Source(peer, 'AMS1');
      const utr = await v1Source(peer, 'UTR1');
      utr.write(stationFrame(2));
      let n = 0;
      const utrEpochs = setInterval(() => utr.write(observation(2, n++ % 200)), 100);
      try {
        // Next to AMS1, whose base is logged in but silent: the rover is served by UTR1, 30 km away.
        const rover = await peer();
        rover.write(
          roverRequest(
            'NL_NEAR',
            2,
            ['alice', 'alice-pw'],
            [`Ntrip-GGA: ${formatGga({ latitude: 52.37, longitude: 4.9 }).trim()}`],
          ),
        );
        const stations = () =>
          dechunk(rover.body()).filter((f) => f.equals(stationFrame(1)) || f.equals(stationFrame(2)));
        await rover.until(() => stations().length >= 1, 'UTR1 1005');
        expect(stations()).toEqual([stationFrame(2)]);

        // AMS1's first frame makes it a candidate again, and the nearer one.
        ams.write(stationFrame(1));
        // Its 1005 arrives once: as the cached station message of the switch, not again as the frame that caused it.
        await rover.until(() => stations().length >= 2, 'AMS1 1005 once its data flows');
        // A second 1005 would come before this AMS1 observation.
        ams.write(observation(1, 0));
        await rover.until((p) => dechunk(p.body()).some((f) => f.equals(observation(1, 0))), 'AMS1 observation');
        expect(stations()).toEqual([stationFrame(2), stationFrame(1)]);

        // Silent again for longer than the online window: back to UTR1 without waiting for the source timeout.
        await rover.until(() => stations().length >= 3, 'UTR1 1005 after AMS1 fell silent');
        expect(stations()).toEqual([stationFrame(2), stationFrame(1), stationFrame(2)]);
        expect(ams.closed).toBe(false);
      } finally {
        clearInterval(utrEpochs);
      }
    });
  });

  describe('limits', () => {
    it('disconnects a rover that does not read, with a log line, while the others keep receiving', async () => {
      const logger = new TestLogger();
      const { caster, peer } = await start(standardPorts(), { roverBacklogBytes: 64 * 1024 }, logger);
      const slow = await v1Rover(peer, 'AMS1', 'carol', 'carol-pw');
      const fast = await v1Rover(peer, 'AMS1', 'carol', 'carol-pw');
      slow.socket.pause();
      const source = await v1Source(peer, 'AMS1');
      const frame = encodeFrame(Buffer.alloc(1000, 1));
      const headLength = fast.length;
      const roversOnMount = () => caster.stats().mounts.find((m) => m.mountpoint === 'AMS1')?.rovers;
      let sent = 0;
      // The kernel buffers a few megabytes for the paused rover before the caster's own queue starts to grow.
      for (let i = 0; i < 100_000 && roversOnMount() === 2; i++) {
        source.write(frame);
        sent += frame.length;
        if (i % 50 === 0) await new Promise((r) => setImmediate(r));
      }
      expect(roversOnMount()).toBe(1);
      await fast.until((p) => p.length - headLength >= sent, 'the fast rover to get everything', 10_000);
      slow.socket.resume();
      await slow.closedWith('the slow rover to see its connection closed', 10_000);
      expect(logger.lines.some((l) => l.level === 'warn' && /unsent bytes passed the limit/.test(l.message))).toBe(
        true,
      );
    });

    it('drops a silent source so its reconnect is accepted', async () => {
      const { peer } = await start(standardPorts(), { sourceSilenceMs: 200 });
      const first = await v1Source(peer, 'AMS1');
      expect(first.text()).toBe('ICY 200 OK\r\n\r\n');
      await first.closedWith('silent source dropped', 3000);
      const again = await v1Source(peer, 'AMS1');
      expect(again.text()).toBe('ICY 200 OK\r\n\r\n');
    });

    it('closes a connection whose head does not arrive in time or is too large', async () => {
      const { peer } = await start(standardPorts(), { headerTimeoutMs: 200, maxHeadBytes: 512 });
      const slow = await peer();
      slow.write('GET /AMS1 HTTP/1.0\r\n');
      expect(await slow.closedWith('header timeout', 3000)).toMatch(/^HTTP\/1\.0 408 /);
      const big = await peer();
      big.write(`GET /AMS1 HTTP/1.0\r\nX-Filler: ${'a'.repeat(600)}\r\n`);
      expect(await big.closedWith('too large')).toMatch(/^HTTP\/1\.0 431 /);
      const bigV2 = await peer();
      bigV2.write(`GET /AMS1 HTTP/1.1\r\nNtrip-Version: Ntrip/2.0\r\nX-Filler: ${'a'.repeat(600)}\r\n`);
      expect(await bigV2.closedWith('too large, v2')).toMatch(
        /^HTTP\/1\.1 431 [^\r]*\r\nNtrip-Version: Ntrip\/2\.0\r\n/,
      );
      const garbage = await peer();
      garbage.write('\x16\x03\x01 hello\r\n\r\n');
      expect(await garbage.closedWith('bad request')).toMatch(
        /^HTTP\/1\.0 400 Bad Request[\s\S]*not an NTRIP request line/,
      );
    });

    it('times out each slow head at its own deadline, and serves a head that arrives meanwhile', async () => {
      const { peer } = await start(standardPorts(), { headerTimeoutMs: 1000 });
      const first = await peer();
      first.write('GET /AMS1 HTTP/1.0\r\n');
      await new Promise((r) => setTimeout(r, 500));
      const second = await peer();
      second.write('GET /AMS1 HTTP/1.0\r\n');
      const inTime = await v1Rover(peer, 'AMS1');
      expect(await first.closedWith('first head timeout', 3000)).toMatch(/^HTTP\/1\.0 408 /);
      // The second connection began 500 ms later, so its second is not over when the first one's is.
      expect(second.closed).toBe(false);
      expect(await second.closedWith('second head timeout', 3000)).toMatch(/^HTTP\/1\.0 408 /);
      expect(inTime.text()).toBe('ICY 200 OK\r\n\r\n');
      expect(inTime.closed).toBe(false);
    });

    it('closes a rover that was sent nothing for the idle time and logs why', async () => {
      const ports = standardPorts();
      const { caster, peer } = await start(ports, { roverIdleMs: 200, statusIntervalMs: 50 });
      const rover = await v1Rover(peer, 'AMS1');
      expect(rover.text()).toBe('ICY 200 OK\r\n\r\n');
      await rover.closedWith('idle close', 3000);
      await caster.close();
      expect(ports.sessions.map((s) => s.endReason)).toEqual(['idle']);
    });

    it('refuses an address after repeated failed logins, before checking the password', async () => {
      const { peer, ports } = await start(standardPorts(), { failedLoginsPerIp: 3 });
      for (let i = 0; i < 3; i++) {
        const p = await v1Rover(peer, 'AMS1', 'alice', 'wrong');
        expect(await p.closedWith('401')).toMatch(/^HTTP\/1\.0 401 /);
      }
      const calls = ports.authorizeCalls;
      const blocked = await v1Rover(peer, 'AMS1', 'alice', 'alice-pw');
      expect(await blocked.closedWith('429')).toMatch(/^HTTP\/1\.0 429 /);
      expect(ports.authorizeCalls).toBe(calls);
    });
  });

  describe('failed-login throttling behind a shared address (issue 25)', () => {
    const answer = async (port: number, version: 1 | 2, user: string, password: string, from = '127.0.0.1') => {
      const p = await Peer.connect(port, from);
      open.push(p);
      p.write(roverRequest('AMS1', version, [user, password]));
      await p.until((c) => c.text().includes('\r\n\r\n') || c.closed, 'rover answer');
      p.close();
      return p.text().split('\r\n')[0];
    };

    for (const version of [1, 2] as const) {
      const ok = version === 1 ? 'ICY 200 OK' : 'HTTP/1.1 200 OK';
      const status = (code: number) => `${version === 1 ? 'HTTP/1.0' : 'HTTP/1.1'} ${code}`;

      it(`NTRIP ${version}: 50 wrong passwords for one account slow only that account from that address`, async () => {
        const logger = new TestLogger();
        // A long first lock, so a slow machine cannot see it end within the 45 refused attempts.
        const { port } = await start(standardPorts(), { failedLoginBackoffMs: 30_000 }, logger);
        const answers: Array<string | undefined> = [];
        for (let i = 0; i < 50; i++) answers.push(await answer(port, version, 'alice', 'stale'));
        // Five wrong passwords are told so; then the pair is locked, for longer with each further failure.
        expect(answers.slice(0, 5).every((a) => a?.startsWith(status(401)))).toBe(true);
        expect(answers.slice(5).every((a) => a?.startsWith(status(429)))).toBe(true);
        expect(await answer(port, version, 'carol', 'carol-pw')).toBe(ok);
        expect(await answer(port, version, 'alice', 'alice-pw', '127.0.0.2')).toBe(ok);
        expect(await answer(port, version, 'alice', 'alice-pw')).toMatch(new RegExp(`^${status(429)}`));
        // One log line for the account, not one per refused attempt.
        expect(logger.lines.filter((l) => l.message === 'failed logins throttled')).toHaveLength(1);
      });
    }

    it('refuses an address past the ceiling after wrong passwords for 1,000 made-up names', async () => {
      const ports = standardPorts();
      const { port } = await start(ports);
      const answers: Array<string | undefined> = [];
      for (let batch = 0; batch < 1000; batch += 50) {
        const names = Array.from({ length: 50 }, (_, i) => `user${batch + i}`);
        answers.push(...(await Promise.all(names.map((name) => answer(port, 2, name, 'guess')))));
      }
      expect(answers.filter((a) => a?.startsWith('HTTP/1.1 401'))).toHaveLength(300);
      expect(answers.filter((a) => a?.startsWith('HTTP/1.1 429'))).toHaveLength(700);
      expect(ports.authorizeCalls).toBe(300);
      expect(await answer(port, 2, 'carol', 'carol-pw')).toMatch(/^HTTP\/1\.1 429/);
      expect(await answer(port, 2, 'carol', 'carol-pw', '127.0.0.2')).toBe('HTTP/1.1 200 OK');
    });

    it('lets 200 rovers of different accounts behind one address reconnect at once after a restart', async () => {
      const ports = standardPorts();
      for (let i = 0; i < 200; i++) {
        ports.accounts.push({
          username: `fleet${i}`,
          password: `pw${i}`,
          accountId: `acc-fleet${i}`,
          networks: ['nl'],
        });
      }
      const first = await start(ports);
      await first.caster.close();
      const { port } = await start(ports);
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) => answer(port, i % 2 === 0 ? 1 : 2, `fleet${i}`, `pw${i}`)),
      );
      expect(answers.filter((a) => a === 'ICY 200 OK' || a === 'HTTP/1.1 200 OK')).toHaveLength(200);
    }, 20_000);
  });

  describe('access of connected rovers', () => {
    it('closes a rover when its access ends and keeps one whose access was extended before its end', async () => {
      const ports = standardPorts();
      const clock = new ManualClock();
      const soon = new Date(clock.now() + 1200);
      const alice = ports.accounts.find((a) => a.username === 'alice');
      const carol = ports.accounts.find((a) => a.username === 'carol');
      if (!alice || !carol) throw new Error('standard accounts missing');
      alice.until = soon;
      carol.until = soon;
      const { caster, peer } = await start(ports, { sessionFlushMs: 50 }, undefined, undefined, clock);
      const ending = await v1Rover(peer, 'AMS1');
      const extended = await v1Rover(peer, 'AMS1', 'carol', 'carol-pw');
      carol.until = new Date(clock.now() + 3_600_000);
      // Access is looked at once a second: the first look after the end closes one rover and keeps the other.
      await clock.advance(2000);
      await ending.closedWith('the rover whose access ended to be closed', 5000);
      await clock.advance(3000);
      expect(caster.stats().rovers).toBe(1);
      expect(extended.closed).toBe(false);
      const source = await v1Source(peer, 'AMS1');
      const frame = encodeFrame(Buffer.from([0x3e, 0xd0, 9, 9]));
      source.write(frame);
      await extended.until((p) => p.body().equals(frame), 'the extended rover to keep receiving');
      await clock.advance(50);
      await expect
        .poll(() => ports.sessions.find((s) => s.accountId === 'acc-alice')?.endReason)
        .toBe('access_revoked');
    });

    it('re-checks every connected rover at the interval, and keeps them while the check fails', async () => {
      const ports = standardPorts();
      const logger = new TestLogger();
      const clock = new ManualClock();
      const { caster, peer } = await start(ports, { accessRecheckMs: 300 }, logger, undefined, clock);
      const rover = await v1Rover(peer, 'AMS1', 'carol', 'carol-pw');
      const access = ports.auth.access;
      ports.auth.access = async () => {
        throw new Error('database unavailable');
      };
      await clock.advance(1200);
      expect(caster.stats().rovers).toBe(1);
      expect(rover.closed).toBe(false);
      expect(logger.lines.some((l) => l.level === 'error' && /access check failed/.test(l.message))).toBe(true);

      ports.auth.access = access;
      const carol = ports.accounts.find((a) => a.username === 'carol');
      if (carol) carol.networks = ['de'];
      await clock.advance(300);
      await rover.closedWith('the rover whose network was taken away to be closed', 3000);
      expect(ports.accessCalls.at(-1)).toEqual(['acc-carol']);
    });
  });

  describe('relay writes', () => {
    /** Frames whose payload carries their number, so a reordered or repeated frame shows. */
    const numbered = (count: number) =>
      Array.from({ length: count }, (_, i) => {
        const payload = Buffer.alloc(1000, i % 251);
        payload.writeUInt32BE(i, 0);
        return encodeFrame(payload);
      });

    async function v2Rover(peer: () => Promise<Peer>, mountpoint: string, user: string, password: string) {
      const rover = await peer();
      rover.write(roverRequest(mountpoint, 2, [user, password]));
      await rover.until((p) => p.text().includes('\r\n\r\n'), 'v2 header');
      return rover;
    }

    it('writes frames to rovers through io_uring on Linux, where caster/native is built', async () => {
      const { caster } = await start();
      expect(caster.stats().directWrites).toEqual(
        process.platform === 'linux'
          ? { active: true, reason: null, threads: expect.any(Number) }
          : { active: false, reason: expect.any(String), threads: 1 },
      );
    });

    it('shares each frame between two threads and still gives every rover of both versions every byte in order', async () => {
      const ports = standardPorts();
      ports.accounts.push({
        username: 'fleet',
        password: 'fleet-pw',
        accountId: 'acc-fleet',
        networks: ['nl'],
        maxConnections: 400,
      });
      const { caster, peer } = await start(ports, {}, undefined, undefined, undefined, 2);
      if (process.platform === 'linux')
        expect(caster.stats().directWrites).toEqual({ active: true, reason: null, threads: 2 });
      // More rovers of each version than one thread's slice (64), so both threads send parts of every frame.
      const v1 = await Promise.all(Array.from({ length: 150 }, () => v1Rover(peer, 'AMS1', 'fleet', 'fleet-pw')));
      const v2 = await Promise.all(Array.from({ length: 150 }, () => v2Rover(peer, 'AMS1', 'fleet', 'fleet-pw')));
      const v2Heads = v2.map((r) => r.text().indexOf('\r\n\r\n') + 4);
      const source = await v1Source(peer, 'AMS1');
      const sent = numbered(300);
      const bytes = Buffer.concat(sent);
      for (let i = 0; i < sent.length; i += 10) {
        source.write(Buffer.concat(sent.slice(i, i + 10)));
        await new Promise((r) => setImmediate(r));
      }
      const chunkedLength = sent.reduce((n, f) => n + f.length + f.length.toString(16).length + 4, 0);
      for (const rover of v1) await rover.until((p) => p.body().length >= bytes.length, 'an NTRIP 1 rover to get all');
      for (const [i, rover] of v2.entries())
        await rover.until((p) => p.length - (v2Heads[i] as number) >= chunkedLength, 'an NTRIP 2 rover to get all');
      expect(v1.every((rover) => rover.body().equals(bytes))).toBe(true);
      expect(v2.every((rover) => Buffer.concat(dechunk(rover.body())).equals(bytes))).toBe(true);
    });

    it('keeps every byte in order for rovers that stop reading and resume, while the others keep receiving', async () => {
      const { peer } = await start(standardPorts(), { roverBacklogBytes: 256 * 1024 * 1024 });
      const reader = await v1Rover(peer, 'AMS1');
      const pausedV1 = await v1Rover(peer, 'AMS1', 'carol', 'carol-pw');
      const pausedV2 = await v2Rover(peer, 'AMS1', 'carol', 'carol-pw');
      pausedV1.socket.pause();
      pausedV2.socket.pause();
      const source = await v1Source(peer, 'AMS1');
      // 16 MB is more than loopback's socket buffers hold, so the paused rovers' sends first fill the kernel
      // (partial writes, then EAGAIN), then queue in Node, and go direct again once that queue drains.
      const sent = numbered(16_000);
      const bytes = Buffer.concat(sent);
      const readerStart = reader.length;
      for (let i = 0; i < sent.length; i += 100) {
        source.write(Buffer.concat(sent.slice(i, i + 100)));
        await new Promise((r) => setImmediate(r));
      }
      await reader.until((p) => p.length - readerStart >= bytes.length, 'the reading rover to get everything', 20_000);
      expect(reader.received.subarray(readerStart).equals(bytes)).toBe(true);

      pausedV1.socket.resume();
      pausedV2.socket.resume();
      // Bytes are counted with `length` while they arrive: joining megabytes on every read would take seconds.
      const v1Head = pausedV1.text().length;
      const v2Head = pausedV2.text().indexOf('\r\n\r\n') + 4;
      await pausedV1.until((p) => p.length - v1Head >= bytes.length, 'the NTRIP 1 rover to catch up', 20_000);
      expect(pausedV1.body().equals(bytes)).toBe(true);
      const chunkedLength = sent.reduce((n, f) => n + f.length + f.length.toString(16).length + 4, 0);
      await pausedV2.until((p) => p.length - v2Head >= chunkedLength, 'the NTRIP 2 rover to catch up', 20_000);
      const chunks = dechunk(pausedV2.body());
      expect(chunks.length).toBe(sent.length);
      expect(chunks.every((chunk, i) => chunk.equals(sent[i] as Buffer))).toBe(true);
    });

    it('writes through Node alone when directWrites is off, with the same bytes', async () => {
      const { caster, peer } = await start(standardPorts(), {}, undefined, false);
      expect(caster.stats().directWrites).toEqual({
        active: false,
        reason: expect.stringMatching(/turned off/),
        threads: 1,
      });
      const v1 = await v1Rover(peer, 'AMS1');
      const v2 = await v2Rover(peer, 'AMS1', 'carol', 'carol-pw');
      const source = await v1Source(peer, 'AMS1');
      await writeInPieces(source, capture);
      await v1.until((p) => p.body().length >= framesBytes.length, 'all frames');
      expect(v1.body().equals(framesBytes)).toBe(true);
      await v2.until((p) => dechunk(p.body()).length >= frames.length, 'all chunks');
      expect(dechunk(v2.body())).toEqual(frames);
    });
  });

  describe('connection log and station status', () => {
    it('records each rover session with bytes, end reason and last position, in batches', async () => {
      const ports = standardPorts();
      const { caster, peer } = await start(ports, { sessionFlushMs: 60_000, sessionBatchSize: 1000 });
      const source = await v1Source(peer, 'AMS1');
      const rovers = await Promise.all([0, 1].map(() => v1Rover(peer, 'AMS1', 'carol', 'carol-pw')));
      rovers[0]?.write(formatGga({ latitude: 52.1, longitude: 4.8 }));
      source.write(framesBytes);
      for (const r of rovers) await r.until((p) => p.body().length >= framesBytes.length, 'frames');
      for (const r of rovers) {
        r.close();
        await r.closedWith('closed');
      }
      await until(() => caster.stats().rovers === 0, 'the caster to end both sessions');
      expect(ports.sessions).toHaveLength(0);
      await caster.close();
      expect(ports.sessionBatches).toBe(1);
      expect(ports.sessions).toHaveLength(2);
      for (const s of ports.sessions) {
        expect(s).toMatchObject({
          accountId: 'acc-carol',
          mountpoint: 'AMS1',
          remoteAddress: '127.0.0.1',
          bytesSent: framesBytes.length,
        });
        expect(s.endReason).toBe('client_closed');
      }
      expect(ports.sessions.some((s) => s.lastGga && Math.abs(s.lastGga.latitude - 52.1) < 1e-6)).toBe(true);
      expect(ports.statuses.filter((s) => s.mountpoint === 'AMS1').map((s) => s.online)).toEqual([true, false]);
    });

    it('reports each fed station online with its bitrate and last data time, at the status interval', async () => {
      const ports = standardPorts();
      const clock = new ManualClock();
      const { peer } = await start(ports, { statusIntervalMs: 100 }, undefined, undefined, clock);
      const source = await v1Source(peer, 'UTR1');
      source.write(encodeFrame(Buffer.alloc(100, 3)));
      await until(() => ports.statuses.some((s) => s.mountpoint === 'UTR1' && s.online), 'UTR1 online from its frame');
      await clock.advance(100);
      const periodic = ports.statuses.filter((s) => s.mountpoint === 'UTR1' && s.online && s.bitrate > 0);
      expect(periodic.length).toBeGreaterThan(0);
      expect(periodic.every((s) => s.lastDataAt instanceof Date)).toBe(true);
      expect(ports.statuses.some((s) => s.mountpoint !== 'UTR1')).toBe(false);
    });
  });
});
