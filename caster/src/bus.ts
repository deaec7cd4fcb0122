import { connect, createInbox, type NatsConnection, type Subscription } from 'nats';
import { natsServers } from './nats-servers.ts';
import type { Logger } from './session-log.ts';

/** What a node tells the others every few seconds: the mountpoints it is fed and their cached station frames. */
export interface Announcement {
  node: string;
  /**
   * The mountpoints fed on this node. `flowing`: a valid frame arrived within the online window and the station is
   * not failing its integrity checks (absent from a node
   * of an earlier version, which counts as flowing, as all its fed mountpoints did before).
   */
  mounts: Array<{ mountpoint: string; cached: string[]; flowing?: boolean }>;
  /** Rovers logged in on this node per account, so account limits hold across nodes. */
  connections: Array<[accountId: string, count: number]>;
}

/** A wrong password one node checked, so every node's login throttle counts it (ADR 0072). */
export interface LoginFailure {
  node: string;
  address: string;
  username: string;
}

export interface BusHandlers {
  onFrame(mountpoint: string, data: Buffer): void;
  onAnnouncement(announcement: Announcement): void;
  /** Whether the failure was another node's and is now counted here. */
  onLoginFailure?(failure: LoginFailure): boolean;
}

/** Shares sources between caster processes. One message per RTCM frame keeps frame boundaries across nodes. */
export interface Bus {
  publishFrame(mountpoint: string, data: Buffer): void;
  subscribeFrames(mountpoint: string): void;
  unsubscribeFrames(mountpoint: string): void;
  announce(announcement: Announcement): void;
  /**
   * Tells the other nodes of a wrong password; resolves once `expected` of them have counted it (each answers once
   * it has), or after `timeoutMs`.
   */
  publishLoginFailure(failure: LoginFailure, expected: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
  /** The connection, for other conversations between the nodes (telemetry/bus.ts). */
  readonly connection: NatsConnection;
}

/** `prefix` separates caster groups sharing one NATS server (deployments, test runs). */
export async function connectNatsBus(url: string, prefix: string, handlers: BusHandlers, logger: Logger): Promise<Bus> {
  const FRAMES = `${prefix}.frames.`;
  const ANNOUNCE = `${prefix}.announce`;
  const LOGIN_FAILED = `${prefix}.logins.failed`;
  let nc: NatsConnection;
  try {
    nc = await connect({
      servers: natsServers(url),
      name: 'portal-caster',
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
    });
  } catch (err) {
    throw new Error(`caster bus: cannot connect to NATS at ${url}: ${(err as Error).message}`);
  }
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnect') {
        logger.warn({ bus: url, status: status.type }, 'caster bus connection changed');
      }
    }
  })();
  const frameSubs = new Map<string, Subscription>();
  nc.subscribe(ANNOUNCE, {
    callback: (err, msg) => {
      if (err) return;
      try {
        handlers.onAnnouncement(JSON.parse(Buffer.from(msg.data).toString('utf8')) as Announcement);
      } catch (parseErr) {
        logger.warn({ err: parseErr }, 'unreadable caster bus announcement ignored');
      }
    },
  });
  const { onLoginFailure } = handlers;
  if (onLoginFailure) {
    nc.subscribe(LOGIN_FAILED, {
      callback: (err, msg) => {
        if (err) return;
        try {
          const failure = JSON.parse(Buffer.from(msg.data).toString('utf8')) as LoginFailure;
          if (typeof failure.address === 'string' && typeof failure.username === 'string') {
            // The sender hears its own message too; only the others answer.
            if (onLoginFailure(failure) && msg.reply) msg.respond();
          }
        } catch (parseErr) {
          logger.warn({ err: parseErr }, 'unreadable caster bus login failure ignored');
        }
      },
    });
  }
  return {
    connection: nc,
    publishFrame(mountpoint, data) {
      nc.publish(FRAMES + mountpoint, data);
    },
    subscribeFrames(mountpoint) {
      if (frameSubs.has(mountpoint)) return;
      frameSubs.set(
        mountpoint,
        nc.subscribe(FRAMES + mountpoint, {
          callback: (err, msg) => {
            if (!err) handlers.onFrame(mountpoint, Buffer.from(msg.data.buffer, msg.data.byteOffset, msg.data.length));
          },
        }),
      );
    },
    unsubscribeFrames(mountpoint) {
      frameSubs.get(mountpoint)?.unsubscribe();
      frameSubs.delete(mountpoint);
    },
    announce(announcement) {
      nc.publish(ANNOUNCE, Buffer.from(JSON.stringify(announcement)));
    },
    publishLoginFailure(failure, expected, timeoutMs) {
      const data = Buffer.from(JSON.stringify(failure));
      if (expected <= 0) {
        nc.publish(LOGIN_FAILED, data);
        return Promise.resolve();
      }
      const inbox = createInbox();
      return new Promise<void>((resolve) => {
        let acks = 0;
        const end = () => {
          clearTimeout(timer);
          sub.unsubscribe();
          resolve();
        };
        const timer = setTimeout(end, timeoutMs);
        const sub = nc.subscribe(inbox, {
          callback: () => {
            if (++acks >= expected) end();
          },
        });
        nc.publish(LOGIN_FAILED, data, { reply: inbox });
      });
    },
    async close() {
      await nc.drain();
    },
  };
}

/** JetStream's "wrong last sequence" (10071): a compare-and-set lost to another writer. */
export const isWrongRevision = (err: unknown) =>
  (err as { api_error?: { err_code?: number } } | null)?.api_error?.err_code === 10071;
