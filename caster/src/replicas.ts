import type { JetStreamManager } from 'nats';

/**
 * Keeps a JetStream stream (a key-value bucket's `KV_…`, an object store's `OBJ_…`, a plain stream) on `replicas`
 * servers of the NATS cluster (ADR 0073). nats.js sets the replicas only when it creates a stream, so a bucket made
 * before the cluster grew (or by an earlier version, with one) is moved to the configured count here; the servers
 * copy its data to the new replicas in the background.
 */
export async function keepReplicas(jsm: JetStreamManager, stream: string, replicas: number): Promise<void> {
  const { config } = await jsm.streams.info(stream);
  if (config.num_replicas === replicas) return;
  await jsm.streams.update(stream, { ...config, num_replicas: replicas });
}
