import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID, X509Certificate } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { encodeFrame } from '@portal/caster';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../caster/test/support/wait.ts';
import { createAccountWithGrant, setPushFeed } from '../src/cli/operator-actions.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { freePort } from '../src/dev/free-port.ts';
import { createUsersRepo } from '../src/modules/users/users.repo.ts';
import { startCasterProcess } from './support/caster-process.ts';

/**
 * Issue 38: a renewed certificate taken by a running caster on SIGHUP, the server started as the caster node's
 * systemd unit starts it (`node --import tsx`, the caster's Node flags, SERVICES=caster; its ExecReload sends
 * SIGHUP) on a PGlite directory of its own. Rovers connected
 * before keep receiving; new connections get the new certificate. The files are polled too (every 5 s); the test
 * asks for the answer to SIGHUP, which only the signal prints.
 */
const run = process.env.TEST_DATABASE === 'postgres' ? describe.skip : describe;
const DAY = 86_400_000;

async function certificate() {
  const made = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    notBeforeDate: new Date(Date.now() - DAY),
    notAfterDate: new Date(Date.now() + 30 * DAY),
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] }],
  });
  return { cert: made.cert, key: made.private, fingerprint: new X509Certificate(made.cert).fingerprint256 };
}

/** A connection that keeps what it receives. */
function keep(socket: net.Socket) {
  const received = { bytes: Buffer.alloc(0), closed: false };
  socket.on('data', (d: Buffer) => {
    received.bytes = Buffer.concat([received.bytes, d]);
  });
  socket.on('close', () => {
    received.closed = true;
  });
  socket.on('error', () => {});
  return received;
}

run('the caster process reloads its TLS certificate on SIGHUP (issue 38)', () => {
  let dir: string;
  let caster: ChildProcess;
  let output: () => string;
  let casterPort: number;
  let tlsPort: number;
  let first: Awaited<ReturnType<typeof certificate>>;
  const certFile = () => join(dir, 'cert.pem');
  const keyFile = () => join(dir, 'key.pem');
  const sockets: net.Socket[] = [];

  const connectTls = (ca: string) =>
    new Promise<tls.TLSSocket>((resolve, reject) => {
      const socket = tls.connect({ host: '127.0.0.1', port: tlsPort, servername: 'localhost', ca }, () =>
        resolve(socket),
      );
      socket.once('error', reject);
      sockets.push(socket);
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'caster-tls-reload-'));
    const feedKey = randomBytes(32).toString('base64');
    const pglite = join(dir, 'db');
    const handle = await openDatabase({ pgliteDataDir: pglite });
    await migrate(handle.db);
    await createUsersRepo(handle.db).upsertFromIdentity({ uid: randomUUID(), email: 'rover@example.test' });
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
        country: 'NLD',
        latitude: 52.37,
        longitude: 4.9,
        updated_at: new Date(),
      })
      .execute();
    await createAccountWithGrant(handle.db, {
      email: 'rover@example.test',
      username: 'rover-one',
      password: 'rover-password',
      network: 'nl-rtk',
      days: 30,
    });
    await setPushFeed(handle.db, { mountpoint: 'AMS1', password: 'source-password' }, feedKey);
    await handle.close();

    first = await certificate();
    writeFileSync(certFile(), first.cert);
    writeFileSync(keyFile(), first.key);
    [casterPort, tlsPort] = [await freePort(), await freePort()];
    ({ child: caster, output } = startCasterProcess('systemd', {
      HOST: '127.0.0.1',
      FIREBASE_PROJECT_ID: 'demo-gnss-portal',
      PGLITE_DATA_DIR: pglite,
      FEED_SECRET_KEY: feedKey,
      CASTER_PORT: String(casterPort),
      CASTER_TLS_PORTS: String(tlsPort),
      CASTER_TLS_CERT: certFile(),
      CASTER_TLS_KEY: keyFile(),
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
    }));
    await until(
      () => output().includes(`NTRIP over TLS on port ${tlsPort}`) || caster.exitCode !== null,
      () => `the caster to start: ${output()}`,
      120_000,
    );
    expect(caster.exitCode, output()).toBeNull();
  }, 180_000);

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    if (caster && caster.exitCode === null) {
      const exited = new Promise((resolve) => caster.once('exit', resolve));
      caster.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the rover connected before receiving and gives new connections the renewed certificate', async () => {
    const source = net.connect(casterPort, '127.0.0.1');
    sockets.push(source);
    const sourceAnswer = keep(source);
    source.write('SOURCE source-password /AMS1\r\nSource-Agent: NTRIP reload-test\r\n\r\n');
    await until(
      () => sourceAnswer.bytes.toString() === 'ICY 200 OK\r\n\r\n',
      () => `the source login (${sourceAnswer.bytes})`,
      10_000,
    );
    const frame = (n: number) => encodeFrame(Buffer.from([0x3e, 0xd0, n, 2, 3, 4]));
    // The station is online once a frame came in; the rover is served from then on.
    source.write(frame(0));
    await new Promise((r) => setTimeout(r, 200));

    const before = await connectTls(first.cert);
    expect(before.getPeerCertificate().fingerprint256).toBe(first.fingerprint);
    const rover = keep(before);
    before.write(
      `GET /AMS1 HTTP/1.0\r\nUser-Agent: NTRIP reload-test\r\nAuthorization: Basic ${Buffer.from('rover-one:rover-password').toString('base64')}\r\n\r\n`,
    );
    await until(
      () => rover.bytes.toString('latin1').startsWith('ICY 200 OK\r\n\r\n'),
      () => `the rover login over TLS (${rover.bytes.toString('latin1')}; caster: ${output()})`,
      10_000,
    );
    const sent = [frame(1), frame(2)];
    source.write(sent[0] as Buffer);
    const after = () => rover.bytes.subarray(rover.bytes.indexOf('\r\n\r\n') + 4);
    await until(
      () => after().includes(sent[0] as Buffer),
      () => 'the first frame',
      10_000,
    );

    // As a renewal hook does: the new pair written beside and renamed over the old files, then SIGHUP.
    const renewed = await certificate();
    writeFileSync(`${keyFile()}.new`, renewed.key);
    writeFileSync(`${certFile()}.new`, renewed.cert);
    renameSync(`${keyFile()}.new`, keyFile());
    renameSync(`${certFile()}.new`, certFile());
    caster.kill('SIGHUP');
    await until(
      () => output().includes('SIGHUP: TLS certificate reloaded'),
      () => `the answer to SIGHUP: ${output()}`,
      10_000,
    );
    const fresh = await connectTls(renewed.cert);
    expect(fresh.getPeerCertificate().fingerprint256).toBe(renewed.fingerprint);
    fresh.destroy();

    source.write(sent[1] as Buffer);
    await until(
      () => after().subarray(-Buffer.concat(sent).length).equals(Buffer.concat(sent)),
      () => `both frames at the rover connected before (${after().length} bytes)`,
      10_000,
    );
    expect(rover.closed).toBe(false);
    expect(caster.exitCode).toBeNull();
  }, 60_000);
});
