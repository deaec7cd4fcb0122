import type { Bus } from '../bus.ts';
import type { Clock } from '../clock.ts';
import type { Logger } from '../session-log.ts';
import { queryTelemetry, serveTelemetry } from './bus.ts';
import { liveSession, liveSource, type RoverView, type SourceView, wantedAccounts } from './snapshot.ts';
import type { LiveTelemetry, TelemetryQuery, TelemetrySnapshot } from './types.ts';

export interface LiveStateDeps {
  nodeId: string;
  clock: Clock;
  stationOnlineWindowMs: number;
  /** The logged-in rovers by account on this node. */
  roversByAccount: ReadonlyMap<string, ReadonlySet<RoverView>>;
  mounts: ReadonlyMap<string, SourceView>;
  /** The bus to the other nodes, connected already, or none; and the nodes that announced themselves lately. */
  cluster: { readonly bus: Bus | null; liveNodes(now: number): Set<string> };
  busPrefix: string;
  logger: Logger;
}

/** This node's live sessions and sources, answered to the other nodes' queries on the bus and merged with theirs. */
export function liveState(deps: LiveStateDeps): LiveTelemetry & { stop(): void } {
  const { nodeId, clock, roversByAccount, mounts, cluster, busPrefix } = deps;
  const snapshot = (query: TelemetryQuery): TelemetrySnapshot => {
    const now = clock.now();
    const accounts = wantedAccounts(query);
    const sessions: TelemetrySnapshot['sessions'] = [];
    for (const [accountId, rovers] of roversByAccount) {
      if (accounts === 'all' || accounts?.has(accountId)) for (const r of rovers) sessions.push(liveSession(nodeId, r));
    }
    const sources: TelemetrySnapshot['sources'] = [];
    if (query.sources) {
      for (const mount of mounts.values()) {
        const source = liveSource(nodeId, mount, now, deps.stationOnlineWindowMs);
        if (source) sources.push(source);
      }
    }
    return { node: nodeId, at: new Date(now).toISOString(), sessions, sources };
  };
  const stop = cluster.bus ? serveTelemetry(cluster.bus.connection, busPrefix, snapshot, deps.logger) : null;
  return {
    async live(query) {
      const local = snapshot(query);
      const { bus } = cluster;
      if (!bus) return { nodes: [local], complete: true };
      const now = clock.now();
      const remote = await queryTelemetry(bus.connection, busPrefix, query, cluster.liveNodes(now));
      return { nodes: [local, ...remote.nodes.filter((n) => n.node !== nodeId)], complete: remote.complete };
    },
    stop: () => stop?.(),
  };
}
