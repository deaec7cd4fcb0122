import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CASTER_NODE_FLAGS } from '../caster/src/node-flags.ts';
import { startAuthEmulator } from '../server/src/dev/auth-emulator.ts';

export const root = new URL('..', import.meta.url).pathname;

function newestMtime(path: string): number {
  const full = join(root, path);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(full).reduce((max, name) => Math.max(max, newestMtime(join(path, name))), stat.mtimeMs);
}

/** Builds the SPA unless dist/ already holds a build of the same sources and the same build-time variables. */
export async function buildSpaIfStale(env: Record<string, string>, outDir = 'dist'): Promise<void> {
  const stampFile = join(root, outDir, '.build-stamp.json');
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

/** The caster runs in this process, so it gets the caster's Node options. */
export function startServer(env: Record<string, string>): ChildProcess {
  const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');
  return spawn(process.execPath, [tsx, ...CASTER_NODE_FLAGS, join(root, 'server/src/main.ts')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
}

/** Starts the Auth Emulator (accounts kept under data/auth) and stops it, exporting, when the server exits. */
export async function withEmulator(start: (emulatorHost: string) => ChildProcess[]): Promise<void> {
  const port = Number(process.env.AUTH_EMULATOR_PORT ?? 9099);
  console.log(`Starting the Firebase Auth Emulator on 127.0.0.1:${port}…`);
  const emulator = await startAuthEmulator({ port, persistDir: join(root, 'data/auth') });
  const children = start(emulator.host);
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const child of children) child.kill('SIGTERM');
    await emulator.stop();
    process.exit(code);
  };
  for (const child of children) child.on('exit', (code) => void stop(code ?? 0));
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
}
