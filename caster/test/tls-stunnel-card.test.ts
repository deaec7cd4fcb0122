import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConnectionSettings,
  STUNNEL_CA_FILE,
  STUNNEL_COMMAND,
  STUNNEL_CONFIG_FILE,
  str2strViaStunnelCommand,
  stunnelConfig,
} from '../../src/features/accounts/client-presets.ts';
import { type Caster, createCaster, validFrames } from '../src/index.ts';
import { localhostCertificate, writeCertificate } from './support/certificates.ts';
import { fixture, Peer } from './support/client.ts';
import { FakePorts } from './support/fakes.ts';
import { until } from './support/wait.ts';

/**
 * Issue 38: the connection card's "NTRIP over TLS" lines for a client without TLS (stunnel in client mode, then
 * str2str through it), run as the card prints them against a caster serving NTRIP over TLS, receive RTCM3. The
 * caster's certificate here is the test's own, not from a public authority: stunnel runs in a mount namespace where
 * the system CA bundle the card names is that certificate, so the verification the card asks for is done for real.
 */
const capture = fixture('oem729_hiroshima_20221213_msm7_alleph.rtcm3').subarray(0, 30_000);
const framesBytes = Buffer.concat(validFrames(capture));

let dir: string;
let caster: Caster;
const children: ChildProcess[] = [];
const logs = new Map<ChildProcess, string>();
let source: Peer;

function run(command: string, args: string[]) {
  const child = spawn(command, args, { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  logs.set(child, '');
  const keep = (d: Buffer) => logs.set(child, (logs.get(child) ?? '') + d.toString());
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  children.push(child);
  return child;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tls-stunnel-card-'));
  const files = await writeCertificate(dir, await localhostCertificate());
  const ports = new FakePorts();
  ports.addNetwork('nl').addStation('AMS1', 'nl', 52.37, 4.9);
  ports.accounts.push({
    username: 'alice',
    password: 'alice-pw',
    accountId: 'acc-alice',
    networks: ['nl'],
    maxConnections: 10,
  });
  caster = await createCaster({ ports, tls: files });
  const { port: tlsPort } = await caster.listenTls(0, '127.0.0.1');
  const { port } = await caster.listen(0, '127.0.0.1');
  source = await Peer.connect(port);
  source.write('SOURCE src-secret /AMS1\r\nSource-Agent: NTRIP test-source\r\n\r\n');
  await source.until((p) => p.text() === 'ICY 200 OK\r\n\r\n', 'source answer');

  const settings: ConnectionSettings = {
    host: 'localhost',
    port,
    tlsPort,
    username: 'alice',
    password: 'alice-pw',
    mountpoint: 'AMS1',
    near: false,
  };
  await writeFile(join(dir, STUNNEL_CONFIG_FILE), stunnelConfig(settings));
  const bundle = join(dir, 'ca.pem');
  await writeFile(bundle, readFileSync(files.certFile));
  const stunnel = run('unshare', [
    '-m',
    'sh',
    '-c',
    `mount --bind ${bundle} ${STUNNEL_CA_FILE} && exec ${STUNNEL_COMMAND}`,
  ]);
  // str2str started before stunnel listens would wait its 10 s reconnect interval.
  await until(
    () => logs.get(stunnel)?.includes('Configuration successful'),
    () => `stunnel: ${logs.get(stunnel)}`,
  );
  const str2str = str2strViaStunnelCommand(settings);
  if (!str2str) throw new Error('no str2str line for a fixed mountpoint');
  run('sh', ['-c', str2str]);
});

afterAll(async () => {
  for (const child of children) {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
  }
  source?.close();
  await caster?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("the connection card's stunnel + str2str lines", () => {
  it('receive RTCM3 over the TLS port', async () => {
    const output = () => join(dir, 'corrections.rtcm3');
    const received = () => (existsSync(output()) ? validFrames(readFileSync(output())) : []);
    let sent = 0;
    await until(
      () => {
        // The base keeps sending, as a live one does, until str2str's file holds whole frames.
        source.write(capture.subarray(sent % capture.length, (sent % capture.length) + 2000));
        sent += 2000;
        return received().length >= 5;
      },
      () => `RTCM3 through stunnel (logs: ${[...logs.values()].join('\n---\n')})`,
      20_000,
    );
    for (const frame of received()) expect(framesBytes.includes(frame)).toBe(true);
  }, 30_000);
});
