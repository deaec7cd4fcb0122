import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Frame, validFrames } from '@portal/caster';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { until } from '../../caster/test/support/wait.ts';

/**
 * The README's "Stream corrections on your machine" commands, exactly as printed, against a running portal: the
 * account command, the paced base station and the two str2str rovers (fixed and nearest-station mountpoint).
 *
 * They name the caster as 127.0.0.1:2101, the port `npm start` uses, which another portal on this machine may hold.
 * So the base station and the rovers run in a network namespace of their own (`unshare -n`, as root), where a bridge
 * on 127.0.0.1:2101 forwards each connection through a unix socket to the test portal's caster on a free port.
 * `npm start` itself is not run: it builds the SPA into the shared dist/ and starts its own Auth Emulator; the test
 * starts the same server the way operator-cli.test.ts does (SEED_DEMO, the suite's emulator, a temporary PGlite).
 */

const root = new URL('../..', import.meta.url).pathname;
const run = process.env.TEST_DATABASE === 'postgres' ? describe.skip : describe;

/** The fenced sh block of the README's "Stream corrections on your machine" section, one command a line. */
function readmeCommands(): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Stream corrections on your machine'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const frameCount = (file: string) => (existsSync(file) ? validFrames(readFileSync(file)).length : 0);

run('the README’s base station and rovers (issue 17)', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let portal: ChildProcess;
  let namespace: ChildProcess;
  let bridge: net.Server;
  const children: ChildProcess[] = [];
  const logs: Record<string, string> = {};
  const commands = readmeCommands();

  /** A README line run in the namespace, from `cwd`. */
  const inNamespace = (name: string, command: string, cwd: string) => {
    logs[name] = '';
    const child = spawn('nsenter', [`--net=/proc/${namespace.pid}/ns/net`, '--', 'sh', '-c', command], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const keep = (d: Buffer) => {
      logs[name] += d.toString();
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    children.push(child);
    return child;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'readme-base-rover-'));
    const { DATABASE_URL: _, ...rest } = process.env;
    const casterPort = await freePort();
    env = {
      ...rest,
      PGLITE_DATA_DIR: join(dir, 'db'),
      PORT: String(await freePort()),
      CASTER_PORT: String(casterPort),
      HOST: '127.0.0.1',
      SERVICES: 'api,caster',
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      FIREBASE_PROJECT_ID: 'demo-gnss-portal',
      FIREBASE_AUTH_EMULATOR_HOST: inject('authEmulatorHost'),
    };
    portal = spawn('npm', ['run', '-w', 'server', 'start'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const keep = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('GNSS portal ready')) resolve();
      };
      portal.stdout?.on('data', keep);
      portal.stderr?.on('data', keep);
      portal.on('exit', () => reject(new Error(`portal exited:\n${output}`)));
    });

    // The namespace holds only a loopback device; its 127.0.0.1:2101 leads to the portal's caster.
    namespace = spawn('unshare', ['-n', '--', 'sh', '-c', 'ip link set lo up && exec sleep 3600'], { stdio: 'ignore' });
    const socket = join(dir, 'caster.sock');
    bridge = net
      .createServer((inner) => {
        const outer = net.connect(casterPort, '127.0.0.1');
        inner.pipe(outer).pipe(inner);
        inner.on('error', () => outer.destroy());
        outer.on('error', () => inner.destroy());
      })
      .listen(socket);
    const forward = `require('net').createServer((c) => { const u = require('net').connect(${JSON.stringify(socket)}); c.pipe(u).pipe(c); c.on('error', () => u.destroy()); u.on('error', () => c.destroy()); }).listen(2101, '127.0.0.1', () => console.log('bridge ready'))`;
    await new Promise((r) => setTimeout(r, 200));
    const ready = inNamespace('bridge', `exec node -e ${JSON.stringify(forward)}`, dir);
    await until(
      () => logs.bridge?.includes('bridge ready') ?? false,
      () => `the namespace's bridge (${logs.bridge}; exited ${ready.exitCode})`,
      30_000,
      250,
    );
  }, 240_000);

  afterAll(async () => {
    // Each was started as the leader of its own group (npm and sh start children of their own); a group already
    // gone is fine.
    const killGroup = (child: ChildProcess | undefined) => {
      if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // ended meanwhile
      }
    };
    for (const child of children) killGroup(child);
    namespace?.kill('SIGKILL');
    bridge?.close();
    killGroup(portal);
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the account, base station and rover commands in one block', () => {
    expect(commands[0]).toBe('npm start');
    expect(commands.filter((c) => c.startsWith('npm run caster -- account '))).toHaveLength(1);
    expect(commands.filter((c) => c.startsWith('npm run base -- '))).toHaveLength(1);
    expect(commands.filter((c) => c.startsWith('str2str '))).toHaveLength(2);
  });

  it('streams RTCM 3 from the paced capture to a rover on the station and one on the nearest-station mountpoint', async () => {
    const account = commands.find((c) => c.startsWith('npm run caster -- account ')) as string;
    const created = spawnSync('sh', ['-c', account], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
    expect(created.status, created.stderr).toBe(0);

    const base = commands.find((c) => c.startsWith('npm run base -- ')) as string;
    inNamespace('base', base, root);
    await until(
      () => logs.base?.includes('as its base station') ?? false,
      () => `the base station to connect (${logs.base})`,
      60_000,
      250,
    );
    const [fixed, near] = commands.filter((c) => c.startsWith('str2str ')) as [string, string];
    const output = (command: string) => join(dir, /file:\/\/(\S+)/.exec(command)?.[1] ?? 'missing');
    // One after the other, as the README says: a new account serves one rover at a time.
    for (const [name, command] of [
      ['fixed rover', fixed],
      ['nearest-station rover', near],
    ] as const) {
      const rover = inNamespace(name, command, dir);
      const out = output(command);
      // Paced at one epoch a second: a few seconds bring several epochs of MSM observations.
      await until(
        () => frameCount(out) >= 20,
        () => `RTCM 3 at the ${name} (${frameCount(out)} frames; ${JSON.stringify(logs)})`,
        60_000,
        250,
      );
      const types = new Set(validFrames(readFileSync(out)).map((f) => new Frame(f).messageType));
      expect([...types].some((t) => t >= 1071 && t <= 1137)).toBe(true);
      process.kill(-(rover.pid as number), 'SIGTERM');
      await new Promise((r) => rover.once('exit', r));
    }
  }, 240_000);
});
