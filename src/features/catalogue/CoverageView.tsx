import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField } from '../../components/form';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { Preloader } from '../../components/Preloader';
import { brand } from '../../lib/brand';
import { DEFAULT_RADIUS_KM, MAP_STYLE_URL } from './basemap';
import type { CatalogueScope } from './catalogue.api';
import { useNetworks, useStationMarkers } from './catalogue.hooks';

const RADII = [0, 10, 20, 30, 40, 50];

/** Resolves once the page has loaded and the browser has a quiet moment (at most two seconds later). */
function afterPageIsInteractive(): Promise<void> {
  const loaded =
    document.readyState === 'complete'
      ? Promise.resolve()
      : new Promise<void>((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
  return loaded.then(
    () =>
      new Promise<void>((resolve) => {
        if ('requestIdleCallback' in window) window.requestIdleCallback(() => resolve(), { timeout: 2000 });
        else setTimeout(resolve, 200);
      }),
  );
}

// MapLibre is a megabyte: the page and its controls show and answer first, the map library comes after, and a
// route that only redirects never loads it.
const CoverageMap = lazy(async () => {
  await afterPageIsInteractive();
  return { default: (await import('./CoverageMap')).CoverageMap };
});

/** Where the map goes, the same size as the map, while it loads: nothing below it moves when it arrives. */
function MapPlaceholder() {
  return (
    <div className="flex h-[420px] items-center justify-center rounded-2xl border border-line md:h-[560px]">
      <Preloader />
    </div>
  );
}

/** The map with what an operator or surveyor filters it by: network, coverage radius and basemap. */
export function CoverageView({
  scope,
  highlightOffline = false,
}: {
  scope: CatalogueScope;
  highlightOffline?: boolean;
}) {
  const { t } = useTranslation('catalogue');
  const networks = useNetworks(scope);
  const markers = useStationMarkers(scope);
  const [network, setNetwork] = useState('');
  const [radiusKm, setRadiusKm] = useState(DEFAULT_RADIUS_KM);
  const [dark, setDark] = useState(brand.darkMapDefault);

  const shown = useMemo(
    () => (markers.data?.items ?? []).filter((m) => !network || m.networkId === network),
    [markers.data, network],
  );
  const offline = shown.filter((m) => m.status !== 'online').length;
  const radii = RADII.includes(DEFAULT_RADIUS_KM) ? RADII : [...RADII, DEFAULT_RADIUS_KM].sort((a, b) => a - b);

  if (markers.isError || networks.isError) return <GenericErrorBlock />;
  // The controls show at once and keep their place; the legend's counts wait (invisible) for the stations.
  const loading = markers.isPending || networks.isPending;

  return (
    <section className="flex flex-col gap-4" aria-label={t('map.sectionLabel')}>
      <div className="flex flex-wrap items-end gap-3">
        <SelectField
          label={t('map.network')}
          value={network}
          onChange={(e) => setNetwork(e.target.value)}
          options={[
            { value: '', label: t('map.allNetworks') },
            ...(networks.data ?? []).map((n) => ({ value: n.id, label: n.name })),
          ]}
          className="w-full sm:w-64"
          data-testid="map-network-filter"
        />
        <SelectField
          label={t('map.radius')}
          value={String(radiusKm)}
          onChange={(e) => setRadiusKm(Number(e.target.value))}
          options={radii.map((r) => ({
            value: String(r),
            label: r ? t('map.radiusKm', { km: r }) : t('map.radiusOff'),
          }))}
          className="w-full sm:w-44"
        />
        {!MAP_STYLE_URL && (
          <SelectField
            label={t('map.basemap')}
            value={dark ? 'dark' : 'light'}
            onChange={(e) => setDark(e.target.value === 'dark')}
            options={[
              { value: 'dark', label: t('map.dark') },
              { value: 'light', label: t('map.light') },
            ]}
            className="w-full sm:w-36"
          />
        )}
        <p
          className={`ml-auto flex items-center gap-4 text-sm text-muted ${loading ? 'invisible' : ''}`}
          data-testid="map-legend"
        >
          <span className="flex items-center gap-1.5">
            <span className="size-2.5 rounded-full bg-status-green" aria-hidden="true" />
            {t('map.online', { count: shown.length - offline })}
          </span>
          <span
            className={`flex items-center gap-1.5 ${highlightOffline && offline > 0 ? 'font-semibold text-status-red' : ''}`}
          >
            <span className="size-2.5 rounded-full bg-status-red" aria-hidden="true" />
            {t('map.offline', { count: offline })}
          </span>
        </p>
      </div>
      {loading ? (
        <MapPlaceholder />
      ) : (
        <Suspense fallback={<MapPlaceholder />}>
          <CoverageMap
            markers={shown}
            fitKey={network}
            scope={scope}
            radiusKm={radiusKm}
            dark={dark}
            highlightOffline={highlightOffline}
          />
        </Suspense>
      )}
    </section>
  );
}
