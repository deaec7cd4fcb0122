import { type NetworkStationDays, networkStationDaysSchema, type Status, statusSchema } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';

export async function fetchStatus(): Promise<Status> {
  return statusSchema.parse((await api.get('/status')).data);
}

/** The status page's figures; the server computes them from recorded state changes and reuses them for 30 s. */
export function useStatus() {
  return useQuery({ queryKey: ['status'], queryFn: fetchStatus, refetchInterval: 60_000 });
}

export async function fetchStationDays(slug: string): Promise<NetworkStationDays> {
  return networkStationDaysSchema.parse((await api.get(`/status/networks/${encodeURIComponent(slug)}/days`)).data);
}

/** The day strips of a network's stations, asked for only once its station list is open. */
export function useStationDays(slug: string, enabled: boolean) {
  return useQuery({
    queryKey: ['status', 'days', slug],
    queryFn: () => fetchStationDays(slug),
    enabled,
    refetchInterval: 60_000,
  });
}
