import {
  type AdminCreateRinexJobBody,
  type AdminRinexNetwork,
  type AdminRinexNetworkPatch,
  type AdminRinexStation,
  type AdminRinexTotals,
  adminRinexNetworkListSchema,
  adminRinexNetworkSchema,
  adminRinexStationListSchema,
  adminRinexTotalsSchema,
  type CreateRinexJobBody,
  type NearestStation,
  nearestStationListSchema,
  type RinexAvailability,
  type RinexJob,
  rinexAvailabilitySchema,
  rinexJobListSchema,
  rinexJobSchema,
  type StationPage,
  stationPageSchema,
} from '@portal/contract';
import { api } from '../../lib/api';

export async function fetchAvailability(station: string, from: string, to: string): Promise<RinexAvailability> {
  return rinexAvailabilitySchema.parse((await api.get('/rinex/availability', { params: { station, from, to } })).data);
}

export async function fetchNearest(lat: number, lon: number): Promise<NearestStation[]> {
  return nearestStationListSchema.parse((await api.get('/rinex/stations/nearest', { params: { lat, lon } })).data)
    .items;
}

/** Stations whose mountpoint or name contains the text (the public catalogue's search). */
export async function searchStations(search: string): Promise<StationPage['items']> {
  const { data } = await api.get('/stations', { params: { search, limit: 8 } });
  return stationPageSchema.parse(data).items;
}

export async function fetchJobs(): Promise<RinexJob[]> {
  return rinexJobListSchema.parse((await api.get('/rinex/jobs')).data).items;
}

export async function createJob(body: CreateRinexJobBody): Promise<RinexJob> {
  return rinexJobSchema.parse((await api.post('/rinex/jobs', body)).data);
}

// --- admin ---

export async function fetchAdminNetworks(): Promise<AdminRinexNetwork[]> {
  return adminRinexNetworkListSchema.parse((await api.get('/admin/rinex/networks')).data).items;
}

export async function updateAdminNetwork(id: string, patch: AdminRinexNetworkPatch): Promise<AdminRinexNetwork> {
  return adminRinexNetworkSchema.parse((await api.patch(`/admin/rinex/networks/${id}`, patch)).data);
}

export async function fetchAdminStations(network: string): Promise<AdminRinexStation[]> {
  return adminRinexStationListSchema.parse((await api.get('/admin/rinex/stations', { params: { network } })).data)
    .items;
}

export async function fetchAdminTotals(): Promise<AdminRinexTotals> {
  return adminRinexTotalsSchema.parse((await api.get('/admin/rinex/totals')).data);
}

export async function adminCreateJob(body: AdminCreateRinexJobBody): Promise<RinexJob> {
  return rinexJobSchema.parse((await api.post('/admin/rinex/jobs', body)).data);
}

export async function fetchAdminJobs(userId?: string): Promise<RinexJob[]> {
  return rinexJobListSchema.parse((await api.get('/admin/rinex/jobs', { params: userId ? { userId } : {} })).data)
    .items;
}
