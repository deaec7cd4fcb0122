import { type OperatorDashboard, operatorDashboardSchema } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';

export async function fetchOperatorDashboard(): Promise<OperatorDashboard> {
  return operatorDashboardSchema.parse((await api.get('/admin/operator')).data);
}

/** Live figures (rovers, stations) move; a minute is fresh enough for a glance. */
export function useOperatorDashboard() {
  return useQuery({ queryKey: ['operator-dashboard'], queryFn: fetchOperatorDashboard, refetchInterval: 60_000 });
}
