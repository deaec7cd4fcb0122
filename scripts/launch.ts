import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CASTER_NODE_FLAGS } from '../caster/src/node-flags.ts';
import { startAuthEmulator } from '../server/src/dev/auth-emulator.ts';
import { onParentGone, STOP_WITH_PARENT } from '../server/src/dev/stop-with-parent.ts';

export const root = new URL('..', import.meta.url).pathname;

/** Relative paths in variables mean the folder npm was started in (INIT_CWD), as in the server's config. */
export function pathFromEnv(value: string): string {
  return isAbsolute(value) ? value : resolve(process.env.INIT_CWD ?? process.cwd(), value);
}

function newestMtime(path: string): number {
  const full = join(root, path);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(full).reduce((max, name) => Math.max(max, newestMtime(join(path, name))), stat.mtimeMs);
}

/** Builds the SPA unless dist/ already holds a build of the same sources and the same build-time variables. */
export async function buildSpaIfStale(env: Record<string, string>, outDir = 'dist'): Promise<void> {
  const stampFile = resolve(root, outDir, '.build-stamp.json');
  const stamp = JSON.stringify(env);
  const sourcesChanged = ['src', 'public', 'contract/src', 'index.html', 'vite.config.ts', 'package-lock.json'].map(
    newestMtime,
  );
  const built = existsSync(stampFile) ? statSync(stampFile).mtimeMs : 0;
  if (built > Math.max(...sourcesChanged) && readFileSync(stampFile, 'utf8') === stamp) return;
  console.log('Building the SPA…');
  await run(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', outDir], env);
  writeFileSync(stampFile, stamp);
}

export function run(cmd: string, args: string[], env: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}`))));
  });
}

/**
 * Node started by the launcher ends itself when the launcher is gone (kill -9 included), so no orphan keeps a port
 * or the PGlite directory from the next start (stop-with-parent.ts).
 */
export function spawnNode(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['--import', STOP_WITH_PARENT, ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
}

/**
 * The server runs as one process under tsx's loader, not under tsx's command, which would put a second process
 * between the launcher and the server. The caster runs in it, so it gets the caster's Node options.
 */
export function startServer(env: Record<string, string>): ChildProcess {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return spawnNode(['--import', tsx, ...CASTER_NODE_FLAGS, join(root, 'server/src/main.ts')], env);
}

function ended(child: ChildProcess): Promise<string> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(describe(child));
  return new Promise((done) => child.once('exit', () => done(describe(child))));
}

function describe(child: ChildProcess): string {
  return child.signalCode ? `signal ${child.signalCode}` : `exit code ${child.exitCode}`;
}

/**
 * Starts the Auth Emulator (accounts saved after every change in AUTH_EMULATOR_DATA_DIR, ./data/auth by default)
 * and the processes `start` returns. When any of them ends, or this launcher is signalled or loses its own parent,
 * the others are stopped and waited for, so a new start finds the ports and the PGlite directory free.
 */
export async function withEmulator(start: (emulatorHost: string) => ChildProcess[]): Promise<void> {
  const port = Number(process.env.AUTH_EMULATOR_PORT ?? 9099);
  const persistDir = pathFromEnv(process.env.AUTH_EMULATOR_DATA_DIR ?? './data/auth');
  console.log(`Starting the Firebase Auth Emulator on 127.0.0.1:${port}…`);
  const emulator = await startAuthEmulator({ port, persistDir });
  const children = start(emulator.host);
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const killer = setTimeout(() => {
      for (const child of children) child.kill('SIGKILL');
    }, 30_000);
    await Promise.all(children.map(ended));
    clearTimeout(killer);
    await emulator.stop();
    process.exit(code);
  };
  for (const child of children) {
    void ended(child).then((how) => {
      if (stopping) return;
      if (how !== 'exit code 0') console.error(`A process of the portal ended (${how}); stopping the others.`);
      void stop(how === 'exit code 0' ? 0 : 1);
    });
  }
  void emulator.exited.then((how) => {
    if (stopping) return;
    console.error(`The Auth Emulator ended (${how}); stopping the portal.`);
    void stop(1);
  });
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGHUP', () => void stop(0));
  onParentGone(() => void stop(1));
}
