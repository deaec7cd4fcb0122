import type {
  CreateFeedBody,
  CreateNetworkBody,
  CreateStationBody,
  Feed,
  FeedPage,
  ImportReport,
  Network,
  PatchFeedBody,
  PatchNetworkBody,
  PatchStationBody,
  Station,
  StationMarkerPage,
  StationPage,
} from '@portal/contract';
import { answer } from '../../lib/answer';
import { api } from '../../lib/api';

/** Public calls read what the marketplace shows; admin calls see hidden and retired networks too. */
export type CatalogueScope = 'public' | 'admin';
const prefix = (scope: CatalogueScope) => (scope === 'admin' ? '/admin' : '');

export async function fetchNetworks(scope: CatalogueScope): Promise<Network[]> {
  return (await answer('networkListSchema', (await api.get(`${prefix(scope)}/networks`)).data)).items;
}

export async function fetchNetwork(id: string): Promise<Network> {
  return answer('networkSchema', (await api.get(`/admin/networks/${id}`)).data);
}

/** Every station of the scope as map markers, in one call (the API allows 10,000 per page). */
export async function fetchStationMarkers(scope: CatalogueScope): Promise<StationMarkerPage> {
  const { data } = await api.get(`${prefix(scope)}/stations`, { params: { view: 'compact', limit: 10_000 } });
  return answer('stationMarkerPageSchema', data);
}

/** Id and mountpoint of every station of one network, whatever its size (for pickers). */
export async function fetchNetworkStationMarkers(network: string): Promise<StationMarkerPage> {
  const { data } = await api.get('/admin/stations', { params: { network, view: 'compact', limit: 10_000 } });
  return answer('stationMarkerPageSchema', data);
}

export async function fetchStation(scope: CatalogueScope, id: string): Promise<Station> {
  return answer('stationSchema', (await api.get(`${prefix(scope)}/stations/${id}`)).data);
}

export async function fetchStations(params: {
  network: string;
  search?: string;
  limit: number;
  offset: number;
}): Promise<StationPage> {
  return answer('stationPageSchema', (await api.get('/admin/stations', { params })).data);
}

export async function createNetwork(body: CreateNetworkBody): Promise<Network> {
  return answer('networkSchema', (await api.post('/admin/networks', body)).data);
}

export async function updateNetwork(id: string, body: PatchNetworkBody): Promise<Network> {
  return answer('networkSchema', (await api.patch(`/admin/networks/${id}`, body)).data);
}

export async function deleteNetwork(id: string): Promise<void> {
  await api.delete(`/admin/networks/${id}`);
}

export async function importSourcetable(networkId: string, text: string, dryRun: boolean): Promise<ImportReport> {
  const { data } = await api.post(`/admin/networks/${networkId}/import-sourcetable`, { text, dryRun });
  return answer('importReportSchema', data);
}

export async function createStation(body: CreateStationBody): Promise<Station> {
  return answer('stationSchema', (await api.post('/admin/stations', body)).data);
}

export async function updateStation(id: string, body: PatchStationBody): Promise<Station> {
  return answer('stationSchema', (await api.patch(`/admin/stations/${id}`, body)).data);
}

export async function deleteStation(id: string): Promise<void> {
  await api.delete(`/admin/stations/${id}`);
}

export async function fetchFeeds(network: string): Promise<FeedPage> {
  return answer('feedPageSchema', (await api.get('/admin/feeds', { params: { network, limit: 1000 } })).data);
}

export async function createFeed(body: CreateFeedBody): Promise<Feed> {
  return answer('feedSchema', (await api.post('/admin/feeds', body)).data);
}

export async function updateFeed(id: string, body: PatchFeedBody): Promise<Feed> {
  return answer('feedSchema', (await api.patch(`/admin/feeds/${id}`, body)).data);
}

export async function deleteFeed(id: string): Promise<void> {
  await api.delete(`/admin/feeds/${id}`);
}
