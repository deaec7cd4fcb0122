import type { LiveTelemetry } from '@portal/caster';
import {
  NEAR_MOUNTPOINT_SUFFIX,
  OPERATOR_WINDOW_DAYS,
  type OperatorDashboard,
  type OperatorDay,
} from '@portal/contract';
import type { MoneyRow, OperatorRepo } from './operator.repo.ts';

const DAY_MS = 86_400_000;

function addMoney(into: Map<string, number>, currency: string, amount: number) {
  into.set(currency, (into.get(currency) ?? 0) + amount);
}
const moneyList = (m: Map<string, number>) =>
  [...m].sort(([a], [b]) => a.localeCompare(b)).map(([currency, amount]) => ({ currency, amount }));
const sumMoney = (rows: MoneyRow[]) => {
  const m = new Map<string, number>();
  for (const r of rows) addMoney(m, r.currency, Number(r.amount));
  return moneyList(m);
};

export type OperatorService = ReturnType<typeof createOperatorService>;

export function createOperatorService(deps: { repo: OperatorRepo; live?: LiveTelemetry; clock?: () => Date }) {
  const { repo } = deps;
  const clock = deps.clock ?? (() => new Date());

  /** Rovers connected now per network id, from every caster node that answers. */
  async function roversPerNetwork(networks: { id: string; slug: string }[]) {
    const perNetwork = new Map<string, number>();
    if (!deps.live) return { perNetwork, total: 0, complete: false };
    const { nodes, complete } = await deps.live.live({ sessions: { all: true } });
    const byMountpoint = await repo.mountpointNetworks();
    const bySlug = new Map(networks.map((n) => [`${n.slug.toUpperCase()}${NEAR_MOUNTPOINT_SUFFIX}`, n.id]));
    let total = 0;
    for (const session of nodes.flatMap((n) => n.sessions)) {
      total += 1;
      const network =
        byMountpoint.get(session.mountpoint.toLowerCase()) ?? bySlug.get(session.mountpoint.toUpperCase());
      if (network) perNetwork.set(network, (perNetwork.get(network) ?? 0) + 1);
    }
    return { perNetwork, total, complete };
  }

  return {
    async dashboard(): Promise<OperatorDashboard> {
      const now = clock();
      const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
      const from = new Date(today - (OPERATOR_WINDOW_DAYS - 1) * DAY_MS);
      const networks = await repo.networks();
      const [active, recurring, payments, tokens, spentPerNetwork, stations, rovers] = await Promise.all([
        repo.activeSubscriptions(now),
        repo.recurring(now),
        repo.payments(from),
        repo.tokens(from),
        repo.tokensSpentPerNetwork(from),
        repo.stations(),
        roversPerNetwork(networks),
      ]);

      const days: OperatorDay[] = [];
      for (let t = from.getTime(); t <= today; t += DAY_MS) {
        const day = new Date(t).toISOString().slice(0, 10);
        const dayPayments = payments.filter((p) => p.day === day);
        const dayTokens = tokens.find((r) => r.day === day);
        days.push({
          day,
          revenue: sumMoney(dayPayments.map((p) => ({ currency: p.currency, amount: p.revenue }))),
          refunds: sumMoney(
            dayPayments.filter((p) => p.refunds > 0).map((p) => ({ currency: p.currency, amount: p.refunds })),
          ),
          tokensSold: Number(dayTokens?.sold ?? 0),
          tokensSpent: Number(dayTokens?.spent ?? 0),
        });
      }

      const stationsOf = new Map(stations.map((s) => [s.network_id, s]));
      const spentOf = new Map(spentPerNetwork.map((s) => [s.network_id, Number(s.spent)]));
      return {
        generatedAt: now.toISOString(),
        windowDays: OPERATOR_WINDOW_DAYS,
        activeSubscriptions: active,
        monthlyRecurringRevenue: sumMoney(recurring.total),
        revenue: sumMoney(days.flatMap((d) => d.revenue)),
        refunds: sumMoney(days.flatMap((d) => d.refunds)),
        tokensSold: days.reduce((n, d) => n + d.tokensSold, 0),
        tokensSpent: days.reduce((n, d) => n + d.tokensSpent, 0),
        roversConnected: rovers.total,
        liveComplete: rovers.complete,
        stations: stations.reduce((n, s) => n + s.stations, 0),
        stationsWithData: stations.reduce((n, s) => n + s.online, 0),
        days,
        networks: networks.map((n) => {
          const subs = recurring.perNetwork.filter((r) => r.network_id === n.id);
          return {
            id: n.id,
            slug: n.slug,
            name: n.name,
            activeSubscriptions: subs.reduce((sum, r) => sum + r.subscriptions, 0),
            monthlyRecurringRevenue: sumMoney(subs.filter((r) => r.amount > 0)),
            roversConnected: rovers.perNetwork.get(n.id) ?? 0,
            stations: stationsOf.get(n.id)?.stations ?? 0,
            stationsWithData: stationsOf.get(n.id)?.online ?? 0,
            tokensSpent: spentOf.get(n.id) ?? 0,
          };
        }),
      };
    },
  };
}
