import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CatalogueScope } from './catalogue.api';
import * as catalogueApi from './catalogue.api';

export const catalogueKeys = {
  all: ['catalogue'] as const,
  networks: (scope: CatalogueScope) => ['catalogue', scope, 'networks'] as const,
  network: (id: string) => ['catalogue', 'admin', 'network', id] as const,
  markers: (scope: CatalogueScope) => ['catalogue', scope, 'markers'] as const,
  station: (scope: CatalogueScope, id: string) => ['catalogue', scope, 'station', id] as const,
  stations: (network: string, search: string, offset: number) =>
    ['catalogue', 'admin', 'stations', network, search, offset] as const,
  feeds: (network: string) => ['catalogue', 'admin', 'feeds', network] as const,
  networkMarkers: (network: string) => ['catalogue', 'admin', 'network-markers', network] as const,
};

/**
 * Station status follows the data (issue 17): the map, its popup and the network cards ask again while shown, so a
 * station that stops sending turns offline without a reload. The marker list answers 304 when nothing changed.
 */
const STATUS_REFRESH_MS = 10_000;

export const useNetworks = (scope: CatalogueScope) =>
  useQuery({
    queryKey: catalogueKeys.networks(scope),
    queryFn: () => catalogueApi.fetchNetworks(scope),
    refetchInterval: STATUS_REFRESH_MS,
  });

export const useNetwork = (id: string) =>
  useQuery({ queryKey: catalogueKeys.network(id), queryFn: () => catalogueApi.fetchNetwork(id) });

export const useStationMarkers = (scope: CatalogueScope) =>
  useQuery({
    queryKey: catalogueKeys.markers(scope),
    queryFn: () => catalogueApi.fetchStationMarkers(scope),
    refetchInterval: STATUS_REFRESH_MS,
  });

export const useStation = (scope: CatalogueScope, id: string | undefined) =>
  useQuery({
    queryKey: catalogueKeys.station(scope, id ?? ''),
    queryFn: () => catalogueApi.fetchStation(scope, id ?? ''),
    enabled: id !== undefined,
    refetchInterval: STATUS_REFRESH_MS,
  });

export const STATION_PAGE_SIZE = 50;

export const useStations = (network: string, search: string, offset: number) =>
  useQuery({
    queryKey: catalogueKeys.stations(network, search, offset),
    queryFn: () =>
      catalogueApi.fetchStations({ network, search: search || undefined, limit: STATION_PAGE_SIZE, offset }),
    placeholderData: keepPreviousData,
  });

export const useNetworkStationMarkers = (network: string) =>
  useQuery({
    queryKey: catalogueKeys.networkMarkers(network),
    queryFn: () => catalogueApi.fetchNetworkStationMarkers(network),
  });

export const useFeeds = (network: string) =>
  useQuery({ queryKey: catalogueKeys.feeds(network), queryFn: () => catalogueApi.fetchFeeds(network) });
