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

/** Compare-and-set rounds lost to other nodes before a write gives up (its claims then fail) rather than wait on. */
const MAX_ROUNDS = 20;

type Counts = Record<string, number>;

interface Claim {
  max: number;
  resolve(granted: boolean): void;
  reject(err: unknown): void;
}

/** One account as this node keeps it: its count as written, and what waits for the next write. */
interface Account {
  /** This node's connections as written (or being written) to the ledger. */
  held: number;
  claims: Claim[];
  releases: number;
  writing: boolean;
  /** The key as this node last wrote it: the next write tries this revision before reading the key again. */
  last: { revision: number; counts: Counts } | null;
}

/**
 * `alive(node)`: whether another node's count still holds. A node that stopped without giving its connections back
 * (killed, cut off) stops counting once it is no longer heard on the bus.
 *
 * Every login and logout of an account on this node waits for one write at a time (its own writes never race each
 * other), and whatever arrived meanwhile goes into the next write together (ADR 0082): when a caster node dies and
 * its rovers log in again on the others at once, an account's hundred logins on a node are a few writes, not a
 * hundred one after another, each acknowledged by two NATS servers. Each claim in a write is granted only while the
 * other live nodes' counts, this node's and the claims granted before it in the same write leave room under its
 * limit, so the limit stays exact.
 */
export async function natsConnectionLedger(
  nc: NatsConnection,
  bucket: string,
  nodeId: string,
  alive: (node: string) => boolean,
  logger: Logger,
  replicas = 1,
): Promise<ConnectionLedger> {
  // Reads from the stream's leader, not any replica (direct get): a replica a write behind would only make the
  // compare-and-set after it fail and be read again.
  const kv: KV = await nc.jetstream().views.kv(bucket, { history: 1, replicas, allow_direct: false });
  await keepReplicas(await nc.jetstreamManager(), `KV_${bucket}`, replicas);
  const accounts = new Map<string, Account>();
  const key = (accountId: string) => `a.${Buffer.from(accountId).toString('base64url')}`;
  const accountOf = (accountId: string): Account => {
    let account = accounts.get(accountId);
    if (!account) {
      account = { held: 0, claims: [], releases: 0, writing: false, last: null };
      accounts.set(accountId, account);
    }
    return account;
  };

  /**
   * Writes this node's count as `held` plus the claims granted, granting each claim in turn while the other live
   * nodes' counts, `held` and the claims granted before it leave room under its `max`. Answers each claim.
   */
  async function write(accountId: string, account: Account, claims: Claim[]): Promise<boolean[]> {
    const k = key(accountId);
    let known = account.last;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const cached = known !== null;
      let revision: number;
      let stored: Counts;
      if (known) {
        ({ revision, counts: stored } = known);
      } else {
        const entry = await kv.get(k);
        // 0: the key was never written; the write then succeeds only if no other node wrote it first.
        revision = entry?.revision ?? 0;
        stored = entry?.operation === 'PUT' && entry.value.length > 0 ? (entry.json() as Counts) : {};
      }
      known = null;
      const next: Counts = {};
      let others = 0;
      for (const [node, n] of Object.entries(stored)) {
        if (node === nodeId || !(n > 0) || !alive(node)) continue;
        next[node] = n;
        others += n;
      }
      let granted = 0;
      const answers = claims.map((claim) => {
        const fits = others + account.held + granted + 1 <= claim.max;
        if (fits) granted++;
        return fits;
      });
      // Counts this node wrote earlier may be out of date: a claim is refused only on counts just read.
      if (cached && granted < claims.length) continue;
      const mine = account.held + granted;
      // Nothing to change (every claim refused, nothing given back): nothing to write.
      if (granted === 0 && (stored[nodeId] ?? 0) === mine) return answers;
      if (mine > 0) next[nodeId] = mine;
      const value = new TextEncoder().encode(JSON.stringify(next));
      try {
        const written = await kv.put(k, value, { previousSeq: revision });
        account.held = mine;
        account.last = { revision: written, counts: next };
        return answers;
      } catch (err) {
        account.last = null;
        if (!isWrongRevision(err)) throw err;
      }
    }
    throw new Error(`connection ledger: account ${accountId} changed by other nodes ${MAX_ROUNDS} times in a row`);
  }

  /** Writes what waits for the account, one write at a time, until nothing does. */
  async function flush(accountId: string, account: Account): Promise<void> {
    if (account.writing) return;
    account.writing = true;
    while (account.claims.length > 0 || account.releases > 0) {
      const claims = account.claims.splice(0);
      // Given back before anything is written: a write that fails leaves a smaller count, healed by the next one.
      account.held = Math.max(0, account.held - account.releases);
      const releases = account.releases;
      account.releases = 0;
      try {
        const answers = await write(accountId, account, claims);
        for (const [i, claim] of claims.entries()) claim.resolve(answers[i] as boolean);
      } catch (err) {
        for (const claim of claims) claim.reject(err);
        if (releases > 0) logger.warn({ err, account: accountId }, 'connection ledger: release not written');
      }
    }
    account.writing = false;
    if (account.held === 0) accounts.delete(accountId);
  }

  return {
    claim(accountId, max) {
      const account = accountOf(accountId);
      return new Promise<boolean>((resolve, reject) => {
        account.claims.push({ max, resolve, reject });
        void flush(accountId, account);
      });
    },
    release(accountId) {
      const account = accountOf(accountId);
      account.releases++;
      void flush(accountId, account);
    },
  };
}
