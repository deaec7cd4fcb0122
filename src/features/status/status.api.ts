import { type Status, statusSchema } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';

export async function fetchStatus(): Promise<Status> {
  return statusSchema.parse((await api.get('/status')).data);
}

/** The status page's figures; the server computes them from recorded state changes and reuses them for 30 s. */
export function useStatus() {
  return useQuery({ queryKey: ['status'], queryFn: fetchStatus, refetchInterval: 60_000 });
}
