import { connect, createInbox, type NatsConnection } from 'nats';
import { natsServers } from '../nats-servers.ts';
import type { Logger } from '../session-log.ts';
import type { TelemetryQuery, TelemetrySnapshot } from './types.ts';

/** How long a query waits for nodes that were announced but have not answered. */
export const TELEMETRY_TIMEOUT_MS = 750;

const subject = (prefix: string) => `${prefix}.telemetry`;

/** Answers other processes' telemetry queries with this node's snapshot. */
export function serveTelemetry(
  nc: NatsConnection,
  prefix: string,
  answer: (query: TelemetryQuery) => TelemetrySnapshot,
  logger: Logger,
): () => void {
  const sub = nc.subscribe(subject(prefix), {
    callback: (err, msg) => {
      if (err || !msg.reply) return;
      try {
        const query = JSON.parse(Buffer.from(msg.data).toString('utf8')) as TelemetryQuery;
        msg.respond(Buffer.from(JSON.stringify(answer(query))));
      } catch (parseErr) {
        logger.warn({ err: parseErr }, 'unreadable telemetry query ignored');
      }
    },
  });
  return () => sub.unsubscribe();
}

/**
 * Asks every caster node for its snapshot and collects the answers until each node in `expected` answered or the
 * timeout passed (a node that died a moment ago is still expected for a few seconds).
 */
export async function queryTelemetry(
  nc: NatsConnection,
  prefix: string,
  query: TelemetryQuery,
  expected: ReadonlySet<string>,
  timeoutMs = TELEMETRY_TIMEOUT_MS,
): Promise<{ nodes: TelemetrySnapshot[]; complete: boolean }> {
  const inbox = createInbox();
  const nodes: TelemetrySnapshot[] = [];
  const missing = new Set(expected);
  const sub = nc.subscribe(inbox);
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    void (async () => {
      for await (const msg of sub) {
        try {
          const snapshot = JSON.parse(Buffer.from(msg.data).toString('utf8')) as TelemetrySnapshot;
          nodes.push(snapshot);
          missing.delete(snapshot.node);
        } catch {
          // A reply that cannot be read counts as no reply.
        }
        if (expected.size > 0 && missing.size === 0) break;
      }
      clearTimeout(timer);
      resolve();
    })();
  });
  nc.publish(subject(prefix), Buffer.from(JSON.stringify(query)), { reply: inbox });
  await done;
  sub.unsubscribe();
  return { nodes, complete: missing.size === 0 };
}

/**
 * For a process without a caster (`SERVICES=api`): its own bus connection, which follows the nodes' announcements
 * to know whom to expect, and asks them for their live state.
 */
export async function connectTelemetryClient(
  url: string,
  prefix: string,
  logger: Logger,
  announceIntervalMs = 2_000,
): Promise<{
  live(query: TelemetryQuery): Promise<{ nodes: TelemetrySnapshot[]; complete: boolean }>;
  close(): Promise<void>;
}> {
  const nc = await connect({
    servers: natsServers(url),
    name: 'portal-telemetry',
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1000,
  });
  const seen = new Map<string, number>();
  nc.subscribe(`${prefix}.announce`, {
    callback: (err, msg) => {
      if (err) return;
      try {
        const { node } = JSON.parse(Buffer.from(msg.data).toString('utf8')) as { node: string };
        seen.set(node, Date.now());
      } catch (parseErr) {
        logger.warn({ err: parseErr }, 'unreadable caster bus announcement ignored');
      }
    },
  });
  return {
    live(query) {
      const now = Date.now();
      const expected = new Set<string>();
      for (const [node, at] of seen) {
        if (now - at < announceIntervalMs * 3) expected.add(node);
        else seen.delete(node);
      }
      return queryTelemetry(nc, prefix, query, expected);
    },
    async close() {
      await nc.drain();
    },
  };
}
