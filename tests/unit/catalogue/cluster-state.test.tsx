import type { StationMarker } from '@portal/contract';
import { screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CoveragePreview } from '../../../src/features/catalogue/CoveragePreview';
import { clusterState } from '../../../src/features/catalogue/map-view';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const station = (id: string, latitude: number, longitude: number, status: string): StationMarker =>
  ({ id, mountpoint: id, latitude, longitude, status, networkId: 'n' }) as StationMarker;

/** Three stations a few km apart in each place: one cluster per place at the fitted zoom. */
const place = (name: string, latitude: number, longitude: number, statuses: string[]) =>
  statuses.map((status, i) => station(`${name}${i}`, latitude + i * 0.01, longitude + i * 0.01, status));

describe('a cluster shows its stations’ state (issue 32)', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        disconnect() {}
      },
    );
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(800);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(560);
    server.use(http.get('*/basemap/*', () => HttpResponse.json({ type: 'FeatureCollection', features: [] })));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('is online, partly offline or offline as its stations are', () => {
    expect(clusterState(3, 0)).toBe('online');
    expect(clusterState(3, 1)).toBe('partial');
    expect(clusterState(3, 3)).toBe('offline');
  });

  it('colours the clusters of the public map by state and says how many are offline, not only on the admin map', async () => {
    renderWithProviders(
      <CoveragePreview
        markers={[
          ...place('utr', 52.09, 5.12, ['online', 'online', 'online']),
          ...place('gro', 53.22, 6.57, ['online', 'offline', 'online']),
          ...place('mst', 50.85, 5.69, ['offline', 'offline', 'offline']),
        ]}
        fitKey="all"
        radiusKm={35}
        dark
        highlightOffline={false}
        busy={false}
        onActivate={() => {}}
      />,
    );
    const clusters = await screen.findAllByTestId('map-cluster');
    const byLabel = Object.fromEntries(clusters.map((c) => [c.getAttribute('aria-label'), c.dataset.state]));
    expect(byLabel).toEqual({
      '3 stations, zoom in': 'online',
      '3 stations, 1 offline, zoom in': 'partial',
      '3 stations, 3 offline, zoom in': 'offline',
    });
    for (const cluster of clusters) expect(cluster).toHaveClass(`is-${cluster.dataset.state}`);
  });
});
