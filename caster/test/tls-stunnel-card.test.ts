import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConnectionSettings,
  LOCAL_CERTIFICATE_FILE,
  STUNNEL_CA_FILE,
  STUNNEL_COMMAND,
  STUNNEL_CONFIG_FILE,
  STUNNEL_LOCAL_CA_LINE,
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
 * The card's CAfile line for the portal `npm start` runs (its self-signed certificate) is run too, from a folder
 * laid out as the portal's.
 */
const capture = fixture('oem729_hiroshima_20221213_msm7_alleph.rtcm3').subarray(0, 30_000);
const framesBytes = Buffer.concat(validFrames(capture));

let dir: string;
let caster: Caster;
let certFile: string;
let settings: ConnectionSettings;
const children: ChildProcess[] = [];
const logs = new Map<ChildProcess, string>();
let source: Peer;

function run(command: string, args: string[], cwd: string) {
  const child = spawn(command, args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  logs.set(child, '');
  const keep = (d: Buffer) => logs.set(child, (logs.get(child) ?? '') + d.toString());
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  children.push(child);
  return child;
}

/** Ends what a test started (each one a group of its own) and waits, so the next stunnel finds its port free. */
async function stopChildren() {
  await Promise.all(
    children.splice(0).map(async (child) => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await exited;
    }),
  );
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tls-stunnel-card-'));
  const files = await writeCertificate(dir, await localhostCertificate());
  certFile = files.certFile;
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
  settings = {
    host: 'localhost',
    port,
    tlsPort,
    username: 'alice',
    password: 'alice-pw',
    mountpoint: 'AMS1',
    near: false,
  };
});

afterEach(stopChildren);

afterAll(async () => {
  await stopChildren();
  source?.close();
  await caster?.close();
  await rm(dir, { recursive: true, force: true });
});

/** With stunnel started (`stunnel` its process), the card's str2str line run in `cwd` receives RTCM3. */
async function receivesThroughStunnel(stunnel: ChildProcess, cwd: string) {
  // str2str started before stunnel listens would wait its 10 s reconnect interval.
  await until(
    () => logs.get(stunnel)?.includes('Configuration successful'),
    () => `stunnel: ${logs.get(stunnel)}`,
  );
  const str2str = str2strViaStunnelCommand(settings);
  if (!str2str) throw new Error('no str2str line for a fixed mountpoint');
  run('sh', ['-c', str2str], cwd);
  const output = join(cwd, 'corrections.rtcm3');
  const received = () => (existsSync(output) ? validFrames(readFileSync(output)) : []);
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
}

describe("the connection card's stunnel + str2str lines", () => {
  it('receive RTCM3 over the TLS port, the certificate checked against the system bundle', async () => {
    const cwd = await mkdtemp(join(dir, 'rover-'));
    await writeFile(join(cwd, STUNNEL_CONFIG_FILE), stunnelConfig(settings));
    const bundle = join(dir, 'ca.pem');
    await writeFile(bundle, readFileSync(certFile));
    const stunnel = run(
      'unshare',
      ['-m', 'sh', '-c', `mount --bind ${bundle} ${STUNNEL_CA_FILE} && exec ${STUNNEL_COMMAND}`],
      cwd,
    );
    await receivesThroughStunnel(stunnel, cwd);
  }, 30_000);

  it('receive RTCM3 from the portal of npm start with the CAfile line the card gives for it', async () => {
    // The portal's folder, its self-signed certificate where `npm start` keeps it; stunnel runs from there.
    const portal = await mkdtemp(join(dir, 'portal-'));
    await mkdir(join(portal, dirname(LOCAL_CERTIFICATE_FILE)), { recursive: true });
    await writeFile(join(portal, LOCAL_CERTIFICATE_FILE), readFileSync(certFile));
    const printed = stunnelConfig(settings);
    expect(printed).toContain(`CAfile = ${STUNNEL_CA_FILE}\n`);
    await writeFile(
      join(portal, STUNNEL_CONFIG_FILE),
      printed.replace(`CAfile = ${STUNNEL_CA_FILE}`, STUNNEL_LOCAL_CA_LINE),
    );
    const [command, ...args] = STUNNEL_COMMAND.split(' ') as [string, ...string[]];
    await receivesThroughStunnel(run(command, args, portal), portal);
  }, 30_000);
});
