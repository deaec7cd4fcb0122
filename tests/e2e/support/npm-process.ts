import { type ChildProcess, spawn } from 'node:child_process';
import { root } from '../../../scripts/launch.ts';

/** What a developer's shell or .env may carry that would point a started portal elsewhere or change its mode. */
const CONFIG_VARIABLES =
  /^(VITE_|NODE_ENV$|HOST$|PORT$|SERVICES$|DATABASE_URL$|PGLITE_|STATIC_DIR$|PUBLIC_URL$|FIREBASE_|GOOGLE_APPLICATION_CREDENTIALS$|SEED_DEMO$|LOG_LEVEL$|RATE_LIMIT_|TRUST_PROXY$|PAYMENT_PROVIDER$|STRIPE_|CASTER_|FEED_SECRET_KEY$|AUTH_EMULATOR_|SMTP_URL$|MAIL_FROM$)/;

export interface NpmProcess {
  child: ChildProcess;
  output: () => string;
  /** npm's exit code; null when npm itself ended by the signal sent to the whole group. */
  exited: Promise<number | null>;
}

/**
 * Runs an npm command from the repository root as an operator would, with only `env` as its configuration, in a
 * process group of its own as in a terminal: the group is what Ctrl-C signals, and what must be empty after a stop.
 */
export function spawnNpm(args: string[], env: Record<string, string>): NpmProcess {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !CONFIG_VARIABLES.test(key)));
  const child = spawn('npm', args, {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...inherited, ...env },
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Resolves once the process has printed `line`; fails with its output when it exits first or time runs out. */
export async function waitForOutput(p: NpmProcess, line: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!p.output().includes(line)) {
    if (p.child.exitCode !== null) throw new Error(`exited ${p.child.exitCode} before '${line}':\n${p.output()}`);
    if (Date.now() > deadline) throw new Error(`no '${line}' within ${timeoutMs / 1000} s:\n${p.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
