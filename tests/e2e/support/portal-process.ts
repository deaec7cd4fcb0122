import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { inject } from 'vitest';
import { root } from '../../../scripts/launch.ts';
import { freePort } from '../../../server/src/dev/free-port.ts';

export interface PortalProcess {
  child: ChildProcess;
  baseURL: string;
  /** Its stdout and stderr so far. */
  output: () => string;
  /** Stops the whole process group and waits until none of it is left (an orphan keeps its port and its store). */
  stop: () => Promise<void>;
}

/**
 * A portal of a test's own (the API serving the built SPA, on a free port) once it answers /api/meta, configured by
 * `env` beside what every such portal gets; `prefix` runs it under another command (faketime). It runs in a process
 * group of its own, as a wrapper need not pass a signal on to the server below it.
 */
export async function startPortal(env: Record<string, string>, prefix: string[] = []): Promise<PortalProcess> {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const [command, ...args] = [
    ...prefix,
    process.execPath,
    join(root, 'node_modules/tsx/dist/cli.mjs'),
    'server/src/main.ts',
  ];
  const child = spawn(command as string, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? root,
      NODE_ENV: 'test',
      SERVICES: 'api',
      HOST: '127.0.0.1',
      PORT: String(port),
      STATIC_DIR: inject('spaDir'),
      FIREBASE_AUTH_EMULATOR_HOST: inject('authEmulatorHost'),
      PUBLIC_URL: baseURL,
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const group = -(child.pid as number);
  const alive = () => {
    try {
      process.kill(group, 0);
      return true;
    } catch {
      return false;
    }
  };
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(group, 'SIGTERM');
      await exited;
    }
    for (let i = 0; i < 60 && alive(); i++) await new Promise((r) => setTimeout(r, 250));
    if (alive()) throw new Error(`the portal's process group outlived SIGTERM:\n${output}`);
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the portal exited:\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the portal did not start:\n${output}`);
    }
    const up = await fetch(`${baseURL}/api/meta`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return { child, baseURL, output: () => output, stop };
}
