import { connect, type KV, type NatsConnection } from 'nats';
import { isWrongRevision } from '../bus.ts';
import { natsServers } from '../nats-servers.ts';
import { keepReplicas } from '../replicas.ts';

/**
 * Which caster node archives a station. Normally the bus already gives a station's source to one node, but not
 * always at once: two nodes can both dial a pull feed, or accept a base station, within one announcement interval.
 * The lease makes the archive's single writer a guarantee rather than a likelihood (docs/adr, archive).
 */
export interface ArchiveLease {
  /** True while this node may archive the station: it holds the lease, renewing it, or takes it when it is free. */
  hold(mountpoint: string): Promise<boolean>;
  /** Gives the lease up (the station's source left this node), so another node need not wait for it to expire. */
  release(mountpoint: string): Promise<void>;
  close(): Promise<void>;
}

interface LeaseValue {
  node: string;
  /** Unix ms on the holder's clock; node clocks are assumed synchronised to well under the lease's length. */
  until: number;
}

export interface NatsLeaseOptions {
  url: string;
  /** KV bucket of the leases: one per group of caster nodes. */
  bucket: string;
  node: string;
  /** A lease not renewed for this long is free: how long a crashed node's stations go unarchived at most. */
  ttlMs?: number;
  /** JetStream copies of the lease bucket (ADR 0073); 1 when unset. */
  replicas?: number;
}

/** Leases in a NATS JetStream key-value bucket, taken and renewed with compare-and-set on the key's revision. */
export async function natsArchiveLease(options: NatsLeaseOptions): Promise<ArchiveLease> {
  const ttlMs = options.ttlMs ?? 6_000;
  let nc: NatsConnection;
  try {
    nc = await connect({ servers: natsServers(options.url), name: 'portal-archive-lease', maxReconnectAttempts: -1 });
  } catch (err) {
    throw new Error(`archive lease: cannot connect to NATS at ${options.url}: ${(err as Error).message}`);
  }
  const replicas = options.replicas ?? 1;
  const kv: KV = await nc.jetstream().views.kv(options.bucket, { history: 1, replicas });
  await keepReplicas(await nc.jetstreamManager(), `KV_${options.bucket}`, replicas);
  /** Leases this node holds: the revision it wrote and when. */
  const held = new Map<string, { revision: number; at: number }>();
  const value = (now: number) =>
    new TextEncoder().encode(JSON.stringify({ node: options.node, until: now + ttlMs } satisfies LeaseValue));

  const lease: ArchiveLease = {
    async hold(mountpoint) {
      const now = Date.now();
      const mine = held.get(mountpoint);
      if (mine && now - mine.at < ttlMs / 3) return true;
      try {
        const entry = await kv.get(mountpoint);
        let revision: number;
        if (!entry) revision = await kv.create(mountpoint, value(now));
        else {
          const current = entry.operation === 'PUT' ? (entry.json() as LeaseValue) : null;
          const free = !current || current.node === options.node || current.until < now;
          if (!free) {
            held.delete(mountpoint);
            return false;
          }
          revision = await kv.update(mountpoint, value(now), entry.revision);
        }
        held.set(mountpoint, { revision, at: now });
        return true;
      } catch (err) {
        held.delete(mountpoint);
        // Another node wrote the key between our read and our write: it holds the lease.
        if (isWrongRevision(err)) return false;
        throw err;
      }
    },
    async release(mountpoint) {
      const mine = held.get(mountpoint);
      held.delete(mountpoint);
      if (mine) await kv.delete(mountpoint, { previousSeq: mine.revision });
    },
    async close() {
      for (const mountpoint of [...held.keys()]) {
        await lease.release(mountpoint).catch(() => {});
      }
      await nc.drain();
    },
  };
  return lease;
}
