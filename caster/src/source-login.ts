import type net from 'node:net';
import { ChunkedDecoder } from './chunked.ts';
import { reject, remoteOf } from './connection.ts';
import type { CasterLimits } from './limits.ts';
import { type LoginThrottle, THROTTLED_TEXT } from './login-throttle.ts';
import type { CataloguePort } from './ports.ts';
import type { Mount, SourceLink } from './relay/mount.ts';
import type { NtripRequest } from './request.ts';
import { errorResponse, V1_BAD_PASSWORD, V1_MOUNT_TAKEN, V1_OK, v2SourceOk } from './responses.ts';
import type { Logger } from './session-log.ts';

export interface SourceLoginDeps {
  limits: Pick<CasterLimits, 'sourceSilenceMs'>;
  logger: Logger;
  catalogue: Pick<CataloguePort, 'verifySourcePassword'>;
  logins: LoginThrottle;
  resolveMount(name: string): Promise<Mount | undefined>;
  /** Makes the link the station's source; returns what feeds it bytes, or null when the station is fed already. */
  attach(mount: Mount, link: SourceLink): ((chunk: Buffer) => void) | null;
  detach(mount: Mount, link: SourceLink): void;
}

/**
 * A base station's login (NTRIP 1 SOURCE, NTRIP 2 POST) and its stream: the source password, throttled like rover
 * logins; refused when the station is fed already; a chunked body decoded; dropped when silent.
 */
export async function serveSource(
  socket: net.Socket,
  req: NtripRequest,
  rest: Buffer,
  deps: SourceLoginDeps,
): Promise<void> {
  const { limits, logger, catalogue, logins } = deps;
  const ip = remoteOf(socket);
  const v = req.method === 'SOURCE' ? 1 : req.ntripVersion;
  const mount = await deps.resolveMount(req.mountpoint);
  if (!mount)
    return reject(socket, v === 1 ? V1_MOUNT_TAKEN : errorResponse(2, 404, `Mountpoint '${req.mountpoint}' not found`));
  const badPassword = () =>
    v === 1
      ? V1_BAD_PASSWORD
      : errorResponse(2, 401, 'Unauthorized: wrong source password', {
          'WWW-Authenticate': `Basic realm="/${mount.name}"`,
        });
  // Sources are throttled like rovers, the mountpoint standing for the account name.
  const sourceName = `source:${mount.name}`;
  const password = (v === 1 ? req.sourcePassword : req.credentials?.password) ?? '';
  const attempt = logins.attempt(ip, sourceName, password);
  if (typeof attempt === 'string')
    return reject(socket, v === 1 ? V1_BAD_PASSWORD : errorResponse(2, 429, THROTTLED_TEXT[attempt]));
  let verified: boolean;
  try {
    verified = password !== '' && (await catalogue.verifySourcePassword(mount.name, password));
  } catch (err) {
    attempt.settled();
    throw err;
  }
  if (!verified) {
    // The answer waits for the other caster nodes to count the failure (ADR 0072).
    await attempt.failed();
    return reject(socket, badPassword());
  }
  attempt.settled();
  if (socket.destroyed) return;
  const link: SourceLink = { kind: 'push', address: ip, close: (reason) => socket.destroy(new Error(reason)) };
  const feed = deps.attach(mount, link);
  if (!feed)
    return reject(
      socket,
      v === 1 ? V1_MOUNT_TAKEN : errorResponse(2, 409, `Mountpoint '${mount.name}' is already fed`),
    );
  logger.info({ mountpoint: mount.name, remote: ip, version: v }, 'source connected');
  socket.write(v === 1 ? V1_OK : v2SourceOk());
  let input = feed;
  if (v === 2 && /chunked/i.test(req.headers.get('transfer-encoding') ?? '')) {
    const decoder = new ChunkedDecoder(feed, () => socket.end());
    input = (chunk) => decoder.push(chunk);
  }
  socket.setTimeout(limits.sourceSilenceMs, () => {
    logger.warn({ mountpoint: mount.name, remote: ip }, 'source silent; dropped');
    socket.destroy();
  });
  const onData = (chunk: Buffer) => {
    try {
      input(chunk);
    } catch (err) {
      logger.warn({ mountpoint: mount.name, err: (err as Error).message }, 'source sent a bad chunked body; dropped');
      socket.destroy();
    }
  };
  socket.on('data', onData);
  socket.on('close', () => {
    logger.info({ mountpoint: mount.name, remote: ip }, 'source disconnected');
    deps.detach(mount, link);
  });
  if (rest.length) onData(rest);
}
