import type { KV, NatsConnection } from 'nats';
import { isWrongRevision } from './bus.ts';
import { keepReplicas } from './replicas.ts';
import type { Logger } from './session-log.ts';

/**
 * Each account's connections across the caster nodes, in a NATS JetStream key-value bucket (ADR 0040): one key per
 * account holding every node's count, changed only by compare-and-set on the key's revision, so two nodes admitting
 * the account's last connection at the same moment cannot both win.
 */
export interface ConnectionLedger {
  /** Takes one more connection of the account for this node; false when the nodes hold `max` already. */
  claim(accountId: string, max: number): Promise<boolean>;
  /** Gives one back (the rover left); written in the background. */
  release(accountId: string): void;
}

/** Compare-and-set rounds lost to other nodes before a claim gives up (refused) rather than wait on. */
const MAX_ROUNDS = 20;

type Counts = Record<string, number>;

/**
 * `alive(node)`: whether another node's count still holds. A node that stopped without giving its connections back
 * (killed, cut off) stops counting once it is no longer heard on the bus.
 */
export async function natsConnectionLedger(
  nc: NatsConnection,
  bucket: string,
  nodeId: string,
  alive: (node: string) => boolean,
  logger: Logger,
  replicas = 1,
): Promise<ConnectionLedger> {
  const kv: KV = await nc.jetstream().views.kv(bucket, { history: 1, replicas });
  await keepReplicas(await nc.jetstreamManager(), `KV_${bucket}`, replicas);
  /** This node's connections per account as written (or being written) to the ledger. */
  const held = new Map<string, number>();
  /** One write at a time per account from this node, so its own writes never race each other. */
  const queues = new Map<string, Promise<unknown>>();
  const serially = <T>(accountId: string, work: () => Promise<T>): Promise<T> => {
    const next = (queues.get(accountId) ?? Promise.resolve()).then(work, work);
    const tail = next.then(
      () => {},
      () => {},
    );
    queues.set(accountId, tail);
    void tail.then(() => {
      if (queues.get(accountId) === tail) queues.delete(accountId);
    });
    return next;
  };
  const key = (accountId: string) => `a.${Buffer.from(accountId).toString('base64url')}`;

  /** Writes this node's count as `mine`; with `max`, only when the other live nodes' counts leave room for it. */
  async function write(accountId: string, mine: number, max: number | null): Promise<boolean> {
    const k = key(accountId);
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const entry = await kv.get(k);
      const stored: Counts = entry?.operation === 'PUT' && entry.value.length > 0 ? (entry.json() as Counts) : {};
      const next: Counts = {};
      let others = 0;
      for (const [node, n] of Object.entries(stored)) {
        if (node === nodeId || !(n > 0) || !alive(node)) continue;
        next[node] = n;
        others += n;
      }
      if (max !== null && others + mine > max) return false;
      if (mine > 0) next[nodeId] = mine;
      const value = new TextEncoder().encode(JSON.stringify(next));
      try {
        if (entry) await kv.update(k, value, entry.revision);
        else await kv.create(k, value);
        return true;
      } catch (err) {
        if (!isWrongRevision(err)) throw err;
      }
    }
    throw new Error(`connection ledger: account ${accountId} changed by other nodes ${MAX_ROUNDS} times in a row`);
  }

  return {
    claim: (accountId, max) =>
      serially(accountId, async () => {
        const mine = (held.get(accountId) ?? 0) + 1;
        if (!(await write(accountId, mine, max))) return false;
        held.set(accountId, mine);
        return true;
      }),
    release(accountId) {
      serially(accountId, async () => {
        const mine = Math.max(0, (held.get(accountId) ?? 0) - 1);
        if (mine > 0) held.set(accountId, mine);
        else held.delete(accountId);
        await write(accountId, mine, null);
      }).catch((err: unknown) => logger.warn({ err, account: accountId }, 'connection ledger: release not written'));
    },
  };
}
