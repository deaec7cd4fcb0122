import type { AdminCreateRinexJobBody, AdminRinexNetworkPatch, CreateRinexJobBody } from '@portal/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useUser } from '../auth/auth-context';
import { invalidateTokenBalances } from '../billing/billing.keys';
import {
  adminCreateJob,
  createJob,
  fetchAdminJobs,
  fetchAdminNetworks,
  fetchAdminStations,
  fetchAdminTotals,
  fetchAvailability,
  fetchJobs,
  fetchNearest,
  searchStations,
  updateAdminNetwork,
} from './rinex.api';

export const rinexKeys = {
  availability: (station: string, from: string, to: string) => ['rinex', 'availability', station, from, to] as const,
  nearest: (lat: number, lon: number) => ['rinex', 'nearest', lat, lon] as const,
  search: (text: string) => ['rinex', 'search', text] as const,
  jobs: ['rinex', 'jobs'] as const,
  adminNetworks: ['admin-rinex', 'networks'] as const,
  adminStations: (network: string) => ['admin-rinex', 'stations', network] as const,
  adminTotals: ['admin-rinex', 'totals'] as const,
  adminJobs: (userId?: string) => ['admin-rinex', 'jobs', userId ?? ''] as const,
};

const POLL_MS = 1_500;

export function useAvailability(station: string | undefined, from: string, to: string) {
  return useQuery({
    queryKey: rinexKeys.availability(station ?? '', from, to),
    queryFn: () => fetchAvailability(station ?? '', from, to),
    enabled: Boolean(station),
    placeholderData: keepPreviousData,
    // The current hour fills while it is shown.
    refetchInterval: 60_000,
  });
}

export function useNearest(position: { lat: number; lon: number } | undefined) {
  return useQuery({
    queryKey: rinexKeys.nearest(position?.lat ?? 0, position?.lon ?? 0),
    queryFn: () => fetchNearest(position?.lat ?? 0, position?.lon ?? 0),
    enabled: Boolean(position),
  });
}

export function useStationSearch(text: string) {
  const trimmed = text.trim();
  return useQuery({
    queryKey: rinexKeys.search(trimmed),
    queryFn: () => searchStations(trimmed),
    enabled: trimmed.length >= 2,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/** The history; polled while a job is queued or running, so its progress bar moves. */
export function useRinexJobs() {
  const user = useUser();
  return useQuery({
    queryKey: rinexKeys.jobs,
    queryFn: fetchJobs,
    enabled: Boolean(user),
    refetchInterval: (query) =>
      query.state.data?.some((j) => j.status === 'queued' || j.status === 'running') ? POLL_MS : false,
  });
}

export function useCreateRinexJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateRinexJobBody) => createJob(body),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: rinexKeys.jobs });
      void invalidateTokenBalances(client);
      void client.invalidateQueries({ queryKey: ['rinex', 'availability'] });
    },
  });
}

// --- admin ---

export function useAdminRinexNetworks() {
  return useQuery({ queryKey: rinexKeys.adminNetworks, queryFn: fetchAdminNetworks });
}

export function useUpdateAdminRinexNetwork() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: AdminRinexNetworkPatch }) => updateAdminNetwork(id, patch),
    onSuccess: () => void client.invalidateQueries({ queryKey: rinexKeys.adminNetworks }),
  });
}

export function useAdminRinexStations(network: string | undefined) {
  return useQuery({
    queryKey: rinexKeys.adminStations(network ?? ''),
    queryFn: () => fetchAdminStations(network ?? ''),
    enabled: Boolean(network),
  });
}

export function useAdminRinexTotals() {
  return useQuery({ queryKey: rinexKeys.adminTotals, queryFn: fetchAdminTotals });
}

export function useAdminRinexJobs(userId?: string) {
  return useQuery({
    queryKey: rinexKeys.adminJobs(userId),
    queryFn: () => fetchAdminJobs(userId),
    refetchInterval: (query) =>
      query.state.data?.some((j) => j.status === 'queued' || j.status === 'running') ? POLL_MS : false,
  });
}

export function useAdminCreateRinexJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminCreateRinexJobBody) => adminCreateJob(body),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: ['admin-rinex'] });
    },
  });
}
