import { chmodSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import type { Database } from '../db/client.ts';
import { type OperatorAnswer, type OperatorRequest, operatorRequest, runOperatorCommand } from './operator-commands.ts';

/**
 * The portal owning a PGlite directory answers the operator commands on a unix socket inside it, so whoever may
 * write the database files may use them, and no one else (ADR 0016). One JSON request per connection.
 */
export function controlSocketPath(pgliteDataDir: string): string {
  return join(pgliteDataDir, 'portal.sock');
}

export async function listenForOperators(
  db: Database,
  config: Parameters<typeof runOperatorCommand>[1],
  pgliteDataDir: string,
): Promise<() => Promise<void>> {
  const path = controlSocketPath(pgliteDataDir);
  // We own the directory's lock, so a socket file left here is from a portal that is gone.
  rmSync(path, { force: true });
  // Half-open: the CLI ends its side after the request and waits for the answer.
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    let input = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      input += chunk;
      if (input.length > 64_000) socket.destroy();
    });
    socket.on('end', () => {
      let request: OperatorRequest;
      try {
        request = operatorRequest.parse(JSON.parse(input));
      } catch {
        socket.end(
          JSON.stringify({ out: [], err: ['The portal does not know that command.'] } satisfies OperatorAnswer),
        );
        return;
      }
      runOperatorCommand(db, config, request).then(
        (answer) => socket.end(JSON.stringify(answer)),
        (err: unknown) =>
          socket.end(JSON.stringify({ out: [], err: [err instanceof Error ? err.message : String(err)] })),
      );
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, resolve);
  });
  chmodSync(path, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
    });
}

/** Sends one command to the portal owning the directory; undefined when no portal listens there. */
export function askRunningPortal(pgliteDataDir: string, request: OperatorRequest): Promise<OperatorAnswer | undefined> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(controlSocketPath(pgliteDataDir));
    let output = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.end(JSON.stringify(request)));
    socket.on('data', (chunk: string) => {
      output += chunk;
    });
    socket.on('end', () => {
      try {
        resolve(JSON.parse(output) as OperatorAnswer);
      } catch (err) {
        reject(err);
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ECONNREFUSED') resolve(undefined);
      else reject(err);
    });
  });
}
