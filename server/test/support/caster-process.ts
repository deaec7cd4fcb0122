import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CASTER_NODE_FLAGS } from '@portal/caster';

const root = new URL('../../..', import.meta.url).pathname;
const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');

const launches = {
  /** `npm run -w server start`'s command. */
  'npm start': { args: [tsxCli, ...CASTER_NODE_FLAGS, join(root, 'server/src/main.ts')], cwd: join(root, 'server') },
  /** As deploy/systemd/gnss-portal-caster@.service starts it: one Node process, so a signal reaches the server. */
  systemd: { args: ['--import', 'tsx', ...CASTER_NODE_FLAGS, 'server/src/main.ts'], cwd: root },
};

export interface CasterProcess {
  child: ChildProcess;
  /** Its stdout and stderr so far. */
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * The server as a caster node (SERVICES=caster) in a child process, with only the settings given here: none of the
 * caster, database, Firebase or listening settings of the developer's shell.
 */
export function startCasterProcess(launch: keyof typeof launches, env: Record<string, string>): CasterProcess {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^(CASTER_|DATABASE_URL$|PGLITE_|FIREBASE_|SERVICES$|SEED_DEMO$|PORT$|HOST$)/.test(key),
    ),
  );
  const { args, cwd } = launches[launch];
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...inherited, SERVICES: 'caster', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}
