import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { authEmulatorStore, coalesced, fetchRetryingClosedSocket, startSavingProxy } from './auth-emulator-store.ts';
import { freePort } from './free-port.ts';
import { STOP_WITH_PARENT } from './stop-with-parent.ts';

export const DEMO_PROJECT_ID = 'demo-gnss-portal';

export interface AuthEmulator {
  host: string;
  projectId: string;
  /** Settles once the emulator process has ended, for whatever reason, saying how ('signal SIGKILL'). */
  exited: Promise<string>;
  stop(): Promise<void>;
}

export interface AuthEmulatorOptions {
  port?: number;
  projectId?: string;
  /**
   * Accounts are loaded from this folder at start and written to it after every change, before the client hears
   * of the change (auth-emulator-store.ts), so they survive any stop of any process, kill -9 included.
   */
  persistDir?: string;
  log?: (line: string) => void;
}

/**
 * Starts the Firebase Auth Emulator from firebase-tools and resolves once it answers with its saved accounts
 * loaded. It ends itself when the process that started it is gone (stop-with-parent.ts).
 */
export async function startAuthEmulator(options: AuthEmulatorOptions = {}): Promise<AuthEmulator> {
  // A port freePort() found free can be taken by another process before the emulator binds it (the test lanes start
  // servers side by side): then the emulator starts again on other free ports. A port the caller chose is not changed.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options);
    } catch (error) {
      const taken = error instanceof PortTakenError ? error.port : undefined;
      if (taken === undefined || taken === options.port || attempt === 3) throw error;
    }
  }
}

/** The emulator's own message when a port it was given is in use. */
class PortTakenError extends Error {
  constructor(
    readonly port: number,
    message: string,
  ) {
    super(message);
  }
}

async function startOnce(options: AuthEmulatorOptions): Promise<AuthEmulator> {
  const projectId = options.projectId ?? DEMO_PROJECT_ID;
  const port = options.port ?? (await freePort());
  // With a folder to save to, the emulator listens on a port of its own behind the saving proxy on `port`.
  const emulatorPort = options.persistDir ? await freePort() : port;
  const configDir = mkdtempSync(join(tmpdir(), 'auth-emulator-'));
  const configFile = join(configDir, 'firebase.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      emulators: {
        auth: { host: '127.0.0.1', port: emulatorPort },
        hub: { host: '127.0.0.1', port: await freePort() },
        logging: { host: '127.0.0.1', port: await freePort() },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  const require = createRequire(import.meta.url);
  const firebaseTools = dirname(require.resolve('firebase-tools/package.json'));
  const cli = join(firebaseTools, 'lib', 'bin', 'firebase.js');
  const args = [cli, 'emulators:start', '--only', 'auth', '--project', projectId, '--config', configFile];
  const child: ChildProcess = spawn(process.execPath, ['--import', STOP_WITH_PARENT, ...args], {
    cwd: configDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      FIREBASE_CLI_EXPERIMENTS: '',
      CI: process.env.CI ?? 'true',
      // firebase-tools finds "its" emulators through os.tmpdir()/hub-<project>.json, so two emulators of one
      // project on one machine (npm start beside the test suite) found, and exported, each other's accounts.
      TMPDIR: configDir,
    },
  });
  let ended: string | undefined;
  const exited = new Promise<string>((done) =>
    child.once('exit', (code, signal) => {
      ended = signal ? `signal ${signal}` : `exit code ${code}`;
      done(ended);
    }),
  );
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const line of chunk.toString().split('\n')) if (line.trim()) options.log?.(line);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  let proxy: Server | undefined;
  const stop = async () => {
    if (ended === undefined) {
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.kill('SIGINT');
      await exited;
      clearTimeout(killer);
    }
    if (proxy) {
      const closed = new Promise((done) => proxy?.close(done));
      proxy.closeAllConnections();
      await closed;
    }
    rmSync(configDir, { recursive: true, force: true });
  };

  // firebase-tools compiles the emulator's API schema at start: seconds on an idle machine, over two minutes on a
  // busy two-core one.
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (ended !== undefined) {
      await stop();
      const message = `Auth emulator exited early (${ended}):\n${output}`;
      const taken = /Port (\d+) is not open/.exec(output)?.[1];
      throw taken ? new PortTakenError(Number(taken), message) : new Error(message);
    }
    try {
      const res = await fetch(`http://127.0.0.1:${emulatorPort}/`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Auth emulator did not start within 240 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }

  if (options.persistDir) {
    const store = authEmulatorStore({
      dir: resolve(options.persistDir),
      emulatorOrigin: `http://127.0.0.1:${emulatorPort}`,
      projectId,
      firebaseToolsVersion: (require('firebase-tools/package.json') as { version: string }).version,
    });
    const log = options.log ?? ((line: string) => console.error(line));
    try {
      await store.load();
      // From the first start on, the folder is a complete export (metadata included).
      await store.save();
      proxy = await startSavingProxy({ port, host: '127.0.0.1', emulatorPort, save: coalesced(store.save), log });
    } catch (error) {
      await stop();
      const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
      throw inUse ? new Error(`Port ${port} of the Auth Emulator is in use (AUTH_EMULATOR_PORT)`) : error;
    }
  }

  return { host: `127.0.0.1:${port}`, projectId, exited, stop };
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
