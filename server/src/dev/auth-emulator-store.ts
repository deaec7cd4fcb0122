import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import { join } from 'node:path';

const EXPORT_DIR = 'auth_export';
const METADATA_FILE = 'firebase-export-metadata.json';

/**
 * The emulator closes idle keep-alive sockets after a few seconds; fetch may pick such a socket just as it closes
 * and fail with 'other side closed' before the request was read. Only that case is sent again.
 */
export async function fetchRetryingClosedSocket(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET') throw error;
    return fetch(url, init);
  }
}

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The Auth Emulator's accounts on disk, in the layout `firebase emulators:export` writes, so
 * `firebase emulators:start --import DIR` still reads it: DIR/firebase-export-metadata.json and
 * DIR/auth_export/{accounts,config}.json. Only the default tenant: the portal uses no others.
 */
export function authEmulatorStore(options: {
  dir: string;
  /** http://host:port of the emulator itself. */
  emulatorOrigin: string;
  projectId: string;
  firebaseToolsVersion: string;
}) {
  const { dir, emulatorOrigin, projectId } = options;
  const accountsUrl = `${emulatorOrigin}/identitytoolkit.googleapis.com/v1/projects/${projectId}/accounts`;
  const configUrl = `${emulatorOrigin}/emulator/v1/projects/${projectId}/config`;
  const written = new Map<string, string>();

  const call = async (method: string, url: string, body?: string): Promise<string> => {
    const res = await fetchRetryingClosedSocket(url, {
      method,
      headers: { authorization: 'Bearer owner', 'content-type': 'application/json' },
      ...(body !== undefined && { body }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`Auth Emulator ${method} ${new URL(url).pathname}: ${res.status} ${text}`);
    return text;
  };

  /**
   * Write, flush, rename: a kill at any moment leaves the previous file or the new one, never half of one. The
   * temporary file stays outside auth_export, where firebase's own import reads every file named like 'accounts'.
   */
  const replace = async (name: string, content: string) => {
    if (written.get(name) === content) return;
    const temporary = join(dir, `.writing-${process.pid}`);
    const file = await open(temporary, 'w');
    try {
      await file.writeFile(content);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, join(dir, name));
    written.set(name, content);
  };

  return {
    /** Puts the saved configuration and accounts into a freshly started emulator; answers how many accounts. */
    async load(): Promise<number> {
      const config = await readIfPresent(join(dir, EXPORT_DIR, 'config.json'));
      if (config !== undefined) await call('PATCH', configUrl, config);
      const accountsFile = join(dir, EXPORT_DIR, 'accounts.json');
      const accounts = await readIfPresent(accountsFile);
      if (accounts === undefined) return 0;
      let users: unknown[];
      try {
        users = (JSON.parse(accounts) as { users?: unknown[] }).users ?? [];
      } catch {
        throw new Error(`${accountsFile} is not JSON; move it away to start with no Auth Emulator accounts`);
      }
      if (users.length) await call('POST', `${accountsUrl}:batchCreate`, JSON.stringify({ users }));
      return users.length;
    },

    /** Writes what the emulator holds now. */
    async save(): Promise<void> {
      const accounts = await call('GET', `${accountsUrl}:batchGet?maxResults=-1`);
      const config = await call('GET', configUrl);
      await mkdir(join(dir, EXPORT_DIR), { recursive: true });
      const version = options.firebaseToolsVersion;
      await replace(METADATA_FILE, JSON.stringify({ version, auth: { version, path: EXPORT_DIR } }, undefined, 2));
      await replace(join(EXPORT_DIR, 'config.json'), config);
      await replace(join(EXPORT_DIR, 'accounts.json'), accounts);
    },
  };
}

/**
 * Runs `task` one at a time such that every call is answered by a run that started after the call: calls that
 * arrive while one runs share the next run instead of queueing one each.
 */
export function coalesced(task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const begin = () => {
    running = task().finally(() => {
      running = undefined;
    });
    return running;
  };
  return () => {
    if (next) return next;
    if (!running) return begin();
    next = running
      .catch(() => undefined)
      .then(() => {
        next = undefined;
        return begin();
      });
    return next;
  };
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'];

function without(headers: IncomingHttpHeaders, names: string[]): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name)));
}

/**
 * Requests that may change accounts: every method but the reading ones, and the emulator's action page, which
 * verifies an address or sets a new password on a GET (the link in its e-mails).
 */
function mayChangeAccounts(method: string, url: string): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(method) || url.startsWith('/emulator/action');
}

/**
 * The emulator's address as the portal and the browser know it. Every request goes on to the emulator; the answer
 * to one that may have changed accounts is held until `save` has written them, so whatever a client was told
 * succeeded is on disk before it hears so, and a kill -9 of any process afterwards loses none of it.
 *
 * The emulator writes its own address into the links it makes (password reset, e-mail verification); they are
 * rewritten to this one, so following them changes accounts through here too.
 */
export function startSavingProxy(options: {
  port: number;
  host: string;
  emulatorPort: number;
  save: () => Promise<void>;
  log: (line: string) => void;
}): Promise<Server> {
  const emulatorOrigin = `http://127.0.0.1:${options.emulatorPort}`;
  const server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const fail = (status: number, message: string) => {
      if (res.headersSent) return res.destroy();
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: status, message } }));
    };
    const upstream = request(
      {
        host: '127.0.0.1',
        port: options.emulatorPort,
        method,
        path: url,
        headers: without(req.headers, HOP_BY_HOP),
        // A connection of its own each time: the emulator closes idle ones after a few seconds, and a request sent
        // on one just as it closes would fail.
        agent: false,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('error', () => res.destroy());
        answer.on('end', async () => {
          if (mayChangeAccounts(method, url)) {
            try {
              await options.save();
            } catch (error) {
              options.log(`The Auth Emulator's accounts could not be saved: ${(error as Error).message}`);
              return fail(500, `The Auth Emulator's accounts could not be saved: ${(error as Error).message}`);
            }
          }
          let body = Buffer.concat(chunks);
          const publicOrigin = req.headers.host && `http://${req.headers.host}`;
          if (publicOrigin && body.includes(emulatorOrigin)) {
            body = Buffer.from(body.toString('utf8').replaceAll(emulatorOrigin, publicOrigin));
          }
          res.writeHead(answer.statusCode ?? 502, {
            ...without(answer.headers, [...HOP_BY_HOP, 'content-length']),
            'content-length': body.length,
          });
          res.end(body);
        });
      },
    );
    upstream.on('error', (error) => fail(502, `The Auth Emulator did not answer: ${error.message}`));
    req.pipe(upstream);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
