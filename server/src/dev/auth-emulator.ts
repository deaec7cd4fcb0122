import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { freePort } from './free-port.ts';

export const DEMO_PROJECT_ID = 'demo-gnss-portal';

export interface AuthEmulator {
  host: string;
  projectId: string;
  stop(): Promise<void>;
}

export interface AuthEmulatorOptions {
  port?: number;
  projectId?: string;
  /** Accounts are imported from and exported to this folder, so demo users survive a restart. */
  persistDir?: string;
  log?: (line: string) => void;
}

/** Starts the Firebase Auth Emulator from firebase-tools and resolves once it answers. */
export async function startAuthEmulator(options: AuthEmulatorOptions = {}): Promise<AuthEmulator> {
  const projectId = options.projectId ?? DEMO_PROJECT_ID;
  const port = options.port ?? (await freePort());
  const configDir = mkdtempSync(join(tmpdir(), 'auth-emulator-'));
  const configFile = join(configDir, 'firebase.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      emulators: {
        auth: { host: '127.0.0.1', port },
        hub: { host: '127.0.0.1', port: await freePort() },
        logging: { host: '127.0.0.1', port: await freePort() },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  const require = createRequire(import.meta.url);
  const cli = join(dirname(require.resolve('firebase-tools/package.json')), 'lib', 'bin', 'firebase.js');
  const args = [cli, 'emulators:start', '--only', 'auth', '--project', projectId, '--config', configFile];
  if (options.persistDir) {
    const dir = resolve(options.persistDir);
    if (existsSync(join(dir, 'firebase-export-metadata.json'))) args.push('--import', dir);
    args.push('--export-on-exit', dir);
  }
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: configDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FIREBASE_CLI_EXPERIMENTS: '', CI: process.env.CI ?? 'true' },
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const line of chunk.toString().split('\n')) if (line.trim()) options.log?.(line);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  const host = `127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Auth emulator exited early:\n${output}`);
    try {
      const res = await fetch(`http://${host}/`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`Auth emulator did not start within 120 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }

  return {
    host,
    projectId,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(killer);
          done();
        });
        child.kill('SIGINT');
      }),
  };
}

/**
 * The emulator closes idle keep-alive sockets after a few seconds; fetch may pick such a socket just as it closes
 * and fail with 'other side closed' before the request was read. Only that case is sent again.
 */
async function fetchRetryingClosedSocket(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET') throw error;
    return fetch(url, init);
  }
}

/** Emulator REST calls used by seeding and tests: the same endpoints the Firebase JS SDK calls. */
export function emulatorClient(host: string, projectId = DEMO_PROJECT_ID) {
  const base = `http://${host}/identitytoolkit.googleapis.com/v1`;
  const post = async <T>(path: string, body: unknown): Promise<T> => {
    const res = await fetchRetryingClosedSocket(`${base}/${path}?key=demo-api-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as T & { error?: { message: string } };
    if (!res.ok) throw new Error(`Auth emulator ${path}: ${json.error?.message ?? res.status}`);
    return json;
  };
  return {
    async signUp(email: string, password: string, displayName?: string) {
      const r = await post<{ idToken: string; localId: string }>('accounts:signUp', {
        email,
        password,
        returnSecureToken: true,
      });
      if (!displayName) return r;
      await post('accounts:update', { idToken: r.idToken, displayName });
      // The update does not mint a token; signing in again gives one that carries the name.
      const signedIn = await post<{ idToken: string }>('accounts:signInWithPassword', {
        email,
        password,
        returnSecureToken: true,
      });
      return { idToken: signedIn.idToken, localId: r.localId };
    },
    async signIn(email: string, password: string) {
      return post<{ idToken: string; localId: string }>('accounts:signInWithPassword', {
        email,
        password,
        returnSecureToken: true,
      });
    },
    /** What the user's click on Firebase's verification e-mail does, done by the emulator's admin ('owner'). */
    async markEmailVerified(localId: string) {
      const res = await fetchRetryingClosedSocket(`${base}/projects/${projectId}/accounts:update`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
        body: JSON.stringify({ localId, emailVerified: true }),
      });
      if (!res.ok) throw new Error(`Auth emulator accounts:update: ${res.status} ${await res.text()}`);
    },
    async clear() {
      await fetchRetryingClosedSocket(`http://${host}/emulator/v1/projects/${projectId}/accounts`, {
        method: 'DELETE',
      });
    },
    async oobCodes() {
      const res = await fetchRetryingClosedSocket(`http://${host}/emulator/v1/projects/${projectId}/oobCodes`);
      return ((await res.json()) as { oobCodes: Array<{ email: string; requestType: string; oobLink: string }> })
        .oobCodes;
    },
  };
}
