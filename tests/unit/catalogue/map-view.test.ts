import type { StationMarker } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import {
  clusterStations,
  fitView,
  INITIAL_VIEW,
  project,
  toScreen,
  unproject,
} from '../../../src/features/catalogue/map-view';

const station = (id: string, latitude: number, longitude: number, status = 'online'): StationMarker =>
  ({ id, mountpoint: id, latitude, longitude, status, networkId: 'n' }) as StationMarker;

// Utrecht and Amsterdam (about 35 km apart), and Munich.
const utrecht = station('UTR', 52.09, 5.12);
const amsterdam = station('AMS', 52.37, 4.9, 'offline');
const munich = station('MUC', 48.14, 11.58);

describe('the coverage picture before MapLibre', () => {
  it('fits the stations in the box with 48 px to spare, as MapLibre fitBounds does', () => {
    const view = fitView([utrecht, munich], 800, 560);
    const place = toScreen(view, 800, 560);
    const [ux, uy] = place(utrecht.longitude, utrecht.latitude);
    const [mx, my] = place(munich.longitude, munich.latitude);
    // The longer side touches the padding, the shorter one stays inside it.
    expect(Math.min(uy, my)).toBeCloseTo(48, 0);
    expect(Math.max(uy, my)).toBeCloseTo(512, 0);
    expect(Math.min(ux, mx)).toBeGreaterThanOrEqual(48);
    expect(Math.max(ux, mx)).toBeLessThanOrEqual(752);
  });

  it('never zooms past 8 for one station, and shows Europe without any', () => {
    expect(fitView([utrecht], 800, 560).zoom).toBe(8);
    expect(fitView([], 800, 560)).toEqual(INITIAL_VIEW);
  });

  it('projects and unprojects Web Mercator consistently', () => {
    const [x, y] = project(5.12, 52.09);
    const [lon, lat] = unproject(x, y);
    expect(lon).toBeCloseTo(5.12, 6);
    expect(lat).toBeCloseTo(52.09, 6);
  });

  it('merges nearby stations into a counted cluster while zoomed out, with its offline count', () => {
    const items = clusterStations([utrecht, amsterdam, munich], 5.5);
    const cluster = items.find((i) => i.kind === 'cluster');
    expect(cluster).toMatchObject({ kind: 'cluster', count: 2, offline: 1 });
    expect(items.filter((i) => i.kind === 'station').map((i) => i.kind === 'station' && i.marker.id)).toEqual(['MUC']);
  });

  it('lets every station stand alone from zoom 9 on', () => {
    const items = clusterStations([utrecht, amsterdam, munich], 9);
    expect(items.map((i) => i.kind)).toEqual(['station', 'station', 'station']);
  });
});
